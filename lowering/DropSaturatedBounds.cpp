//===- DropSaturatedBounds.cpp - clamps a saturating cast repeats ---------===//
//
// A quantization clamps to +-127 and converts to i8; the conversion
// saturates at 127 itself (TOSA's cast of a float to an integer does), so
// the clamp's upper bound changes nothing there. A clamp read only by such
// casts loses that bound: the engine's clamp is then one fmaxf instead of
// fmaxf and fminf, an instruction an element in every quantizing epilogue
// (ResNet-50's convolutions are issue-bound in theirs). Both pipelines run
// this, so that the CPU computes what the engine computes.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/APInt.h"

namespace prec {
#define GEN_PASS_DEF_PRECDROPSATURATEDBOUNDS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// Whether `user` converts a float to a signless integer whose largest
/// value is at most `bound` (TOSA's integers are signed: i8 saturates at
/// 127). The largest value is rounded up into the bound's type, so that a
/// bound it does not hold exactly (65504 in f16 against i32's) stays.
bool saturatesBelow(Operation *user, const APFloat &bound) {
  auto cast = dyn_cast<tosa::CastOp>(user);
  auto integer =
      cast ? dyn_cast<IntegerType>(getElementTypeOrSelf(cast.getType()))
           : nullptr;
  if (!integer || !integer.isSignless() || integer.getWidth() == 1)
    return false;
  APFloat largest(bound.getSemantics());
  largest.convertFromAPInt(APInt::getSignedMaxValue(integer.getWidth()),
                           /*IsSigned=*/true, APFloat::rmTowardPositive);
  return !largest.isInfinity() &&
         bound.compare(largest) != APFloat::cmpLessThan;
}

class DropSaturatedBoundsPass
    : public prec::impl::PrecDropSaturatedBoundsBase<DropSaturatedBoundsPass> {
public:
  void runOnOperation() override {
    getOperation().walk([](tosa::ClampOp clamp) {
      auto upper = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
      if (!upper || upper.getValue().isInfinity() || clamp->use_empty() ||
          !llvm::all_of(clamp->getUsers(), [&](Operation *user) {
            return saturatesBelow(user, upper.getValue());
          }))
        return;
      clamp.setMaxValAttr(FloatAttr::get(
          upper.getType(),
          APFloat::getInf(upper.getValue().getSemantics())));
    });
  }
};

} // namespace
