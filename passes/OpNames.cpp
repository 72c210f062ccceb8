//===- OpNames.cpp - the names users know ops by --------------------------===//

#include "passes/OpNames.h"

#include "mlir/IR/Location.h"

using namespace mlir;

namespace prec {

static std::string findName(Location location) {
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

std::string getLayerName(Operation *op) { return findName(op->getLoc()); }

std::string getBindingName(BlockArgument argument) {
  std::string name = findName(argument.getLoc());
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

bool NamePattern::matchesOp(Operation *op) const {
  if (match(op->getName().getStringRef()))
    return true;
  std::string name = getLayerName(op);
  return !name.empty() && match(name);
}

} // namespace prec
