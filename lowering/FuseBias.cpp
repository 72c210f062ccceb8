//===- FuseBias.cpp - add a contraction's bias in its accumulator ---------===//
//
// A matmul accumulating in f32 and storing f16 is legalized as
//   %acc = tosa.matmul ... -> f32;  %d = tosa.cast %acc {precision.epilogue}
//   %y = tosa.add %d, %bias -> f16
// which rounds twice. GPU libraries add the bias in the accumulator and round
// once (cuBLASLt's BIAS epilogue, TensorRT's fused bias), so the engine can
// only honour the program with a second pass over the result. This pass
// rewrites the program to the fused form,
//   %sum = tosa.add %acc, (tosa.cast %bias -> f32) -> f32
//   %y = tosa.cast %sum {precision.epilogue}
// and both lowering pipelines run it, so the CPU computes what the engine
// computes.
//
//===----------------------------------------------------------------------===//

#include "lowering/FuseBias.h"
#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace prec {
#define GEN_PASS_DEF_PRECFUSEBIAS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;
using prec::precision::PrecisionDialect;

bool prec::isRowBias(RankedTensorType bias, RankedTensorType result) {
  if (bias.getRank() != result.getRank() || result.getRank() == 0)
    return false;
  for (int64_t d = 0, last = result.getRank() - 1; d < last; ++d)
    if (bias.getDimSize(d) != 1)
      return false;
  return bias.getShape().back() == result.getShape().back();
}

namespace {

/// The epilogue cast of an f32-accumulating matmul that `value` is, if any.
tosa::CastOp getMatmulEpilogue(Value value) {
  auto cast = value.getDefiningOp<tosa::CastOp>();
  if (!cast || !cast->hasAttr(PrecisionDialect::getEpilogueAttrName()) ||
      !value.hasOneUse())
    return nullptr;
  // The product, or the product times a constant (a dequantization scale,
  // which the GEMM applies as its alpha before its bias).
  Value product = cast.getInput();
  if (auto scale = product.getDefiningOp<tosa::MulOp>();
      scale && matchPattern(scale.getInput2(), m_Constant()))
    product = scale.getInput1();
  auto matmul = product.getDefiningOp<tosa::MatMulOp>();
  if (!matmul || !getElementTypeOrSelf(matmul.getType()).isF32())
    return nullptr;
  return cast;
}

/// A matmul's converted result as a bias add reads it: the epilogue cast,
/// possibly reshaped (an ONNX Gemm's rank-3 matmul seen as a matrix) as long
/// as rows stay rows.
struct ConvertedProduct {
  tosa::CastOp epilogue;
  tosa::ReshapeOp reshape; // or null
};

std::optional<ConvertedProduct> getConvertedProduct(Value value) {
  auto reshape = value.getDefiningOp<tosa::ReshapeOp>();
  if (reshape) {
    auto from = cast<RankedTensorType>(reshape.getInput1().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    if (!value.hasOneUse() || from.getRank() == 0 || to.getRank() == 0 ||
        from.getShape().back() != to.getShape().back())
      return std::nullopt;
    value = reshape.getInput1();
  }
  if (tosa::CastOp epilogue = getMatmulEpilogue(value))
    return ConvertedProduct{epilogue, reshape};
  return std::nullopt;
}

class FuseBiasPass : public prec::impl::PrecFuseBiasBase<FuseBiasPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tosa::AddOp> adds;
    getOperation().walk([&](tosa::AddOp add) { adds.push_back(add); });
    for (tosa::AddOp add : adds)
      fuse(add);
  }

private:
  void fuse(tosa::AddOp add) {
    Value bias = add.getInput2();
    std::optional<ConvertedProduct> product =
        getConvertedProduct(add.getInput1());
    if (!product) {
      product = getConvertedProduct(add.getInput2());
      bias = add.getInput1();
    }
    auto resultType = cast<RankedTensorType>(add.getType());
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (!product || !prec::isRowBias(biasType, resultType) ||
        getElementTypeOrSelf(product->epilogue.getType()) !=
            resultType.getElementType())
      return;
    tosa::CastOp epilogue = product->epilogue;
    Value accumulator = epilogue.getInput();
    auto accumulatorType = cast<RankedTensorType>(accumulator.getType());
    Type accumulatorElement = accumulatorType.getElementType();

    ImplicitLocOpBuilder builder(add.getLoc(), add);
    // The bias as a row of the matmul's rank, then widened (exactly).
    if (product->reshape) {
      SmallVector<int64_t> row(accumulatorType.getRank(), 1);
      row.back() = biasType.getShape().back();
      biasType = biasType.clone(row);
      bias = tosa::ReshapeOp::create(builder, biasType, bias,
                                     tosa::getTosaConstShape(builder, row));
    }
    auto wideBias =
        tosa::CastOp::create(builder, biasType.clone(accumulatorElement), bias);
    wideBias->setAttr(PrecisionDialect::getInsertedCastAttrName(),
                      builder.getUnitAttr());
    auto sum = tosa::AddOp::create(builder, accumulatorType, accumulator,
                                   wideBias.getResult());
    sum->setAttrs(add->getAttrs());
    if (auto assigned = add->getAttrOfType<prec::precision::AssignmentAttr>(
            PrecisionDialect::getAssignmentAttrName()))
      sum->setAttr(PrecisionDialect::getAssignmentAttrName(),
                   prec::precision::AssignmentAttr::get(
                       &getContext(), accumulatorElement, accumulatorElement,
                       accumulatorElement, assigned.getReason(),
                       "added in its contraction's accumulator"));
    auto fused =
        tosa::CastOp::create(builder, epilogue.getType(), sum.getResult());
    fused->setAttr(PrecisionDialect::getEpilogueAttrName(),
                   builder.getUnitAttr());
    Value result = fused.getResult();
    if (tosa::ReshapeOp reshape = product->reshape)
      result = tosa::ReshapeOp::create(builder, resultType, result,
                                       reshape.getShape());
    add.getResult().replaceAllUsesWith(result);
    add.erase();
    if (product->reshape)
      product->reshape.erase();
    epilogue.erase();
  }
};

} // namespace
