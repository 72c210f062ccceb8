//===- OpClasses.cpp - which class each op belongs to ---------------------===//

#include "passes/OpClasses.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace prec {

/// Number of input elements summed into each output of a tosa reduction.
static int64_t getReductionLength(Operation *op) {
  auto inputType = dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto axis = op->getAttrOfType<IntegerAttr>("axis");
  if (!inputType || !inputType.hasRank() || !axis)
    return ShapedType::kDynamic;
  return inputType.getDimSize(axis.getInt());
}

OpClass classifyOp(Operation *op) {
  if (isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
          tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op))
    return OpClass::Contraction;
  if (isa<tosa::ExpOp, tosa::LogOp, tosa::PowOp, tosa::ReciprocalOp,
          tosa::RsqrtOp>(op))
    return OpClass::Sensitive;
  if (isa<tosa::ReduceSumOp, tosa::ReduceProductOp>(op)) {
    int64_t length = getReductionLength(op);
    return ShapedType::isDynamic(length) || length >= kSensitiveReductionLength
               ? OpClass::Sensitive
               : OpClass::Reduction;
  }
  if (isa<tosa::ReduceMaxOp, tosa::ReduceMinOp>(op))
    return OpClass::Reduction;
  if (isa<tosa::MaxPool2dOp, tosa::AvgPool2dOp>(op))
    return OpClass::Pooling;
  if (isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::NegateOp, tosa::AbsOp,
          tosa::ClampOp, tosa::MaximumOp, tosa::MinimumOp, tosa::SigmoidOp,
          tosa::TanhOp, tosa::ErfOp, tosa::FloorOp, tosa::CeilOp, tosa::SinOp,
          tosa::CosOp, tosa::SelectOp>(op))
    return OpClass::Elementwise;
  if (isa<tosa::ReshapeOp, tosa::TransposeOp, tosa::SliceOp, tosa::ConcatOp,
          tosa::PadOp, tosa::TileOp, tosa::GatherOp, tosa::ReverseOp,
          tosa::IdentityOp>(op))
    return OpClass::DataMovement;
  if (isa<tosa::CastOp, precision::CastOp>(op))
    return OpClass::Cast;
  return OpClass::Other;
}

bool accumulates(Operation *op) {
  return classifyOp(op) == OpClass::Contraction || isa<tosa::ReduceSumOp>(op);
}

} // namespace prec
