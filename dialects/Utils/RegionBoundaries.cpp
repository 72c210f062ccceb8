//===- RegionBoundaries.cpp - values across region boundaries -------------===//

#include "dialects/Utils/RegionBoundaries.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

namespace prec {

/// The one value forwarded into `value` by a region branch, or null when
/// `value` is not a region branch's successor input or has several sources
/// (a loop's carried value).
static Value getForwardedValue(Value value) {
  SmallVector<Value> sources;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Block *block = argument.getOwner();
    auto branch = dyn_cast<RegionBranchOpInterface>(block->getParentOp());
    if (branch && block->isEntryBlock())
      branch.getPredecessorValues(
          RegionSuccessor(block->getParent(), block->getArguments()),
          argument.getArgNumber(), sources);
  } else if (auto branch = value.getDefiningOp<RegionBranchOpInterface>()) {
    branch.getPredecessorValues(
        RegionSuccessor(branch.getOperation(), branch->getResults()),
        cast<OpResult>(value).getResultNumber(), sources);
  }
  return sources.size() == 1 ? sources.front() : Value();
}

Value lookThroughRegions(Value value) {
  while (Value forwarded = getForwardedValue(value))
    value = forwarded;
  return value;
}

} // namespace prec
