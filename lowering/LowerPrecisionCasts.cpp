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
    getOperation().walk([&](prec::precision::CastOp castOp) {
      rewriter.setInsertionPoint(castOp);
      rewriter.replaceOpWithNewOp<tosa::CastOp>(castOp, castOp.getType(),
                                                castOp.getInput());
    });
    // Between two float types of one width (f16 and bf16, the f8s) no
    // single extension or truncation converts: go through f32, which holds
    // each of them exactly.
    getOperation().walk([&](tosa::CastOp castOp) {
      Value input = castOp.getInput();
      auto from = dyn_cast<FloatType>(getElementTypeOrSelf(input.getType()));
      auto to = dyn_cast<FloatType>(getElementTypeOrSelf(castOp.getType()));
      if (!from || !to || from == to || from.getWidth() != to.getWidth() ||
          from.getWidth() >= 32)
        return;
      rewriter.setInsertionPoint(castOp);
      auto wide = cast<RankedTensorType>(input.getType())
                      .clone(Float32Type::get(&getContext()));
      Value exact =
          tosa::CastOp::create(rewriter, castOp.getLoc(), wide, input);
      rewriter.modifyOpInPlace(castOp,
                               [&] { castOp.getInputMutable().assign(exact); });
    });
  }
};

} // namespace
