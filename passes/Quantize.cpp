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

#include "dialects/Precision/Interval.h"
#include "passes/Passes.h"

#include "dialects/Utils/Constants.h"
#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
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

/// How a matmul or convolution is quantized: the type, the largest value it
/// holds, the input's scale, the weights' scales (one per output channel for
/// constant i8 weights, else one) and the quantized weights' bytes, or none
/// where B is an activation, quantized at run time as the input is.
struct QuantizationScales {
  Type type;
  double largest = 0;
  double input = 1;
  int64_t channels = 0;
  std::vector<double> weights;
  std::vector<char> weightBits;
  bool activationB = false;

  bool isInteger() const { return type.isInteger(8); }
};

/// Builds, before a float matmul or convolution, its quantized form: the
/// quantized input, the product of the quantized operands, and the
/// dequantized result.
class QuantizedBuilder {
public:
  QuantizedBuilder(OpBuilder &builder, Operation *op,
                   const QuantizationScales &scales)
      : builder(builder), op(op), scales(scales), layer(prec::getLayerName(op)),
        loc(op->getLoc()), f32(builder.getF32Type()),
        resultType(cast<RankedTensorType>(op->getResult(0).getType())),
        shift(splat({1}, builder.getI8Type(), builder.getI8IntegerAttr(0))) {}

  /// The quantized input.
  Value input() {
    return quantize(op->getOperand(0), scales.input, ".quantize");
  }

  /// The quantized weights: a constant, or B quantized at run time.
  Value weights() {
    if (scales.activationB)
      return quantize(op->getOperand(1), scales.weights.front(), ".quantize_b");
    auto weightType =
        cast<RankedTensorType>(op->getOperand(1).getType()).clone(scales.type);
    return tosa::ConstOp::create(
        builder, named(".weights"), weightType,
        DenseElementsAttr::getFromRawBuffer(weightType, scales.weightBits));
  }

  /// The same op on the quantized input and weights, accumulating in i32
  /// (i8) or f32 (f8); a convolution's bias is added after the
  /// dequantization, since its accumulator holds scaled products.
  Value product(Value input, Value weight) {
    bool isConv = isa<tosa::Conv2DOp>(op);
    Value zero = splat({1}, scales.type, zeroOf(scales.type));
    Type accumulator = getAccumulator();
    Value zeroBias =
        isConv ? splat({scales.channels}, accumulator, zeroOf(accumulator))
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
    product->removeAttr(PrecisionDialect::getBInputRangeAttrName());
    if (auto assigned = op->getAttrOfType<prec::precision::AssignmentAttr>(
            PrecisionDialect::getAssignmentAttrName()))
      product->setAttr(PrecisionDialect::getAssignmentAttrName(),
                       prec::precision::AssignmentAttr::get(
                           builder.getContext(), scales.type, accumulator,
                           accumulator, assigned.getReason(),
                           assigned.getDetail()));
    return product->getResult(0);
  }

  /// f32(acc) x s_x x s_w, plus a convolution's bias.
  Value dequantize(Value accumulated) {
    if (scales.isInteger())
      accumulated = tosa::CastOp::create(builder, named(".dequantize.convert"),
                                         resultType, accumulated);
    SmallVector<float> dequantize;
    for (double scale : scales.weights)
      dequantize.push_back(float(scales.input * scale));
    SmallVector<int64_t> channelShape(resultType.getRank(), 1);
    channelShape.back() = int64_t(dequantize.size());
    auto dequantizeType = RankedTensorType::get(channelShape, f32);
    Value scaleValues = tosa::ConstOp::create(
        builder, loc, dequantizeType,
        DenseElementsAttr::get(dequantizeType, ArrayRef<float>(dequantize)));
    Value result =
        tosa::MulOp::create(builder, named(".dequantize"), resultType,
                            accumulated, scaleValues, shift);
    if (!isa<tosa::Conv2DOp>(op) || prec::isZeroConstant(op->getOperand(2)))
      return result;
    channelShape.back() = scales.channels;
    ImplicitLocOpBuilder implicit(loc, builder);
    Value bias = tosa::ReshapeOp::create(
        builder, named(".bias"), RankedTensorType::get(channelShape, f32),
        op->getOperand(2), tosa::getTosaConstShape(implicit, channelShape));
    return tosa::AddOp::create(builder, named(".bias"), resultType, result,
                               bias);
  }

private:
  /// x / s, clamped for i8, converted (rounding to nearest even; f8
  /// saturates).
  Value quantize(Value x, double scale, StringRef suffix) {
    auto xType = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> ones(xType.getRank(), 1);
    Value inverseScale = splat(ones, f32, builder.getF32FloatAttr(1.0 / scale));
    Value scaled = tosa::MulOp::create(builder, named(suffix, ".scale"), xType,
                                       x, inverseScale, shift);
    if (scales.isInteger())
      scaled = tosa::ClampOp::create(
          builder, named(suffix, ".clamp"), xType, scaled,
          builder.getF32FloatAttr(-scales.largest),
          builder.getF32FloatAttr(scales.largest),
          tosa::NanPropagationModeAttr::get(
              builder.getContext(), tosa::NanPropagationMode::PROPAGATE));
    return tosa::CastOp::create(builder, named(suffix),
                                xType.clone(scales.type), scaled);
  }

