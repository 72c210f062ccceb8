//===- EngineFunction.h - a model's function as a CUDA engine ---*- C++ -*-===//
//
// The GPU's ModelFunction: the function emitted as a CUDA engine (the same
// engine prec-build writes), compiled with nvcc into a shared library
// together with drivers/EngineHost.cu, loaded into the process and called
// on host tensors. prec-debug and prec-calibrate --device gpu run through
// it; its outputs agree with the CPU's up to summation order (the engine's
// GEMMs and reductions add in their own order).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_ENGINEFUNCTION_H
#define PREC_DRIVERS_ENGINEFUNCTION_H

#include "runtime/ModelFunction.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>

namespace prec {

class EngineFunction : public ModelFunction {
public:
  /// Emits `functionName` of the legalized `module` (consumed) as an
  /// engine in a temporary directory, compiles it with `nvcc` (empty:
  /// found as prec-build finds it) for the module's target, loads it and
  /// creates it on the current CUDA device. An error says which step failed
  /// and why (the emitter's diagnostics, nvcc's output, the engine's status).
  static llvm::Expected<std::unique_ptr<EngineFunction>>
  compile(mlir::OwningOpRef<mlir::ModuleOp> module,
          llvm::StringRef functionName, llvm::StringRef nvcc);

  ~EngineFunction() override;

  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> arguments) override;

private:
  struct Library;
  EngineFunction();
  /// An error unless the engine's bindings are the function's: inputs then
  /// outputs, of its element kinds and shapes.
  llvm::Error checkBindings() const;

  std::unique_ptr<Library> library;
  void *runner = nullptr;
};

} // namespace prec

#endif // PREC_DRIVERS_ENGINEFUNCTION_H
