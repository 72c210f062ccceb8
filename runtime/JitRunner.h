//===- JitRunner.h - run a function of a module on the CPU ------*- C++ -*-===//
//
// Lowers a legalized module with prec-lower-to-cpu, JIT-compiles it with
// MLIR's ExecutionEngine and calls one of its functions on host tensors.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_JITRUNNER_H
#define PREC_RUNTIME_JITRUNNER_H

#include "formats/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace prec {

/// One input or output of the function: its name, element kind and shape.
struct Binding {
  std::string name;
  ElementKind kind;
  std::vector<int64_t> shape;
};

class CompiledFunction {
public:
  /// Lowers `module` (consumed) and JIT-compiles it; `functionName` is the
  /// function to call. Bindings must be statically shaped tensors of
  /// supported element types.
  static llvm::Expected<std::unique_ptr<CompiledFunction>>
  compile(mlir::OwningOpRef<mlir::ModuleOp> module,
          llvm::StringRef functionName);

  ~CompiledFunction();

  const std::vector<Binding> &getInputs() const { return inputs; }
  const std::vector<Binding> &getOutputs() const { return outputs; }

  /// Calls the function. Each input must match its binding's kind and shape.
  llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> arguments);

private:
  CompiledFunction() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::string entryName;
  std::vector<Binding> inputs;
  std::vector<Binding> outputs;
};

/// The bindings of `function`'s signature (named as getBindingName and
/// getResultName say); an error names a binding prec cannot pass.
llvm::Error readBindings(mlir::Operation *function,
                         std::vector<Binding> &inputs,
                         std::vector<Binding> &outputs);

} // namespace prec

#endif // PREC_RUNTIME_JITRUNNER_H
