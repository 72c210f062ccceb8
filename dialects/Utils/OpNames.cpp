//===- OpNames.cpp - the names users know ops by --------------------------===//

#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace prec {

std::string getLocationName(Location location) {
  std::string name;
  location->walk([&](Location nested) {
    if (auto named = dyn_cast<NameLoc>(nested)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

std::string getLayerName(Operation *op) {
  if (auto layer = op->getAttrOfType<StringAttr>(
          precision::PrecisionDialect::getLayerAttrName()))
    return layer.str();
  return getLocationName(op->getLoc());
}

std::string getBindingName(BlockArgument argument) {
  if (auto function =
          dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    if (auto named = function.getArgAttrOfType<StringAttr>(
            argument.getArgNumber(),
            precision::PrecisionDialect::getNameAttrName()))
      return named.str();
  std::string name = getLocationName(argument.getLoc());
  if (!name.empty())
    return name;
  return "arg" + std::to_string(argument.getArgNumber());
}

llvm::Expected<NamePattern> NamePattern::create(StringRef text) {
  auto owned = std::make_shared<const std::string>(text.str());
  llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(*owned);
  if (!glob)
    return glob.takeError();
  return NamePattern(std::move(owned), std::move(*glob));
}

std::string getResultName(Operation *op, unsigned index) {
  auto function = cast<FunctionOpInterface>(op);
  if (auto named = function.getResultAttrOfType<StringAttr>(
          index, precision::PrecisionDialect::getNameAttrName()))
    return named.str();
  return "result" + std::to_string(index);
}

bool NamePattern::matchesOp(Operation *op) const {
  if (match(op->getName().getStringRef()))
    return true;
  std::string name = getLayerName(op);
  return !name.empty() && match(name);
}

} // namespace prec
