//===- ModelFunction.cpp - a model's function, compiled, on host tensors --===//

#include "runtime/ModelFunction.h"

#include "dialects/Utils/OpNames.h"
#include "support/Errors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

#include <unistd.h>

namespace prec {

uint64_t getTensorBytes(mlir::RankedTensorType type) {
  uint64_t bytes = (type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  for (int64_t dim : type.getShape()) {
    if (dim != 0 && bytes > std::numeric_limits<uint64_t>::max() / dim)
      return std::numeric_limits<uint64_t>::max();
    bytes *= dim;
  }
  return bytes;
}

uint64_t getPhysicalMemory() {
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
}

/// A binding named `name` for `type`, or an error naming it.
static llvm::Expected<Binding> makeBinding(std::string name, mlir::Type type) {
  auto tensorType = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return makeError("binding '" + name + "' has type " + [&] {
      std::string text;
      llvm::raw_string_ostream(text) << type;
      return text;
    }() + "; prec-run passes statically shaped tensors only");
  std::optional<ElementKind> kind = getElementKind(tensorType.getElementType());
  if (!kind) {
    std::string text;
    llvm::raw_string_ostream(text) << tensorType.getElementType();
    return makeError("binding '" + name + "' has element type " + text +
                     ", which prec-run cannot pass");
  }
  // A binding must fit in this machine's memory: a shape of 10^12
  // elements is an error here, not an allocation failure later.
  uint64_t bytes = getTensorBytes(tensorType), memory = getPhysicalMemory();
  if (bytes > memory)
    return makeError(
        "binding '" + name + "' (" + formatShape(tensorType.getShape()) + " " +
        getElementKindName(*kind) + ") needs " + llvm::Twine(bytes >> 20) +
        " MiB, more than this " + "machine's " + llvm::Twine(memory >> 20) +
        " MiB of memory");
  return Binding{std::move(name), *kind,
                 std::vector<int64_t>(tensorType.getShape().begin(),
                                      tensorType.getShape().end())};
}

llvm::Error readBindings(mlir::Operation *op, std::vector<Binding> &inputs,
                         std::vector<Binding> &outputs) {
  auto function = llvm::cast<mlir::func::FuncOp>(op);
  for (mlir::BlockArgument argument : function.getArguments()) {
    llvm::Expected<Binding> binding =
        makeBinding(getBindingName(argument), argument.getType());
    if (!binding)
      return binding.takeError();
    inputs.push_back(std::move(*binding));
  }
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    llvm::Expected<Binding> binding =
        makeBinding(getResultName(function, index), type);
    if (!binding)
      return binding.takeError();
    outputs.push_back(std::move(*binding));
  }
  return llvm::Error::success();
}

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
