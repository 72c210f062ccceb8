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
// computes. A bias added after a reshape of the product (an ONNX Gemm) moves
// before it, in f32 too, so that every precision gives the sum one form.
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

/// The matmul `product` is, or that a constant scale of it is.
tosa::MatMulOp getScaledMatmul(Value product) {
  if (auto scale = product.getDefiningOp<tosa::MulOp>();
      scale && matchPattern(scale.getInput2(), m_Constant()))
    product = scale.getInput1();
  return product.getDefiningOp<tosa::MatMulOp>();
}

} // namespace

tosa::MatMulOp prec::getAccumulatingMatmul(tosa::AddOp sum) {
  for (Value operand : sum->getOperands())
    if (tosa::MatMulOp matmul = getScaledMatmul(operand);
        matmul && matmul.getType() == sum.getType())
      return matmul;
  return nullptr;
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
  tosa::MatMulOp matmul = getScaledMatmul(cast.getInput());
  if (!matmul || !getElementTypeOrSelf(matmul.getType()).isF32())
    return nullptr;
  return cast;
}

/// A matmul's result as a bias add reads it: its accumulator, through the
/// epilogue cast to the storage type if any, possibly reshaped (an ONNX
/// Gemm's rank-3 matmul seen as a matrix) as long as rows stay rows.
struct ConvertedProduct {
  Value accumulator;
  tosa::CastOp epilogue;   // or null: stored in the accumulator type
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
    return ConvertedProduct{epilogue.getInput(), epilogue, reshape};
  // Stored in f32, only the reshape has to move after the bias.
  tosa::MatMulOp matmul = getScaledMatmul(value);
  if (reshape && matmul && getElementTypeOrSelf(matmul.getType()).isF32())
    return ConvertedProduct{value, nullptr, reshape};
  return std::nullopt;
}

/// A bias add that reads a converted product.
struct BiasAdd {
  tosa::AddOp add;
  ConvertedProduct product;
  Value bias;
  bool biasFirst;
};

std::optional<BiasAdd> matchBiasAdd(tosa::AddOp add) {
  for (bool biasFirst : {false, true}) {
    Value product = biasFirst ? add.getInput2() : add.getInput1();
    Value bias = biasFirst ? add.getInput1() : add.getInput2();
    std::optional<ConvertedProduct> converted = getConvertedProduct(product);
    if (!converted)
      continue;
    auto resultType = cast<RankedTensorType>(add.getType());
    Value stored =
        converted->epilogue ? converted->epilogue : converted->accumulator;
    if (prec::isRowBias(cast<RankedTensorType>(bias.getType()), resultType) &&
        getElementTypeOrSelf(stored.getType()) == resultType.getElementType())
      return BiasAdd{add, *converted, bias, biasFirst};
  }
  return std::nullopt;
}

class FuseBiasPass : public prec::impl::PrecFuseBiasBase<FuseBiasPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<BiasAdd> biasAdds;
    getOperation().walk([&](tosa::AddOp add) {
      if (std::optional<BiasAdd> biasAdd = matchBiasAdd(add))
        biasAdds.push_back(*biasAdd);
    });
    for (const BiasAdd &biasAdd : biasAdds)
      fuse(biasAdd);
  }

private:
  /// The bias as a row of the accumulator's rank and type (exactly).
  Value getAccumulatorBias(const BiasAdd &biasAdd, ImplicitLocOpBuilder &b) {
    auto accumulatorType =
        cast<RankedTensorType>(biasAdd.product.accumulator.getType());
    Value bias = biasAdd.bias;
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (biasAdd.product.reshape) {
      SmallVector<int64_t> row(accumulatorType.getRank(), 1);
      row.back() = biasType.getShape().back();
      biasType = biasType.clone(row);
      bias = tosa::ReshapeOp::create(b, biasType, bias,
                                     tosa::getTosaConstShape(b, row));
    }
    if (biasType.getElementType() == accumulatorType.getElementType())
      return bias;
    auto wideBias = tosa::CastOp::create(
        b, biasType.clone(accumulatorType.getElementType()), bias);
    wideBias->setAttr(PrecisionDialect::getInsertedCastAttrName(),
                      b.getUnitAttr());
    return wideBias;
  }

  void fuse(BiasAdd biasAdd) {
    tosa::AddOp add = biasAdd.add;
    ConvertedProduct &product = biasAdd.product;
    auto accumulatorType =
        cast<RankedTensorType>(product.accumulator.getType());
    Type accumulatorElement = accumulatorType.getElementType();
    ImplicitLocOpBuilder builder(add.getLoc(), add);
    // In the add's operand order, so that the sum pairs with the add of a
    // legalization that does not fuse (prec-debug's switches).
    Value lhs = product.accumulator;
    Value rhs = getAccumulatorBias(biasAdd, builder);
    if (biasAdd.biasFirst)
      std::swap(lhs, rhs);
    auto sum = tosa::AddOp::create(builder, accumulatorType, lhs, rhs);
    sum->setAttrs(add->getAttrs());
    if (auto assigned = add->getAttrOfType<prec::precision::AssignmentAttr>(
            PrecisionDialect::getAssignmentAttrName()))
      sum->setAttr(PrecisionDialect::getAssignmentAttrName(),
                   prec::precision::AssignmentAttr::get(
                       &getContext(), accumulatorElement, accumulatorElement,
                       accumulatorElement, assigned.getReason(),
                       "added in its contraction's accumulator"));
    Value result = sum.getResult();
    if (product.epilogue) {
      auto fused =
          tosa::CastOp::create(builder, product.epilogue.getType(), result);
      fused->setAttr(PrecisionDialect::getEpilogueAttrName(),
                     builder.getUnitAttr());
      result = fused;
    }
    if (tosa::ReshapeOp reshape = product.reshape)
      result = tosa::ReshapeOp::create(builder, add.getType(), result,
                                       reshape.getShape());
    add.getResult().replaceAllUsesWith(result);
    add.erase();
    if (product.reshape)
      product.reshape.erase();
    if (product.epilogue)
      product.epilogue.erase();
  }
};

} // namespace
