//===- Quantize.cpp - i8 and f8 matmuls with scales -----------------------===//
//
// prec-materialize leaves a matmul pinned to i8 or f8 on f32 values, marked
// `precision.quantize`. This pass gives it its scales and types:
//
//   xq  = cast(x / s_x -> T)             (i8: clamped to +-127 first)
//   acc = matmul(xq, wq) -> i32 (i8) or f32 (f8)
//   y   = f32(acc) * (s_x * s_w)
//
// s_x = max(|lo|, |hi|) / qmax from the input's range (its region's
// input_range, or range analysis); the weights, a constant, are quantized
// here: per output channel for i8 (TensorRT's INT8 scheme), per tensor for
// f8 (its FP8 scheme), which makes the dequantization one constant that a
// GEMM applies as its alpha. y replaces the matmul's f32 result.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/OpNames.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <cstring>

namespace prec {
#define GEN_PASS_DEF_PRECQUANTIZE
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using prec::precision::PrecisionDialect;

namespace {

/// The largest magnitude a quantized type holds (symmetric: i8 uses +-127).
double getLargest(Type type) {
  if (type.isInteger(8))
    return 127.0;
  if (isa<Float8E4M3FNType>(type))
    return 448.0;
  return 57344.0; // f8E5M2
}

/// The values of a float constant as f32, looking through an exact widening
/// (f16 or bf16 weights cast to f32), or none.
std::optional<std::vector<float>> readFloats(Value value) {
  if (auto widening = value.getDefiningOp<tosa::CastOp>())
    if (getElementTypeOrSelf(widening.getInput().getType())
            .getIntOrFloatBitWidth() < 32)
      value = widening.getInput();
  Operation *def = value.getDefiningOp();
  if (!def || !isa<tosa::ConstOp, arith::ConstantOp>(def))
    return std::nullopt;
  auto values = dyn_cast<ElementsAttr>(
      def->getAttr(isa<tosa::ConstOp>(def) ? "values" : "value"));
  auto elementType =
      values ? dyn_cast<FloatType>(values.getElementType()) : FloatType();
  if (!elementType || elementType.getWidth() > 32)
    return std::nullopt;
  std::vector<float> floats(values.getNumElements());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(values)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    size_t width = elementType.getWidth() / 8;
    if (!blob || blob->getData().size() != floats.size() * width)
      return std::nullopt;
    const char *data = blob->getData().data();
    for (size_t index = 0; index < floats.size(); ++index) {
      uint64_t bits = 0;
      std::memcpy(&bits, data + index * width, width);
      floats[index] = APFloat(elementType.getFloatSemantics(),
                              APInt(elementType.getWidth(), bits))
                          .convertToFloat();
    }
    return floats;
  }
  auto dense = dyn_cast<DenseElementsAttr>(values);
  if (!dense)
    return std::nullopt;
  for (auto [index, element] : llvm::enumerate(dense.getValues<APFloat>())) {
    bool losesInfo = false;
    element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    floats[index] = element.convertToFloat();
  }
  return floats;
}

/// `value` (already within the type's range) as the bits of `type`:
/// rounded to nearest even.
uint8_t toBits(float value, Type type) {
  if (type.isInteger(8))
    return uint8_t(int8_t(std::nearbyint(value)));
  APFloat element(value);
  bool losesInfo = false;
  element.convert(cast<FloatType>(type).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &losesInfo);
  return uint8_t(element.bitcastToAPInt().getZExtValue());
}

class QuantizePass : public prec::impl::PrecQuantizeBase<QuantizePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tosa::MatMulOp> matmuls;
    getOperation().walk([&](tosa::MatMulOp matmul) {
      if (matmul->hasAttr(PrecisionDialect::getQuantizeAttrName()))
        matmuls.push_back(matmul);
    });
    for (tosa::MatMulOp matmul : matmuls)
      if (failed(quantize(matmul)))
        return signalPassFailure();
    // The float weights the quantized ones replace (materialize may have
    // left their f16 source too) are dead now: drop them.
    if (!matmuls.empty())
      getOperation().walk([](tosa::ConstOp constant) {
        if (constant->use_empty())
          constant->erase();
      });
  }

