//===- Softmax.cpp - the parts of a softmax as TOSA writes it -------------===//

#include "dialects/Utils/Softmax.h"

using namespace mlir;

namespace prec {

std::optional<SoftmaxQuotient> matchSoftmaxQuotient(Operation *op) {
  auto product = dyn_cast_or_null<tosa::MulOp>(op);
  if (!product)
    return std::nullopt;
  for (unsigned terms : {0u, 1u}) {
    auto reciprocal =
        product->getOperand(1 - terms).getDefiningOp<tosa::ReciprocalOp>();
    auto sum = reciprocal
                   ? reciprocal.getInput1().getDefiningOp<tosa::ReduceSumOp>()
                   : nullptr;
    if (sum && sum.getInput() == product->getOperand(terms))
      return SoftmaxQuotient{product, reciprocal, sum,
                             product->getOperand(terms)};
  }
  return std::nullopt;
}

std::optional<MaximumShift> matchMaximumShift(Operation *op) {
  auto shift = dyn_cast_or_null<tosa::SubOp>(op);
  auto maximum =
      shift ? shift.getInput2().getDefiningOp<tosa::ReduceMaxOp>() : nullptr;
  if (!maximum || maximum.getInput() != shift.getInput1())
    return std::nullopt;
  return MaximumShift{shift, maximum};
}

} // namespace prec
