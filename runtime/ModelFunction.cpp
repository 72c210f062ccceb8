//===- ModelFunction.cpp - a model's function, compiled, on host tensors --===//

#include "runtime/ModelFunction.h"

#include "support/Errors.h"

#include "llvm/ADT/Twine.h"

namespace prec {

ModelFunction::~ModelFunction() = default;

llvm::Error
ModelFunction::checkArguments(llvm::ArrayRef<HostTensor> arguments) const {
  if (arguments.size() != inputs.size())
    return makeError("the function takes " + llvm::Twine(inputs.size()) +
                     " inputs, " + llvm::Twine(arguments.size()) + " given");
  for (auto [argument, binding] : llvm::zip(arguments, inputs))
    if (argument.kind != binding.kind || argument.shape != binding.shape)
      return makeError("input '" + binding.name + "' is " +
                       getElementKindName(argument.kind) + " " +
                       argument.formatShape() + " but the function takes " +
                       getElementKindName(binding.kind) + " " +
                       formatShape(binding.shape));
  return llvm::Error::success();
}

} // namespace prec
