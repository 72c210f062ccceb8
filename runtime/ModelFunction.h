//===- ModelFunction.h - a compiled model function ------------*- C++ -*-===//
//
// What prec-run, prec-calibrate and prec-debug call: one function of a
// legalized module compiled for a device and called on host tensors. The
// CPU JIT's (runtime/JitRunner.h) and a CUDA engine's
// (drivers/EngineFunction.h) take the same inputs and give the same
// outputs, so a caller chooses the device once.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_MODELFUNCTION_H
#define PREC_RUNTIME_MODELFUNCTION_H

#include "formats/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace prec {

/// One input or output of the function: its name, element kind and shape.
struct Binding {
  std::string name;
  ElementKind kind;
  std::vector<int64_t> shape;
};

/// The bindings of `function`'s signature (named as getBindingName and
/// getResultName say); an error names a binding prec cannot pass.
llvm::Error readBindings(mlir::Operation *function,
                         std::vector<Binding> &inputs,
                         std::vector<Binding> &outputs);

/// The bytes of a statically shaped tensor, saturating instead of wrapping.
uint64_t getTensorBytes(mlir::RankedTensorType type);
/// This machine's memory in bytes.
uint64_t getPhysicalMemory();

class ModelFunction {
public:
  virtual ~ModelFunction();

  const std::vector<Binding> &getInputs() const { return inputs; }
  const std::vector<Binding> &getOutputs() const { return outputs; }

  /// Calls the function. Each input must match its binding's kind and shape.
  virtual llvm::Expected<std::vector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> arguments) = 0;

protected:
  /// An error naming the first argument that does not match its binding.
  llvm::Error checkArguments(llvm::ArrayRef<HostTensor> arguments) const;

  std::vector<Binding> inputs;
  std::vector<Binding> outputs;
};

} // namespace prec

#endif // PREC_RUNTIME_MODELFUNCTION_H