private:
  /// The [min, max] of the matmul's A operand.
  std::optional<std::pair<double, double>> getInputRange(tosa::MatMulOp op) {
    auto range = op->getAttrOfType<DenseF64ArrayAttr>(
        PrecisionDialect::getInputRangeAttrName());
    Value input = op.getA();
    if (!range) {
      if (Operation *def = input.getDefiningOp())
        range = def->getAttrOfType<DenseF64ArrayAttr>(
            PrecisionDialect::getRangeAttrName());
      else if (auto argument = dyn_cast<BlockArgument>(input))
        if (auto function =
                dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp()))
          range = function.getArgAttrOfType<DenseF64ArrayAttr>(
              argument.getArgNumber(), PrecisionDialect::getRangeAttrName());
    }
    if (!range || range.size() != 2)
      return std::nullopt;
    return std::make_pair(range[0], range[1]);
  }

  LogicalResult quantize(tosa::MatMulOp op) {
    Type quantized =
        op->getAttrOfType<TypeAttr>(PrecisionDialect::getQuantizeAttrName())
            .getValue();
    std::string layer = prec::getLayerName(op);
    auto describe = [&]() {
      return (layer.empty() ? "tosa.matmul" : "'" + layer + "' (tosa.matmul)") +
             " computes in ";
    };
    std::optional<std::pair<double, double>> range = getInputRange(op);
    if (!range)
      return op->emitError()
             << describe() << quantized
             << " but its input has no range: give its precision.region an "
                "input_range, or its inputs a val-range";
    std::optional<std::vector<float>> weights = readFloats(op.getB());
    if (!weights)
      return op->emitError() << describe() << quantized
                             << ": its weights (B) must be a float constant";

    double largest = getLargest(quantized);
    double inputScale =
        std::max(std::abs(range->first), std::abs(range->second)) / largest;
    if (inputScale == 0.0)
      inputScale = 1.0;
    auto bType = cast<RankedTensorType>(op.getB().getType());
    int64_t n = bType.getDimSize(2);
    // Weight scales: one per output channel (column) for i8, one for f8.
    bool perChannel = quantized.isInteger(8);
    std::vector<double> weightScales(perChannel ? n : 1, 0.0);
    for (int64_t index = 0, e = weights->size(); index < e; ++index) {
      double &scale = weightScales[perChannel ? index % n : 0];
      scale = std::max(scale, double(std::abs((*weights)[index])));
    }
    for (double &scale : weightScales)
      scale = scale == 0.0 ? 1.0 : scale / largest;
    std::vector<char> weightBits(weights->size());
    for (int64_t index = 0, e = weights->size(); index < e; ++index) {
      double scale = weightScales[perChannel ? index % n : 0];
      double scaled = std::clamp((*weights)[index] / scale, -largest, largest);
      weightBits[index] = char(toBits(float(scaled), quantized));
    }

    OpBuilder builder(op);
    MLIRContext *context = &getContext();
    Location loc = op.getLoc();
    auto named = [&](llvm::StringRef suffix) -> Location {
      return NameLoc::get(StringAttr::get(context, layer + suffix), loc);
    };
    Type f32 = builder.getF32Type();
    auto splat = [&](ArrayRef<int64_t> shape, Type element,
                     Attribute value) -> Value {
      auto type = RankedTensorType::get(shape, element);
      return tosa::ConstOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, value));
    };
    Value shift = splat({1}, builder.getI8Type(), builder.getI8IntegerAttr(0));

    // x / s_x, clamped for i8, converted (rounding to nearest even; f8
    // saturates).
    auto aType = cast<RankedTensorType>(op.getA().getType());
    Value inverseScale =
        splat({1, 1, 1}, f32, builder.getF32FloatAttr(1.0 / inputScale));
    Value scaled = tosa::MulOp::create(builder, named(".quantize.scale"), aType,
                                       op.getA(), inverseScale, shift);
    if (perChannel)
      scaled = tosa::ClampOp::create(
          builder, named(".quantize.clamp"), aType, scaled,
          builder.getF32FloatAttr(-largest), builder.getF32FloatAttr(largest),
          tosa::NanPropagationModeAttr::get(
              context, tosa::NanPropagationMode::PROPAGATE));
    Value input = tosa::CastOp::create(builder, named(".quantize"),
                                       aType.clone(quantized), scaled);

    auto weightType = bType.clone(quantized);
    Value weight = tosa::ConstOp::create(
        builder, named(".weights"), weightType,
        DenseElementsAttr::getFromRawBuffer(weightType, weightBits));
    Value zero =
        perChannel
            ? splat({1}, quantized, builder.getIntegerAttr(quantized, 0))
            : splat({1}, quantized, builder.getFloatAttr(quantized, 0.0));
    Type accumulator = perChannel ? Type(builder.getI32Type()) : f32;
    auto resultType = cast<RankedTensorType>(op.getType());
    auto product = tosa::MatMulOp::create(
        builder, loc, resultType.clone(accumulator), input, weight, zero, zero);
    product->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    product->removeAttr(PrecisionDialect::getQuantizeAttrName());
    product->removeAttr(PrecisionDialect::getInputRangeAttrName());
    if (auto assigned = op->getAttrOfType<prec::precision::AssignmentAttr>(
            PrecisionDialect::getAssignmentAttrName()))
      product->setAttr(PrecisionDialect::getAssignmentAttrName(),
                       prec::precision::AssignmentAttr::get(
                           context, quantized, accumulator, accumulator,
                           assigned.getReason(), assigned.getDetail()));

    // f32(acc) x s_x x s_w.
    Value accumulated = product.getResult();
    if (perChannel)
      accumulated = tosa::CastOp::create(builder, named(".dequantize.convert"),
                                         resultType, accumulated);
    SmallVector<float> dequantize;
    for (double scale : weightScales)
      dequantize.push_back(float(inputScale * scale));
    auto dequantizeType =
        RankedTensorType::get({1, 1, int64_t(dequantize.size())}, f32);
    Value scales = tosa::ConstOp::create(
        builder, loc, dequantizeType,
        DenseElementsAttr::get(dequantizeType, ArrayRef<float>(dequantize)));
    Value result = tosa::MulOp::create(builder, named(".dequantize"),
                                       resultType, accumulated, scales, shift);
    Value oldWeights = op.getB(), oldZeroA = op.getAZp(),
          oldZeroB = op.getBZp();
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    llvm::SmallSetVector<Operation *, 3> unused;
    for (Value old : {oldWeights, oldZeroA, oldZeroB})
      if (Operation *def = old.getDefiningOp(); def && def->use_empty())
        unused.insert(def);
    for (Operation *def : unused)
      def->erase();
    return success();
  }
};

} // namespace
