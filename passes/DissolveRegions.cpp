//===- DissolveRegions.cpp - inline precision.region bodies ---------------===//

#include "passes/DissolveRegions.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace prec {

void dissolveRegions(ModuleOp module) {
  SmallVector<precision::RegionOp> regions;
  // Post-order: inner regions dissolve into their parent's body first.
  module.walk([&](precision::RegionOp region) { regions.push_back(region); });
  IRRewriter rewriter(module.getContext());
  for (precision::RegionOp region : regions) {
    precision::YieldOp yield = region.getYield();
    // A yielded block argument dies with the block: yield its input instead.
    Block *body = &region.getBodyBlock();
    SmallVector<Value> yielded;
    for (Value value : yield.getValues()) {
      auto argument = dyn_cast<BlockArgument>(value);
      yielded.push_back(argument && argument.getOwner() == body
                            ? region.getInputs()[argument.getArgNumber()]
                            : value);
    }
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&region.getBodyBlock(), region,
                               region.getInputs());
    rewriter.replaceOp(region, yielded);
  }
}

} // namespace prec
