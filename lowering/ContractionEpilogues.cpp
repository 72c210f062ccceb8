//===- ContractionEpilogues.cpp - what a GEMM computes besides ------------===//

#include "lowering/ContractionEpilogues.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/Constants.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/FuseBias.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace prec {

MatmulEpilogue getMatmulEpilogue(tosa::MatMulOp op) {
  MatmulEpilogue epilogue;
  auto singleUser = [](Value value) -> Operation * {
    return value.hasOneUse() ? *value.user_begin() : nullptr;
  };
  bool f32Accumulator = getElementTypeOrSelf(op.getType()).isF32();
  Value value = op.getResult();
  if (auto mul = dyn_cast_or_null<tosa::MulOp>(singleUser(value));
      mul && f32Accumulator && mul.getType() == op.getType()) {
    Value other = mul.getInput1() == value ? mul.getInput2() : mul.getInput1();
    if (getFloatSplat(other)) {
      epilogue.scale = mul;
      epilogue.alpha = other;
      value = mul.getResult();
    }
  }
  auto add = dyn_cast_or_null<tosa::AddOp>(singleUser(value));
  if (add && (add.getType() != op.getType() || !f32Accumulator))
    add = nullptr;
  auto conversion =
      dyn_cast_or_null<tosa::CastOp>(singleUser(add ? add.getResult() : value));
  if (conversion && (!conversion->hasAttr(
                         precision::PrecisionDialect::getEpilogueAttrName()) ||
                     !(getElementTypeOrSelf(conversion.getType()).isF16() ||
                       getElementTypeOrSelf(conversion.getType()).isBF16())))
    conversion = nullptr;
  Type dType =
      getElementTypeOrSelf(conversion ? conversion.getType() : op.getType());
  if (add) {
    Value bias = add.getInput1() == value ? add.getInput2() : add.getInput1();
    auto biasType = cast<RankedTensorType>(bias.getType());
    bool isRowVector =
        prec::isRowBias(biasType, cast<RankedTensorType>(op.getType()));
    auto widening = bias.getDefiningOp<tosa::CastOp>();
    if (widening && biasType.getElementType() != dType &&
        getElementTypeOrSelf(widening.getInput().getType()) == dType)
      bias = widening.getInput();
    else
      widening = nullptr;
    if (isRowVector && getElementTypeOrSelf(bias.getType()) == dType) {
      epilogue.biasAdd = add;
      epilogue.bias = bias;
      epilogue.biasWidening = widening;
      value = add.getResult();
    }
  }
  // The conversion is the epilogue's only when nothing between needs a
  // kernel.
  if (conversion && (epilogue.biasAdd || !add)) {
    epilogue.cast = conversion;
    value = conversion.getResult();
  }
  epilogue.result = value;
  return epilogue;
}

engine::Epilogue MatmulEpilogue::getSteps() const {
  engine::Epilogue steps{};
  if (scale)
    steps = steps | engine::Epilogue::Scale;
  if (biasAdd)
    steps = steps | engine::Epilogue::Bias;
  if (cast)
    steps = steps | engine::Epilogue::Convert;
  return steps;
}

/// The steps recorded on `op`, none without engine.epilogue.
static engine::Epilogue getRecordedSteps(Operation *op) {
  auto recorded = op->getAttrOfType<engine::EpilogueAttr>(
      engine::EngineDialect::EpilogueAttrHelper::getNameStr());
  return recorded ? recorded.getValue() : engine::Epilogue{};
}

/// The error of an epilogue record the program no longer matches.
static LogicalResult mismatch(Operation *op, engine::Epilogue recorded,
                              engine::Epilogue found) {
  return op->emitError() << "engine.epilogue records {"
                         << engine::stringifyEpilogue(recorded)
                         << "}, but the ops after it compute {"
                         << engine::stringifyEpilogue(found)
                         << "}: run prec-plan-kernels again";
}

FailureOr<MatmulEpilogue> getPlannedEpilogue(tosa::MatMulOp op) {
  MatmulEpilogue epilogue = getMatmulEpilogue(op);
  engine::Epilogue recorded = getRecordedSteps(op);
  if (epilogue.getSteps() != recorded)
    return mismatch(op, recorded, epilogue.getSteps());
  return epilogue;
}

Value getTransposedB(tosa::MatMulOp op) {
  auto transpose = op.getB().getDefiningOp<tosa::TransposeOp>();
  if (!transpose || transpose.getPerms() != ArrayRef<int32_t>{0, 2, 1})
    return nullptr;
  return transpose.getInput1();
}

bool needsTransposedB(tosa::MatMulOp op) {
  Type input = getElementTypeOrSelf(op.getA().getType());
  return input.isInteger(8) || isa<Float8E4M3FNType, Float8E5M2Type>(input);
}

Operation *getReluEpilogue(tosa::Conv2DOp op) {
  if (!isConvGemm(op) || !op.getResult().hasOneUse())
    return nullptr;
  auto clamp = dyn_cast<tosa::ClampOp>(*op.getResult().user_begin());
  if (!clamp || clamp.getType() != op.getType())
    return nullptr;
  auto low = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto high = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  if (!low || !high || low.getValueAsDouble() != 0.0)
    return nullptr;
  double top = high.getValueAsDouble();
  return std::isinf(top) || top >= std::numeric_limits<float>::max()
             ? clamp.getOperation()
             : nullptr;
}

FailureOr<Operation *> getPlannedReluEpilogue(tosa::Conv2DOp op) {
  Operation *relu = getReluEpilogue(op);
  engine::Epilogue found = relu ? engine::Epilogue::Relu : engine::Epilogue{};
  engine::Epilogue recorded = getRecordedSteps(op);
  if (found != recorded)
    return mismatch(op, recorded, found);
  return relu;
}

} // namespace prec
