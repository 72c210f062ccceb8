//===- LowerPrecisionCasts.cpp - precision.cast to tosa.cast --------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

namespace prec {
#define GEN_PASS_DEF_PRECLOWERPRECISIONCASTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

class LowerPrecisionCastsPass
    : public prec::impl::PrecLowerPrecisionCastsBase<LowerPrecisionCastsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    WalkResult regions = getOperation().walk([](prec::precision::RegionOp op) {
      op.emitError() << "precision.region must be legalized before lowering: "
                        "run prec-legalize first";
      return WalkResult::interrupt();
    });
    if (regions.wasInterrupted())
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    getOperation().walk([&](prec::precision::CastOp cast) {
      rewriter.setInsertionPoint(cast);
      rewriter.replaceOpWithNewOp<tosa::CastOp>(cast, cast.getType(),
                                                cast.getInput());
    });
  }
};

} // namespace
