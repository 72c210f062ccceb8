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
// With `residuals`, an add that a quantized product feeds reads its other
// input (a residual, of the add's shape) as dequantize(quantize(r)): the
// placement TensorRT recommends for Q/DQ around residual adds, so that the
// residual stream between blocks is stored in 8 bits, not 16. A tensor has
// one scale: r's quantized form is the one a product already reads where
// there is one (its input), else built from r's range.
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
#include "mlir/IR/Dominance.h"
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

/// `base` named `base.name + suffix` (a layer's name and its op's part).
Location withSuffix(NameLoc base, StringRef suffix) {
  return NameLoc::get(
      StringAttr::get(base.getContext(), base.getName().str() + suffix.str()),
      base.getChildLoc());
}

/// The largest magnitude a quantized type holds (symmetric: i8 uses +-127).
double getLargest(Type type) {
  return type.isInteger(8) ? 127.0 : prec::getLargestFinite(type);
}

/// A splat f32 constant of x's rank, all ones but its value.
Value splatLike(OpBuilder &builder, Location loc, Value x, double value) {
  SmallVector<int64_t> ones(cast<RankedTensorType>(x.getType()).getRank(), 1);
  auto type = RankedTensorType::get(ones, builder.getF32Type());
  return tosa::ConstOp::create(
      builder, loc, type,
      DenseElementsAttr::get(type, builder.getF32FloatAttr(value)));
}

/// tosa.mul's shift operand: 0, as floats need.
Value buildZeroShift(OpBuilder &builder, Location loc) {
  auto type = RankedTensorType::get({1}, builder.getI8Type());
  return tosa::ConstOp::create(
      builder, loc, type,
      DenseElementsAttr::get(type, builder.getI8IntegerAttr(0)));
}

