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
// input_range, a calibration, or range analysis); the weights, a constant, are
// quantized here: per output channel for i8 (TensorRT's INT8 scheme), per
// tensor for f8 (its FP8 scheme), which makes the dequantization one constant
// that a GEMM applies as its alpha. y replaces the matmul's f32 result.
//
// The scales are plain TOSA arithmetic rather than the upstream quant
// dialect's `!quant.uniform` types: in MLIR 22 those store integers only,
// so f8 would need another scheme, and the CPU and GPU paths would each
// need a lowering of them; one TOSA form serves i8 and f8 on both.
//
//===----------------------------------------------------------------------===//

#include "passes/Interval.h"
#include "passes/Passes.h"

#include "dialects/Utils/Constants.h"
#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <limits>

namespace prec {
#define GEN_PASS_DEF_PRECQUANTIZE
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using prec::precision::PrecisionDialect;

namespace {

/// The largest magnitude a quantized type holds (symmetric: i8 uses +-127).
double getLargest(Type type) {
  return type.isInteger(8) ? 127.0 : prec::getLargestFinite(type);
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
  bool read = prec::forEachFloat(values, [&](int64_t index, APFloat element) {
    bool losesInfo = false;
    element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    floats[index] = element.convertToFloat();
  });
  if (!read)
    return std::nullopt;
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
    SmallVector<Operation *> matmuls;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(PrecisionDialect::getQuantizeAttrName()))
        matmuls.push_back(op);
    });
    for (Operation *op : matmuls)
      if (failed(quantize(op)))
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
  std::optional<std::pair<double, double>> getInputRange(Operation *op) {
    auto range = op->getAttrOfType<DenseF64ArrayAttr>(
        PrecisionDialect::getInputRangeAttrName());
    Value input = op->getOperand(0);
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

  /// Quantizes a matmul ([batch, M, K] x [batch, K, N], output channel N)
  /// or a convolution (NHWC input, OHWI weights, output channel O).
  LogicalResult quantize(Operation *op) {
    bool isConv = isa<tosa::Conv2DOp>(op);
    Type quantized =
        op->getAttrOfType<TypeAttr>(PrecisionDialect::getQuantizeAttrName())
            .getValue();
    std::string layer = prec::getLayerName(op);
    auto describe = [&]() {
      std::string name = op->getName().getStringRef().str();
      return (layer.empty() ? name : "'" + layer + "' (" + name + ")") +
             " computes in ";
    };
    std::optional<std::pair<double, double>> range = getInputRange(op);
    if (!range)
      return op->emitError()
             << describe() << quantized
             << " but its input has no range: give its precision.region an "
                "input_range, calibrate the model (prec-calibrate, then "
                "prec-legalize calibration=CALIB.json), or give its inputs a "
                "val-range";
    Value weightOperand = op->getOperand(1);
    std::optional<std::vector<float>> weights = readFloats(weightOperand);
    if (!weights)
      return op->emitError() << describe() << quantized
                             << ": its weights (B) must be a float constant";

    double largest = getLargest(quantized);
    double inputScale =
        std::max(std::abs(range->first), std::abs(range->second)) / largest;
    if (inputScale == 0.0)
      inputScale = 1.0;
    // The scale and its inverse become f32 constants: outside f32's normal
    // range one of them would be zero or infinite.
    if (!(inputScale >= std::numeric_limits<float>::min() &&
          inputScale <= std::numeric_limits<float>::max()))
      return op->emitError()
             << describe() << quantized << " but its input range ["
             << range->first << ", " << range->second << "] gives the scale "
             << inputScale << ", which is not a normal f32";
    auto bType = cast<RankedTensorType>(weightOperand.getType());
    // The output channel of each weight: a matmul's column, a convolution's
    // first (O) index.
    int64_t channels = isConv ? bType.getDimSize(0) : bType.getDimSize(2);
    int64_t perOutput = bType.getNumElements() / channels;
    auto channelOf = [&](int64_t index) {
      return isConv ? index / perOutput : index % channels;
    };
    // Weight scales: one per output channel for i8, one for f8.
    bool perChannel = quantized.isInteger(8);
    std::vector<double> weightScales(perChannel ? channels : 1, 0.0);
    for (int64_t index = 0, e = weights->size(); index < e; ++index) {
      double &scale = weightScales[perChannel ? channelOf(index) : 0];
      scale = std::max(scale, double(std::abs((*weights)[index])));
    }
    for (double &scale : weightScales)
      scale = scale == 0.0 ? 1.0 : scale / largest;
    std::vector<char> weightBits(weights->size());
    for (int64_t index = 0, e = weights->size(); index < e; ++index) {
      double scale = weightScales[perChannel ? channelOf(index) : 0];
      double scaled = std::clamp((*weights)[index] / scale, -largest, largest);
      weightBits[index] = char(toBits(float(scaled), quantized));
    }

    OpBuilder builder(op);
    MLIRContext *context = &getContext();
    Location loc = op->getLoc();
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
    auto shapeOf = [&](ArrayRef<int64_t> shape) -> Value {
      ImplicitLocOpBuilder implicit(loc, builder);
      return tosa::getTosaConstShape(implicit, shape);
    };

    // x / s_x, clamped for i8, converted (rounding to nearest even; f8
    // saturates).
    Value activation = op->getOperand(0);
    auto aType = cast<RankedTensorType>(activation.getType());
    SmallVector<int64_t> ones(aType.getRank(), 1);
    Value inverseScale =
        splat(ones, f32, builder.getF32FloatAttr(1.0 / inputScale));
    Value scaled = tosa::MulOp::create(builder, named(".quantize.scale"), aType,
                                       activation, inverseScale, shift);
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
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    // The same op on quantized operands; a convolution's bias is added after
    // the dequantization (its accumulator holds scaled products).
    Value zeroBias =
        isConv ? splat({channels}, accumulator,
                       perChannel
                           ? Attribute(builder.getIntegerAttr(accumulator, 0))
                           : Attribute(builder.getFloatAttr(accumulator, 0.0)))
               : Value();
    Operation *product = builder.clone(*op);
    product->setOperand(0, input);
    product->setOperand(1, weight);
    if (isConv) {
      product->setOperand(2, zeroBias);
      product->setOperand(3, zero);
      product->setOperand(4, zero);
      product->setAttr("acc_type", TypeAttr::get(accumulator));
    } else {
      product->setOperand(2, zero);
      product->setOperand(3, zero);
    }
    product->getResult(0).setType(resultType.clone(accumulator));
    product->removeAttr(PrecisionDialect::getQuantizeAttrName());
    product->removeAttr(PrecisionDialect::getInputRangeAttrName());
    if (auto assigned = op->getAttrOfType<prec::precision::AssignmentAttr>(
            PrecisionDialect::getAssignmentAttrName()))
      product->setAttr(PrecisionDialect::getAssignmentAttrName(),
                       prec::precision::AssignmentAttr::get(
                           context, quantized, accumulator, accumulator,
                           assigned.getReason(), assigned.getDetail()));

    // f32(acc) x s_x x s_w.
    Value accumulated = product->getResult(0);
    if (perChannel)
      accumulated = tosa::CastOp::create(builder, named(".dequantize.convert"),
                                         resultType, accumulated);
    SmallVector<float> dequantize;
    for (double scale : weightScales)
      dequantize.push_back(float(inputScale * scale));
    SmallVector<int64_t> channelShape(resultType.getRank(), 1);
    channelShape.back() = int64_t(dequantize.size());
    auto dequantizeType = RankedTensorType::get(channelShape, f32);
    Value scales = tosa::ConstOp::create(
        builder, loc, dequantizeType,
        DenseElementsAttr::get(dequantizeType, ArrayRef<float>(dequantize)));
    Value result = tosa::MulOp::create(builder, named(".dequantize"),
                                       resultType, accumulated, scales, shift);
    if (isConv && !prec::isZeroConstant(op->getOperand(2))) {
      channelShape.back() = channels;
      Value bias = tosa::ReshapeOp::create(
          builder, named(".bias"), RankedTensorType::get(channelShape, f32),
          op->getOperand(2), shapeOf(channelShape));
      result = tosa::AddOp::create(builder, named(".bias"), resultType, result,
                                   bias);
    }
    SmallVector<Value> old(op->getOperands());
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    // What only the float op read (its weights, their widening, zero
    // points) is dead now; the pass drops dead constants at its end.
    llvm::SmallSetVector<Operation *, 4> unused;
    for (Value value : old)
      if (Operation *def = value.getDefiningOp();
          def && isa<tosa::CastOp>(def) && def->use_empty())
        unused.insert(def);
    for (Operation *def : unused)
      def->erase();
    return success();
  }
};

} // namespace
