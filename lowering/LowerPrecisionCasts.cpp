//===- LowerPrecisionCasts.cpp - precision.cast to tosa.cast --------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace prec {
#define GEN_PASS_DEF_PRECLOWERPRECISIONCASTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// Whether every value of float type `narrow` is one of float type `wide`.
bool holdsExactly(Type wide, Type narrow) {
  auto from = dyn_cast<FloatType>(narrow);
  auto to = dyn_cast<FloatType>(wide);
  return from && to &&
         APFloat::isRepresentableBy(from.getFloatSemantics(),
                                    to.getFloatSemantics());
}

/// The value `castOp` gives back unchanged: it rounds to the type a cast
/// widened from, exactly, with only reshapes between (f16 widened for an
/// f32 op of the model, then rounded back for the f16 op that replaced it).
Value getRoundTripSource(tosa::CastOp castOp) {
  Value value = castOp.getInput();
  while (auto reshape = value.getDefiningOp<tosa::ReshapeOp>())
    value = reshape.getInput1();
  auto widening = value.getDefiningOp<tosa::CastOp>();
  if (!widening)
    return nullptr;
  Value source = widening.getInput();
  Type element = getElementTypeOrSelf(source.getType());
  if (element != getElementTypeOrSelf(castOp.getType()) ||
      !holdsExactly(getElementTypeOrSelf(value.getType()), element))
    return nullptr;
  return source;
}

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
    foldRoundTrips(rewriter);
  }

private:
  /// Replaces each cast that gives back a value unchanged by that value,
  /// reshaped where reshapes came between; the widening and reshapes that
  /// nothing else reads go.
  void foldRoundTrips(IRRewriter &rewriter) {
    getOperation().walk([&](tosa::CastOp castOp) {
      Value source = getRoundTripSource(castOp);
      auto type = cast<RankedTensorType>(castOp.getType());
      if (!source || (source.getType() != type && !type.hasStaticShape()))
        return;
      Operation *between = castOp.getInput().getDefiningOp();
      if (source.getType() == type) {
        rewriter.replaceOp(castOp, source);
      } else {
        rewriter.setInsertionPoint(castOp);
        ImplicitLocOpBuilder builder(castOp.getLoc(), rewriter);
        Value shape = tosa::getTosaConstShape(builder, type.getShape());
        rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(castOp, type, source,
                                                     shape);
      }
      while (between && between->use_empty()) {
        Operation *next = between->getOperand(0).getDefiningOp();
        Operation *shape = between->getNumOperands() > 1
                               ? between->getOperand(1).getDefiningOp()
                               : nullptr;
        rewriter.eraseOp(between);
        if (shape && shape->use_empty())
          rewriter.eraseOp(shape);
        between = next == source.getDefiningOp() ? nullptr : next;
      }
    });
  }
};

} // namespace
