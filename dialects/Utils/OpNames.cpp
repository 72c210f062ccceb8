//===- OpNames.cpp - the names users know ops by --------------------------===//

#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace prec {

// A direct descent, not Location::walk: it is asked for every op of a model
// by several passes, and the generic walker allocates on each call.
StringAttr getLocationNameAttr(Location location) {
  if (auto named = dyn_cast<NameLoc>(location))
    return named.getName();
  if (auto fused = dyn_cast<FusedLoc>(location)) {
    for (Location nested : fused.getLocations())
      if (StringAttr name = getLocationNameAttr(nested))
        return name;
    return {};
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(location)) {
    if (StringAttr name = getLocationNameAttr(callSite.getCallee()))
      return name;
    return getLocationNameAttr(callSite.getCaller());
  }
  if (auto opaque = dyn_cast<OpaqueLoc>(location))
    return getLocationNameAttr(opaque.getFallbackLocation());
  return {};
}

StringRef getLocationName(Location location) {
  StringAttr name = getLocationNameAttr(location);
  return name ? name.getValue() : StringRef();
}

StringRef getLayerName(Operation *op) {
  if (auto layer = op->getAttrOfType<StringAttr>(
          precision::PrecisionDialect::getLayerAttrName()))
    return layer.getValue();
  return getLocationName(op->getLoc());
}

std::string describeOp(Operation *op) {
  std::string name = getLayerName(op).str();
  std::string opName = op->getName().getStringRef().str();
  return name.empty() ? opName : "'" + name + "' (" + opName + ")";
}

std::string getBindingName(BlockArgument argument) {
  if (auto function =
          dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    if (auto named = function.getArgAttrOfType<StringAttr>(
            argument.getArgNumber(),
            precision::PrecisionDialect::getNameAttrName()))
      return named.str();
  StringRef name = getLocationName(argument.getLoc());
  if (!name.empty())
    return name.str();
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

std::string getTypeName(Type type) {
  std::string text;
  if (type)
    llvm::raw_string_ostream(text) << type;
  return text;
}

bool NamePattern::matchesOp(Operation *op) const {
  if (match(op->getName().getStringRef()))
    return true;
  StringRef name = getLayerName(op);
  return !name.empty() && match(name);
}

} // namespace prec