/// x (f32) / scale as `type`: clamped to +-127 for i8, converted (rounding
/// to nearest even; f8 saturates). The ops are named after `name`: its
/// `.scale`, its `.clamp`, and the conversion `name` itself.
Value buildQuantize(OpBuilder &builder, Value x, double scale, Type type,
                    Value shift, NameLoc name) {
  auto xType = cast<RankedTensorType>(x.getType());
  Value inverseScale = splatLike(builder, name.getChildLoc(), x, 1.0 / scale);
  Value scaled = tosa::MulOp::create(builder, withSuffix(name, ".scale"), xType,
                                     x, inverseScale, shift);
  if (type.isInteger(8)) {
    double largest = getLargest(type);
    scaled = tosa::ClampOp::create(
        builder, withSuffix(name, ".clamp"), xType, scaled,
        builder.getF32FloatAttr(-largest), builder.getF32FloatAttr(largest),
        tosa::NanPropagationModeAttr::get(builder.getContext(),
                                          tosa::NanPropagationMode::PROPAGATE));
  }
  return tosa::CastOp::create(builder, name, xType.clone(type), scaled);
}

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
        shift(buildZeroShift(builder, op->getLoc())) {}

  /// The quantized input.
  Value input() {
    return buildQuantize(builder, op->getOperand(0), scales.input, scales.type,
                         shift, named(".quantize"));
  }

  /// The quantized weights: a constant, or B quantized at run time.
  Value weights() {
    if (scales.activationB)
      return buildQuantize(builder, op->getOperand(1), scales.weights.front(),
                           scales.type, shift, named(".quantize_b"));
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
  Type getAccumulator() const {
    return scales.isInteger() ? Type(builder.getI32Type()) : f32;
  }

  Attribute zeroOf(Type type) const {
    return isa<IntegerType>(type) ? Attribute(builder.getIntegerAttr(type, 0))
                                  : Attribute(builder.getFloatAttr(type, 0.0));
  }

  NameLoc named(llvm::StringRef suffix) const {
    return NameLoc::get(StringAttr::get(builder.getContext(), layer + suffix),
                        loc);
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

using Range = std::pair<double, double>;

/// A float tensor in a quantized type: its scale and its quantized value.
struct QuantizedTensor {
  Type type;
  double scale;
  Value value;
};

/// A product prec-quantize rewrote: its dequantized result, its quantized
/// type, and the range of its float result where one was known.
struct QuantizedProduct {
  Value result;
  Type type;
  std::optional<Range> range;
};

/// `range` as [min, max]; none where it is missing or unbounded (exp of an
/// unbounded input), which gives no scale.
std::optional<Range> getFiniteRange(DenseF64ArrayAttr range) {
  if (!range || range.size() != 2 || !std::isfinite(range[0]) ||
      !std::isfinite(range[1]))
    return std::nullopt;
  return Range(range[0], range[1]);
}

/// The `precision.range` a function argument has (from val-range).
DenseF64ArrayAttr getArgumentRange(BlockArgument argument) {
  auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  return function ? function.getArgAttrOfType<DenseF64ArrayAttr>(
                        argument.getArgNumber(),
                        PrecisionDialect::getRangeAttrName())
                  : nullptr;
}

/// A range recorded on `op`: the calibration's observation, else range
/// analysis'; none where it is unbounded.
std::optional<Range> getRecordedRange(Operation *op) {
  auto range = op->getAttrOfType<DenseF64ArrayAttr>(
      PrecisionDialect::getObservedRangeAttrName());
  if (!range)
    range = op->getAttrOfType<DenseF64ArrayAttr>(
        PrecisionDialect::getRangeAttrName());
  return getFiniteRange(range);
}

class QuantizePass : public prec::impl::PrecQuantizeBase<QuantizePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    quantizedInputs.clear();
    products.clear();
    SmallVector<Operation *> matmuls;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(PrecisionDialect::getQuantizeAttrName()))
        matmuls.push_back(op);
    });
    for (Operation *op : matmuls)
      if (failed(quantize(op)))
        return signalPassFailure();
    if (residuals && failed(quantizeResiduals()))
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
  std::optional<Range> getInputRange(Operation *op, unsigned operand,
                                     StringRef rangeName) {
    auto range = op->getAttrOfType<DenseF64ArrayAttr>(rangeName);
    // A widening cast (materialize reads f16 values in f32) keeps them.
    Value input = prec::lookThroughWidening(op->getOperand(operand));
    if (!range) {
      if (Operation *def = input.getDefiningOp())
        range = def->getAttrOfType<DenseF64ArrayAttr>(
            PrecisionDialect::getRangeAttrName());
      else
        range = getArgumentRange(cast<BlockArgument>(input));
    }
    return getFiniteRange(range);
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
    quantizedInputs.try_emplace(
        prec::lookThroughWidening(op->getOperand(0)),
        QuantizedTensor{scales->type, scales->input, input});
    products.push_back({result, scales->type, getRecordedRange(op)});
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
    auto describe = [&]() { return prec::describeOp(op) + " computes in "; };
    auto noRange = [&](StringRef operand) {
      return op->emitError()
             << describe() << scales.type << " but its " << operand
             << " has no range: give its precision.region an input_range, "
                "calibrate the model (prec-calibrate, then prec-legalize "
                "calibration=CALIB.json), or give its inputs a val-range";
    };
    std::optional<Range> range =
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
    std::optional<Range> bRange =
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
  static FailureOr<double> computeScale(Operation *op, Range range,
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

  /// Each add a quantized product feeds (directly or through its storage
  /// conversion) reads its other operand, a residual of the add's shape, as
  /// dequantize(quantize(r)) in the product's type. The products are
  /// visited last first: of an add fed by two, the one computed later (the
  /// one whose kernel can compute the add) stays in float, the other
  /// becomes the residual.
  LogicalResult quantizeResiduals() {
    DominanceInfo dominance(getOperation());
    llvm::SmallPtrSet<Operation *, 16> visited;
    for (const QuantizedProduct &product : llvm::reverse(products)) {
      Value value = product.result;
      if (value.hasOneUse())
        if (auto storage = dyn_cast<tosa::CastOp>(*value.user_begin());
            storage && isa<FloatType>(getElementTypeOrSelf(storage.getType())))
          value = storage.getResult();
      for (Operation *user : llvm::make_early_inc_range(value.getUsers())) {
        // An add of the product to itself has no residual.
        auto add = dyn_cast<tosa::AddOp>(user);
        if (!add || add.getInput1() == add.getInput2() ||
            !visited.insert(add).second)
          continue;
        unsigned residual = add.getInput1() == value ? 1 : 0;
        if (failed(quantizeResidual(add, residual, product.type, dominance)))
          return failure();
      }
    }
    return success();
  }

  /// Replaces operand `operand` of `add` by its dequantized `type` form,
  /// unless it is not a float tensor of the add's shape (a bias) or is a
  /// constant.
  LogicalResult quantizeResidual(tosa::AddOp add, unsigned operand, Type type,
                                 DominanceInfo &dominance) {
    Value residual = add->getOperand(operand);
    auto residualType = cast<RankedTensorType>(residual.getType());
    if (residualType.getShape() != add.getType().getShape() ||
        !isa<FloatType>(residualType.getElementType()) ||
        prec::isConstantWeights(residual))
      return success();
    OpBuilder builder(add);
    FailureOr<QuantizedTensor> quantized =
        findOrBuildQuantized(add, residual, type, dominance);
    if (failed(quantized))
      return failure();
    std::string layer = prec::getLayerName(add).str();
    auto named = [&](StringRef suffix) {
      return NameLoc::get(builder.getStringAttr(layer + ".residual" + suffix),
                          add.getLoc());
    };
    Type f32 = builder.getF32Type();
    Value shift = buildZeroShift(builder, add.getLoc());
    Value value =
        tosa::CastOp::create(builder, named(".dequantize.convert"),
                             residualType.clone(f32), quantized->value);
    value = tosa::MulOp::create(
        builder, named(".dequantize"), residualType.clone(f32), value,
        splatLike(builder, add.getLoc(), value, quantized->scale), shift);
    if (residualType.getElementType() != f32)
      value = tosa::CastOp::create(builder, named(""), residualType, value);
    add->setOperand(operand, value);
    noteResidual(add, type);
    return success();
  }

  /// Says in the add's assignment (the report's detail) that it reads its
  /// residual in `type`.
  static void noteResidual(tosa::AddOp add, Type type) {
    auto assigned = add->getAttrOfType<prec::precision::AssignmentAttr>(
        PrecisionDialect::getAssignmentAttrName());
    if (!assigned)
      return;
    std::string detail;
    llvm::raw_string_ostream os(detail);
    if (!assigned.getDetail().empty())
      os << assigned.getDetail() << "; ";
    os << "its residual input is stored in " << type << " (quantize-residuals)";
    add->setAttr(PrecisionDialect::getAssignmentAttrName(),
                 prec::precision::AssignmentAttr::get(
                     add.getContext(), assigned.getCompute(),
                     assigned.getAccumulate(), assigned.getStorage(),
                     assigned.getReason(), detail));
  }

  /// `value` in `type`: the quantized form a product already reads where
  /// it dominates `user`, else one built after `value` with the scale that
  /// tensor has (a product's, or from its range).
  FailureOr<QuantizedTensor> findOrBuildQuantized(Operation *user, Value value,
                                                  Type type,
                                                  DominanceInfo &dominance) {
    Value source = prec::lookThroughWidening(value);
    auto known = quantizedInputs.find(source);
    bool scaled = known != quantizedInputs.end() && known->second.type == type;
    if (scaled && dominance.properlyDominates(known->second.value, user))
      return known->second;
    FailureOr<double> scale =
        scaled ? known->second.scale : getResidualScale(user, source, type);
    if (failed(scale))
      return failure();
    QuantizedTensor quantized{
        type, *scale, buildResidualQuantize(user, source, type, *scale)};
    if (!scaled)
      quantizedInputs[source] = quantized;
    return quantized;
  }

  /// The scale of `source`, the residual input of `user`, from its range;
  /// an error at `user` without one.
  FailureOr<double> getResidualScale(Operation *user, Value source, Type type) {
    auto describe = [&]() {
      return "the residual input of " + prec::describeOp(user) +
             " is quantized to ";
    };
    QuantizationScales scales;
    scales.type = type;
    scales.largest = getLargest(type);
    std::optional<Range> range = getValueRange(source);
    if (!range)
      return user->emitError()
             << describe() << type
             << " (quantize-residuals) but has no range: calibrate the model "
                "(prec-calibrate, then prec-legalize calibration=CALIB.json) "
                "or give its inputs a val-range";
    return computeScale(user, *range, scales, describe);
  }

  /// `source` quantized to `type` right after it is computed.
  static Value buildResidualQuantize(Operation *user, Value source, Type type,
                                     double scale) {
    OpBuilder builder(user->getContext());
    builder.setInsertionPointAfterValue(source);
    Location loc = source.getLoc();
    Value input = source;
    Type f32 = builder.getF32Type();
    if (getElementTypeOrSelf(input.getType()) != f32)
      input = tosa::CastOp::create(
          builder, loc, cast<RankedTensorType>(input.getType()).clone(f32),
          input);
    Value shift = buildZeroShift(builder, loc);
    std::string name = prec::getLayerName(user).str() + ".residual.quantize";
    return buildQuantize(builder, input, scale, type, shift,
                         NameLoc::get(builder.getStringAttr(name), loc));
  }

  /// The range of `value`'s elements: its product's, or what its producer
  /// (looking through float conversions) or its argument records.
  std::optional<Range> getValueRange(Value value) {
    while (auto conversion = value.getDefiningOp<tosa::CastOp>()) {
      if (!isa<FloatType>(
              getElementTypeOrSelf(conversion.getInput().getType())))
        break;
      value = conversion.getInput();
    }
    auto product = llvm::find_if(
        products, [&](const QuantizedProduct &p) { return p.result == value; });
    if (product != products.end())
      return product->range;
    if (Operation *def = value.getDefiningOp())
      return getRecordedRange(def);
    return getFiniteRange(getArgumentRange(cast<BlockArgument>(value)));
  }

  // This run's: each float tensor's quantized form, the products rewritten.
  llvm::DenseMap<Value, QuantizedTensor> quantizedInputs;
  SmallVector<QuantizedProduct> products;

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
