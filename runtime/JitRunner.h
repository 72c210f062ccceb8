//===- JitRunner.h - run a function of a module on the CPU ------*- C++ -*-===//
//
// Lowers a legalized module with prec-lower-to-cpu, JIT-compiles it with
// MLIR's ExecutionEngine and calls one of its functions on host tensors.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_JITRUNNER_H
#define PREC_RUNTIME_JITRUNNER_H

#include "runtime/ModelFunction.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace prec {

class CompiledFunction : public ModelFunction {
public:
  /// Lowers `module` (consumed) and JIT-compiles it; `functionName` is the
  /// function to call. Bindings must be statically shaped tensors of
  /// supported element types.
  static llvm::Expected<std::unique_ptr<CompiledFunction>>
  compile(mlir::OwningOpRef<mlir::ModuleOp> module,
          llvm::StringRef functionName);

  ~CompiledFunction() override;

  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> arguments) override;

private:
  CompiledFunction() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::string entryName;
};

} // namespace prec

#endif // PREC_RUNTIME_JITRUNNER_H
