//===- CudaEmitter.h - a legalized module as a CUDA engine ------*- C++ -*-===//
//
// Writes a legalized module's function as a CUDA engine: one .cu file with a
// kernel per op (op names in comments) and cuBLASLt calls for matmuls, host
// code that runs them on one stream without allocating per run, a C header
// with the engine's API, a weights file holding every constant in its
// target type, and a manifest JSON (bindings, each op's compute /
// accumulate / storage types, workspace size, target).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_CODEGEN_CUDAEMITTER_H
#define PREC_CODEGEN_CUDAEMITTER_H

#include "lowering/BatchRange.h"
#include "lowering/ConvolutionPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

/// How an engine is emitted.
struct CudaEngineOptions {
  /// A dynamic batch (the module is at its largest), or none.
  std::optional<BatchRange> batch;
  /// The inputs that carry it; empty: those whose dimension 0 is the
  /// largest batch.
  std::vector<std::string> batchInputs;
  /// Which of cuDNN and im2col the convolutions that can take either take.
  ConvolutionPreference convolutions = ConvolutionPreference::Auto;
};

/// Whether `name` can name an engine: an identifier, since it prefixes the
/// engine's C functions, and not prec or prec_*, the runtime's prefix.
bool isEngineName(llvm::StringRef name);

/// Emits the engine for `module`'s function as `<stem>.cu`, `<stem>.h`,
/// `<stem>.weights` and `<stem>.json` in `directory` (created if missing);
/// `stem` must be an engine name.
/// The C functions are named `<stem>_create`, `<stem>_run`, ...
mlir::LogicalResult emitCudaEngine(mlir::ModuleOp module,
                                   llvm::StringRef directory,
                                   llvm::StringRef stem,
                                   const CudaEngineOptions &options);

/// Registers `--emit-cuda` with prec-translate.
void registerCudaEmitTranslation();

} // namespace prec

#endif // PREC_CODEGEN_CUDAEMITTER_H
