//===- MarkMetLowerBounds.cpp - clamps whose input meets their lower bound ===//
//
// A quantization after a ReLU clamps to [-127, 127] values that are never
// below 0 (NonNegativeAnalysis): the clamp's fmaxf changes no element, and
// it is an instruction an element in every quantizing epilogue of a CNN
// (ResNet-50's early convolutions are issue-bound in theirs). Such a clamp
// gets `engine.met_lower_bound` and the emitter leaves that bound out. The
// CPU keeps it, which changes nothing there either.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/NonNegativeAnalysis.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECMARKMETLOWERBOUNDS
#include "lowering/Passes.h.inc"

namespace {

/// Whether values at or above 0 meet the lower bound `bound`, with the
/// bound's fmaxf returning each of them: +0 or below 0 (for -0, fmaxf(+0,
/// -0) may return -0).
bool isMetByNonNegative(Attribute bound) {
  auto value = dyn_cast<FloatAttr>(bound);
  return value && !value.getValue().isNaN() &&
         (value.getValue().isPosZero() ||
          (value.getValue().isNegative() && !value.getValue().isZero()));
}

class MarkMetLowerBoundsPass
    : public PlanPass<MarkMetLowerBoundsPass,
                      impl::PrecMarkMetLowerBoundsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    auto marks =
        engine::EngineDialect::get(&getContext()).getMetLowerBoundAttrHelper();
    FailureOr<NonNegativeAnalysis> analysis =
        NonNegativeAnalysis::run(function);
    if (failed(analysis))
      return failure();
    // A plan made again decides again: a mark left by an earlier one goes
    // where the clamp's kernel or input has changed.
    function.walk([&](tosa::ClampOp clamp) {
      if (isEngineClamp(clamp) && isMetByNonNegative(clamp.getMinValAttr()) &&
          analysis->isNonNegativeNumber(clamp.getInput()))
        marks.setAttr(clamp, UnitAttr::get(&getContext()));
      else
        marks.removeAttr(clamp);
    });
    return success();
  }
};

} // namespace

} // namespace prec
