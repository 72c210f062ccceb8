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
    SmallVector<Value> yielded(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&region.getBodyBlock(), region,
                               region.getInputs());
    rewriter.replaceOp(region, yielded);
  }
}

} // namespace prec
