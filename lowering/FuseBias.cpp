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
// computes. A bias added after a reshape of the product (an ONNX Gemm, a
// 2-D MatMul) moves before the reshape whether or not it fuses (in f32, or
// converted after the reshape to a lower add, or after an i8 product's
// dequantization), so that every precision gives the add one form and one
// layer.
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

/// The matmul `product` is, or that a constant scale of it is (a
/// dequantization, of an i8 product converted to float first).
tosa::MatMulOp getScaledMatmul(Value product) {
  if (auto scale = product.getDefiningOp<tosa::MulOp>();
      scale && matchPattern(scale.getInput2(), m_Constant())) {
    product = scale.getInput1();
    if (auto convert = product.getDefiningOp<tosa::CastOp>();
        convert && isa<IntegerType>(getElementTypeOrSelf(convert.getInput())))
      product = convert.getInput();
  }
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

/// The epilogue cast of a matmul's product that `value` is, if any.
tosa::CastOp getMatmulEpilogue(Value value) {
  auto cast = value.getDefiningOp<tosa::CastOp>();
  if (!cast || !cast->hasAttr(PrecisionDialect::getEpilogueAttrName()) ||
      !value.hasOneUse())
    return nullptr;
  // The product, or the product times a constant (a dequantization scale,
  // which the GEMM applies as its alpha before its bias).
  return getScaledMatmul(cast.getInput()) ? cast : nullptr;
}

/// A matmul's result as a bias add reads it: its accumulator, through the
/// epilogue cast to the storage type if any, possibly reshaped (an ONNX
/// Gemm's or a 2-D MatMul's rank-3 matmul seen as a matrix) as long as rows
/// stay rows, and then possibly converted to the add's type.
struct ConvertedProduct {
  Value accumulator;
  tosa::CastOp epilogue;   // or null: stored as the matmul returns it
  tosa::ReshapeOp reshape; // or null
  tosa::CastOp conversion; // a cast prec inserted after the reshape, or null
  bool accumulatesF32 = false;

  /// Whether the bias can be added in the accumulator: an f32 one (not an
  /// i8 product's i32), whose epilogue's rounding the add alone reads.
  bool fuses() const { return epilogue && !conversion && accumulatesF32; }
  /// The product before the reshape, as stored.
  Value getStored() { return epilogue ? epilogue.getResult() : accumulator; }
};

/// The reshape `value` is, if it keeps rows rows and has no other reader.
tosa::ReshapeOp getRowReshape(Value value) {
  auto reshape = value.getDefiningOp<tosa::ReshapeOp>();
  if (!reshape || !value.hasOneUse())
    return nullptr;
  auto from = cast<RankedTensorType>(reshape.getInput1().getType());
  auto to = cast<RankedTensorType>(reshape.getType());
  if (from.getRank() == 0 || to.getRank() == 0 ||
      from.getShape().back() != to.getShape().back())
    return nullptr;
  return reshape;
}

/// The cast prec inserted that `value` is, if it has no other reader.
tosa::CastOp getInsertedCast(Value value) {
  auto conversion = value.getDefiningOp<tosa::CastOp>();
  if (!conversion || !value.hasOneUse() ||
      !conversion->hasAttr(PrecisionDialect::getInsertedCastAttrName()))
    return nullptr;
  return conversion;
}

std::optional<ConvertedProduct> getConvertedProduct(Value value) {
  ConvertedProduct product{};
  if (auto conversion = getInsertedCast(value);
      conversion && getRowReshape(conversion.getInput())) {
    product.conversion = conversion;
    value = conversion.getInput();
  }
  if ((product.reshape = getRowReshape(value))) {
    value = product.reshape.getInput1();
    // Or converted before the reshape: one that moves data of a layer
    // pinned to i8 runs in f32.
    if (!product.conversion && (product.conversion = getInsertedCast(value)))
      value = product.conversion.getInput();
  }
  if ((product.epilogue = getMatmulEpilogue(value)))
    product.accumulator = product.epilogue.getInput();
  else if (getScaledMatmul(value))
    product.accumulator = value;
  if (product.accumulator)
    product.accumulatesF32 =
        getElementTypeOrSelf(getScaledMatmul(product.accumulator).getType())
            .isF32();
  if (!product.accumulator || (!product.fuses() && !product.reshape))
    return std::nullopt;
  return product;
}

/// A bias add that reads a converted product.
struct BiasAdd {
  tosa::AddOp add;
  ConvertedProduct product;
  Value bias;
  bool biasFirst;
};

std::optional<BiasAdd> matchBiasAdd(tosa::AddOp add) {
  auto resultType = cast<RankedTensorType>(add.getType());
  for (bool biasFirst : {false, true}) {
    Value product = biasFirst ? add.getInput2() : add.getInput1();
    Value bias = biasFirst ? add.getInput1() : add.getInput2();
    std::optional<ConvertedProduct> converted = getConvertedProduct(product);
    if (!converted ||
        !prec::isRowBias(cast<RankedTensorType>(bias.getType()), resultType))
      continue;
    if (converted->fuses() &&
        getElementTypeOrSelf(converted->epilogue.getType()) !=
            resultType.getElementType())
      continue;
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
    for (BiasAdd biasAdd : biasAdds)
      rewrite(biasAdd);
  }

private:
  /// The bias as a row of the product's rank before its reshape, in
  /// `element` (widened exactly).
  Value getRowBias(BiasAdd biasAdd, Type element, ImplicitLocOpBuilder &b) {
    auto productType =
        cast<RankedTensorType>(biasAdd.product.accumulator.getType());
    Value bias = biasAdd.bias;
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (biasAdd.product.reshape) {
      SmallVector<int64_t> row(productType.getRank(), 1);
      row.back() = biasType.getShape().back();
      biasType = biasType.clone(row);
      bias = tosa::ReshapeOp::create(b, biasType, bias,
                                     tosa::getTosaConstShape(b, row));
    }
    if (biasType.getElementType() == element)
      return bias;
    auto wideBias = tosa::CastOp::create(b, biasType.clone(element), bias);
    wideBias->setAttr(PrecisionDialect::getInsertedCastAttrName(),
                      b.getUnitAttr());
    return wideBias;
  }

  /// `add` applied to `product` and `bias` in its operand order, so that
  /// the sum pairs with the add of a legalization that rewrites otherwise
  /// (prec-debug's switches).
  tosa::AddOp addInOrder(BiasAdd biasAdd, Value product, Value bias,
                         ImplicitLocOpBuilder &b) {
    Type type = product.getType();
    if (biasAdd.biasFirst)
      std::swap(product, bias);
    auto sum = tosa::AddOp::create(b, type, product, bias);
    sum->setAttrs(biasAdd.add->getAttrs());
    return sum;
  }

  /// The bias added in the f32 accumulator, then the one rounding.
  Value addInAccumulator(BiasAdd biasAdd, ImplicitLocOpBuilder &b) {
    ConvertedProduct product = biasAdd.product;
    Type accumulator = getElementTypeOrSelf(product.accumulator.getType());
    tosa::AddOp sum = addInOrder(biasAdd, product.accumulator,
                                 getRowBias(biasAdd, accumulator, b), b);
    if (auto assigned =
            biasAdd.add->getAttrOfType<prec::precision::AssignmentAttr>(
                PrecisionDialect::getAssignmentAttrName()))
      sum->setAttr(PrecisionDialect::getAssignmentAttrName(),
                   prec::precision::AssignmentAttr::get(
                       &getContext(), accumulator, accumulator, accumulator,
                       assigned.getReason(),
                       "added in its contraction's accumulator"));
    auto fused = tosa::CastOp::create(b, product.epilogue.getType(), sum);
    fused->setAttr(PrecisionDialect::getEpilogueAttrName(), b.getUnitAttr());
    return fused;
  }

  /// The same add, converting as before, at the product's shape.
  Value addBeforeReshape(BiasAdd biasAdd, ImplicitLocOpBuilder &b) {
    ConvertedProduct product = biasAdd.product;
    Value stored = product.getStored();
    Type element = getElementTypeOrSelf(biasAdd.add.getType());
    if (product.conversion) {
      auto type = cast<RankedTensorType>(stored.getType());
      auto conversion = tosa::CastOp::create(b, type.clone(element), stored);
      conversion->setAttrs(product.conversion->getAttrs());
      stored = conversion;
    }
    return addInOrder(biasAdd, stored, getRowBias(biasAdd, element, b), b);
  }

  void rewrite(BiasAdd biasAdd) {
    ConvertedProduct &product = biasAdd.product;
    tosa::AddOp add = biasAdd.add;
    ImplicitLocOpBuilder builder(add.getLoc(), add);
    bool fuses = product.fuses();
    Value result = fuses ? addInAccumulator(biasAdd, builder)
                         : addBeforeReshape(biasAdd, builder);
    if (tosa::ReshapeOp reshape = product.reshape)
      result = tosa::ReshapeOp::create(builder, add.getType(), result,
                                       reshape.getShape());
    add.getResult().replaceAllUsesWith(result);
    add.erase();
    // The conversion may come before the reshape or after it: each goes
    // once nothing reads it.
    SmallVector<Operation *, 2> dead;
    for (Operation *op :
         {product.conversion.getOperation(), product.reshape.getOperation()})
      if (op)
        dead.push_back(op);
    while (!dead.empty()) {
      auto unread =
          llvm::find_if(dead, [](Operation *op) { return op->use_empty(); });
      (*unread)->erase();
      dead.erase(unread);
    }
    if (fuses)
      product.epilogue.erase();
  }
};

} // namespace
