//===- OpClasses.cpp - the op classes precision rules speak of ------------===//

#include "passes/OpClasses.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/StringSwitch.h"

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

StringRef getOpClassName(OpClass opClass) {
  switch (opClass) {
  case OpClass::Contraction:
    return "contraction";
  case OpClass::Sensitive:
    return "sensitive";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Pooling:
    return "pooling";
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::DataMovement:
    return "data_movement";
  case OpClass::Cast:
    return "cast";
  case OpClass::Other:
    return "other";
  }
  llvm_unreachable("unknown op class");
}

std::optional<OpClass> parseOpClassName(StringRef name) {
  return llvm::StringSwitch<std::optional<OpClass>>(name)
      .Case("contraction", OpClass::Contraction)
      .Case("sensitive", OpClass::Sensitive)
      .Case("reduction", OpClass::Reduction)
      .Case("pooling", OpClass::Pooling)
      .Case("elementwise", OpClass::Elementwise)
      .Case("data_movement", OpClass::DataMovement)
      .Default(std::nullopt);
}

StringRef getOpClassSpellings() {
  return "contraction, sensitive, reduction, pooling, elementwise, "
         "data_movement";
}

} // namespace prec