  Type getAccumulator() const {
    return scales.isInteger() ? Type(builder.getI32Type()) : f32;
  }

  Attribute zeroOf(Type type) const {
    return isa<IntegerType>(type) ? Attribute(builder.getIntegerAttr(type, 0))
                                  : Attribute(builder.getFloatAttr(type, 0.0));
  }

  Location named(llvm::StringRef suffix, llvm::StringRef part = "") const {
    return NameLoc::get(
        StringAttr::get(builder.getContext(), layer + suffix + part), loc);
  }

  Value splat(ArrayRef<int64_t> shape, Type element, Attribute value) const {
    auto type = RankedTensorType::get(shape, element);
    return tosa::ConstOp::create(builder, loc, type,
                                 DenseElementsAttr::get(type, value));
  }

  OpBuilder &builder;
  Operation *op;
  const QuantizationScales &scales;
  std::string layer;
  Location loc;
  Type f32;
  RankedTensorType resultType;
  Value shift;
};

/// The largest magnitude a quantized type holds (symmetric: i8 uses +-127).
double getLargest(Type type) {
  return type.isInteger(8) ? 127.0 : prec::getLargestFinite(type);
}

/// The values of a float constant as f32, looking through an exact widening
/// (f16 or bf16 weights cast to f32), or none.
std::optional<std::vector<float>> readFloats(Value value) {
  value = prec::lookThroughWidening(value);
  ElementsAttr values;
  if (!matchPattern(value, m_Constant(&values)))
    return std::nullopt;
  auto elementType = dyn_cast<FloatType>(values.getElementType());
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
  /// The [min, max] of operand `operand` (A, or B where it is an activation):
  /// recorded on the op as `rangeName`, else range analysis' on its producer.
  std::optional<std::pair<double, double>>
  getInputRange(Operation *op, unsigned operand, StringRef rangeName) {
    auto range = op->getAttrOfType<DenseF64ArrayAttr>(rangeName);
    // A widening cast (materialize reads f16 values in f32) keeps them.
    Value input = prec::lookThroughWidening(op->getOperand(operand));
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
    // An unbounded range (exp of an unbounded input) gives no scale.
    if (!range || range.size() != 2 || !std::isfinite(range[0]) ||
        !std::isfinite(range[1]))
      return std::nullopt;
    return std::make_pair(range[0], range[1]);
  }

  /// Quantizes a matmul ([batch, M, K] x [batch, K, N], output channel N)
  /// or a convolution (NHWC input, OHWI weights, output channel O).
  LogicalResult quantize(Operation *op) {
    // The quantized forms built here are a matmul's and a 2-D convolution's.
    if (!isa<tosa::MatMulOp, tosa::Conv2DOp>(op))
      return op->emitError() << "prec-quantize builds quantized matmuls and "
                                "2-D convolutions, not '"
                             << op->getName() << "'";
    FailureOr<QuantizationScales> scales = computeScales(op);
    if (failed(scales))
      return failure();
    OpBuilder builder(op);
    QuantizedBuilder quantized(builder, op, *scales);
    Value input = quantized.input();
    Value weights = quantized.weights();
    Value result = quantized.dequantize(quantized.product(input, weights));
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

  /// The scales of `op`'s input and weights and its quantized weights; an
  /// error at `op` when its input has no usable range or its weights are
  /// neither a constant nor a matmul's B operand with a range.
  FailureOr<QuantizationScales> computeScales(Operation *op) {
    QuantizationScales scales;
    scales.type =
        op->getAttrOfType<TypeAttr>(PrecisionDialect::getQuantizeAttrName())
            .getValue();
    std::string layer = prec::getLayerName(op).str();
    auto describe = [&]() {
      std::string name = op->getName().getStringRef().str();
      return (layer.empty() ? name : "'" + layer + "' (" + name + ")") +
             " computes in ";
    };
    auto noRange = [&](StringRef operand) {
      return op->emitError()
             << describe() << scales.type << " but its " << operand
             << " has no range: give its precision.region an input_range, "
                "calibrate the model (prec-calibrate, then prec-legalize "
                "calibration=CALIB.json), or give its inputs a val-range";
    };
    std::optional<std::pair<double, double>> range =
        getInputRange(op, 0, PrecisionDialect::getInputRangeAttrName());
    if (!range)
      return noRange("input");
    scales.largest = getLargest(scales.type);
    FailureOr<double> inputScale = computeScale(op, *range, scales, describe);
    if (failed(inputScale))
      return failure();
    scales.input = *inputScale;

    if (std::optional<std::vector<float>> weights =
            readFloats(op->getOperand(1))) {
      quantizeWeights(op, *weights, scales);
      return scales;
    }
    if (!isa<tosa::MatMulOp>(op) || prec::isConstantWeights(op->getOperand(1)))
      return op->emitError() << describe() << scales.type
                             << ": its weights must be a float constant";
    // B is an activation (attention's keys or values): one scale for the
    // tensor, from its range, as for the input.
    std::optional<std::pair<double, double>> bRange =
        getInputRange(op, 1, PrecisionDialect::getBInputRangeAttrName());
    if (!bRange)
      return noRange("B operand");
    FailureOr<double> bScale = computeScale(op, *bRange, scales, describe);
    if (failed(bScale))
      return failure();
    scales.weights = {*bScale};
    scales.activationB = true;
    return scales;
  }

  /// max(|lo|, |hi|) / qmax for a range [lo, hi] (1 where it is 0); an
  /// error where that or its inverse would not be a normal f32, as the
  /// constants that hold them are.
  static FailureOr<double> computeScale(Operation *op,
                                        std::pair<double, double> range,
                                        const QuantizationScales &scales,
                                        function_ref<std::string()> describe) {
    double scale = std::max(std::abs(range.first), std::abs(range.second)) /
                   scales.largest;
    if (scale == 0.0)
      return 1.0;
    if (!(scale >= std::numeric_limits<float>::min() &&
          scale <= std::numeric_limits<float>::max()))
      return op->emitError()
             << describe() << scales.type << " but its input range ["
             << range.first << ", " << range.second << "] gives the scale "
             << scale << ", which is not a normal f32";
    return scale;
  }

  /// Weight scales (one per output channel for i8, one for f8) and the
  /// weights divided by them, saturated and converted.
  static void quantizeWeights(Operation *op, ArrayRef<float> weights,
                              QuantizationScales &scales) {
    bool isConv = isa<tosa::Conv2DOp>(op);
    auto bType = cast<RankedTensorType>(op->getOperand(1).getType());
    // The output channel of each weight: a matmul's column, a convolution's
    // first (O) index.
    scales.channels = isConv ? bType.getDimSize(0) : bType.getDimSize(2);
    int64_t perOutput = bType.getNumElements() / scales.channels;
    bool perChannel = scales.isInteger();
    auto scaleIndex = [&](int64_t index) -> int64_t {
      if (!perChannel)
        return 0;
      return isConv ? index / perOutput : index % scales.channels;
    };
    scales.weights.assign(perChannel ? scales.channels : 1, 0.0);
    for (int64_t index = 0, e = weights.size(); index < e; ++index) {
      double &scale = scales.weights[scaleIndex(index)];
      scale = std::max(scale, double(std::abs(weights[index])));
    }
    for (double &scale : scales.weights)
      scale = scale == 0.0 ? 1.0 : scale / scales.largest;
    scales.weightBits.resize(weights.size());
    for (int64_t index = 0, e = weights.size(); index < e; ++index) {
      double scaled =
          std::clamp(weights[index] / scales.weights[scaleIndex(index)],
                     -scales.largest, scales.largest);
      scales.weightBits[index] = char(toBits(float(scaled), scales.type));
    }
  }
};

} // namespace
