//===- RangeAnalysis.cpp - value ranges of a function's tensors -----------===//

#include "passes/RangeAnalysis.h"

#include "passes/PrecisionRules.h"

#include "dialects/Precision/PrecisionOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace prec {

std::optional<std::vector<double>> getConstantValues(Value value) {
  Operation *def = value.getDefiningOp();
  while (def && isa<tosa::CastOp, precision::CastOp>(def))
    def = def->getOperand(0).getDefiningOp();
  if (!def)
    return std::nullopt;
  Attribute attr;
  if (auto constant = dyn_cast<tosa::ConstOp>(def))
    attr = constant.getValues();
  else if (auto constant = dyn_cast<arith::ConstantOp>(def))
    attr = constant.getValue();
  else
    return std::nullopt;

  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    std::vector<double> values;
    values.reserve(dense.getNumElements());
    for (const APFloat &element : dense.getValues<APFloat>())
      values.push_back(element.convertToDouble());
    return values;
  }
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    std::vector<double> values;
    values.reserve(dense.getNumElements());
    for (const APInt &element : dense.getValues<APInt>())
      values.push_back(static_cast<double>(element.getSExtValue()));
    return values;
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef();
    if (!data)
      return std::nullopt;
    return std::vector<double>(data->begin(), data->end());
  }
  return std::nullopt;
}

Interval getRecordedRange(Value value) {
  value = lookThroughRegions(value);
  StringRef name = precision::PrecisionDialect::getRangeAttrName();
  DenseF64ArrayAttr recorded;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (auto function =
            dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp()))
      recorded = function.getArgAttrOfType<DenseF64ArrayAttr>(
          argument.getArgNumber(), name);
  } else if (Operation *def = value.getDefiningOp();
             def->getNumResults() == 1) {
    recorded = def->getAttrOfType<DenseF64ArrayAttr>(name);
  }
  if (!recorded)
    return Interval::unknown();
  return {recorded[0], recorded[1]};
}

/// The range of a list of constant values.
static Interval rangeOf(ArrayRef<double> values) {
  if (values.empty())
    return Interval::unknown();
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

RangeAnalysis::RangeAnalysis(Operation *root,
                             ArrayRef<std::optional<Interval>> argumentRanges) {
  for (Region &region : root->getRegions()) {
    if (region.empty())
      continue;
    for (auto [index, argument] :
         llvm::enumerate(region.front().getArguments())) {
      if (index < argumentRanges.size() && argumentRanges[index])
        ranges[argument] = *argumentRanges[index];
    }
    for (Block &block : region)
      visitBlock(block);
  }
}

Interval RangeAnalysis::getRange(Value value) const {
  auto it = ranges.find(value);
  return it == ranges.end() ? Interval::unknown() : it->second;
}

void RangeAnalysis::visitBlock(Block &block) {
  for (Operation &op : block)
    visitOp(&op);
}

void RangeAnalysis::visitOp(Operation *op) {
  if (auto region = dyn_cast<precision::RegionOp>(op)) {
    for (auto [argument, input] :
         llvm::zip(region.getBodyBlock().getArguments(), region.getInputs()))
      ranges[argument] = getRange(input);
    visitBlock(region.getBodyBlock());
    for (auto [result, yielded] :
         llvm::zip(region.getResults(), region.getYield().getValues()))
      ranges[result] = getRange(yielded);
    return;
  }
  if (op->getNumResults() == 0)
    return;
  Interval range = computeResultRange(op);
  if (auto observed = op->getAttrOfType<DenseF64ArrayAttr>(
          precision::PrecisionDialect::getObservedRangeAttrName()))
    range = withObservedRange(range, Interval{observed[0], observed[1]});
  for (Value result : op->getResults())
    ranges[result] = range;
}

Interval withObservedRange(const Interval &proven, const Interval &observed) {
  auto widen = [](double bound, bool upper) {
    return (bound > 0) == upper ? bound * kObservedRangeMargin
                                : bound / kObservedRangeMargin;
  };
  Interval widened{widen(observed.lo, false), widen(observed.hi, true)};
  if (proven.hi < widened.lo || proven.lo > widened.hi)
    return widened;
  return proven.clip(widened.lo, widened.hi);
}

/// Number of elements of `value`'s tensor type, or 0 if unknown.
static int64_t getNumElements(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : 0;
}

/// Bounds a contraction whose weights are known: for each output channel,
/// the sum over its taps of the extreme products of an input in `input` with
/// the tap's weight. `channelOfWeight(i)` maps a flat weight index to its
/// output channel, `numChannels` channels in all; `bias` adds per channel.
template <typename ChannelOf>
static Interval boundContraction(const Interval &input,
                                 ArrayRef<double> weights, int64_t numChannels,
                                 ChannelOf channelOfWeight,
                                 ArrayRef<Interval> bias) {
  std::vector<Interval> sums(numChannels, Interval::point(0));
  for (auto [index, weight] : llvm::enumerate(weights)) {
    Interval &sum = sums[channelOfWeight(index)];
    sum = sum + input * Interval::point(weight);
  }
  Interval result{std::numeric_limits<double>::infinity(),
                  -std::numeric_limits<double>::infinity()};
  for (auto [channel, sum] : llvm::enumerate(sums)) {
    Interval biased = bias.empty() ? sum : sum + bias[channel % bias.size()];
    result = result.join(biased);
  }
  return result;
}

/// The per-channel ranges of a bias (one range if not constant).
static std::vector<Interval>
getBiasRanges(const std::optional<std::vector<double>> &values,
              const Interval &fallback) {
  if (!values)
    return {fallback};
  std::vector<Interval> ranges;
  for (double value : *values)
    ranges.push_back(Interval::point(value));
  return ranges;
}

/// Conv-like ops: `channelOf` maps a flat weight index to an output channel.
template <typename ChannelOf>
static Interval
boundConvolution(const std::optional<std::vector<double>> &weights,
                 const std::optional<std::vector<double>> &biasValues,
                 const Interval &inputRange, const Interval &biasRange,
                 int64_t numChannels, ChannelOf channelOf, bool padded) {
  // Padding and, for transposed convolutions, taps that miss an output
  // contribute zeros.
  Interval input = padded ? inputRange.join(Interval::point(0)) : inputRange;
  std::vector<Interval> bias = getBiasRanges(biasValues, biasRange);
  if (!weights || numChannels <= 0)
    return Interval::unknown();
  return boundContraction(input, *weights, numChannels, channelOf, bias);
}

static bool hasPadding(Operation *op) {
  auto pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
  return pad && llvm::any_of(pad.asArrayRef(), [](int64_t p) { return p; });
}

/// A bound of x^y for x in `base` and y in `exponent`.
static Interval boundPower(const Interval &base, bool constantExponent,
                           const Interval &exponent) {
  if (base.lo > 0) {
    double corners[] = {
        std::pow(base.lo, exponent.lo), std::pow(base.lo, exponent.hi),
        std::pow(base.hi, exponent.lo), std::pow(base.hi, exponent.hi)};
    return {*std::min_element(std::begin(corners), std::end(corners)),
            *std::max_element(std::begin(corners), std::end(corners))};
  }
  // A constant non-negative integer exponent: monotone for odd powers, a
  // function of |x| for even ones.
  if (exponent.lo != exponent.hi || exponent.lo < 0 ||
      exponent.lo != std::floor(exponent.lo) || !constantExponent)
    return Interval::unknown();
  double power = exponent.lo;
  if (std::fmod(power, 2) == 1)
    return {std::pow(base.lo, power), std::pow(base.hi, power)};
  double smallest =
      base.contains(0) ? 0 : std::min(std::fabs(base.lo), std::fabs(base.hi));
  return {std::pow(smallest, power), std::pow(base.maxMagnitude(), power)};
}

using MonotoneFunction = double (*)(double);

/// The non-decreasing function an elementwise op applies, if it is one.
static MonotoneFunction getMonotoneFunction(Operation *op) {
  return llvm::TypeSwitch<Operation *, MonotoneFunction>(op)
      .Case<tosa::ExpOp>(
          [](auto) { return [](double x) { return std::exp(x); }; })
      .Case<tosa::LogOp>([](auto) {
        return [](double x) {
          return x <= 0 ? -std::numeric_limits<double>::infinity()
                        : std::log(x);
        };
      })
      .Case<tosa::TanhOp>(
          [](auto) { return [](double x) { return std::tanh(x); }; })
      .Case<tosa::SigmoidOp>([](auto) {
        return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
      })
      .Case<tosa::ErfOp>(
          [](auto) { return [](double x) { return std::erf(x); }; })
      .Case<tosa::FloorOp>(
          [](auto) { return [](double x) { return std::floor(x); }; })
      .Case<tosa::CeilOp>(
          [](auto) { return [](double x) { return std::ceil(x); }; })
      .Default([](Operation *) -> MonotoneFunction { return nullptr; });
}

const std::optional<std::vector<double>> &
RangeAnalysis::getWeights(Value value) {
  auto [it, inserted] = weights.try_emplace(value.getAsOpaquePointer());
  if (inserted)
    it->second = getConstantValues(value);
  return it->second;
}

Interval RangeAnalysis::computeResultRange(Operation *op) {
  auto operandRange = [&](unsigned index) {
    return getRange(op->getOperand(index));
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (MonotoneFunction fn = getMonotoneFunction(op))
    return operandRange(0).mapMonotone(fn);

  return llvm::TypeSwitch<Operation *, Interval>(op)
      .Case<tosa::ConstOp, arith::ConstantOp>([&](Operation *) {
        const std::optional<std::vector<double>> &values =
            getWeights(op->getResult(0));
        return values ? rangeOf(*values) : Interval::unknown();
      })
      .Case<tosa::AddOp>(
          [&](auto) { return operandRange(0) + operandRange(1); })
      .Case<tosa::SubOp>(
          [&](auto) { return operandRange(0) - operandRange(1); })
      .Case<tosa::MulOp>([&](auto) {
        // x * x is a square: never negative (a variance's squares).
        if (op->getOperand(0) == op->getOperand(1))
          return boundPower(operandRange(0), true, Interval{2, 2});
        return operandRange(0) * operandRange(1);
      })
      .Case<tosa::NegateOp>([&](auto) {
        Interval in = operandRange(0);
        return Interval{-in.hi, -in.lo};
      })
      .Case<tosa::AbsOp>([&](auto) {
        Interval in = operandRange(0);
        if (in.lo >= 0)
          return in;
        if (in.hi <= 0)
          return Interval{-in.hi, -in.lo};
        return Interval{0, in.maxMagnitude()};
      })
      .Case<tosa::MaximumOp>([&](auto) {
        Interval a = operandRange(0), b = operandRange(1);
        return Interval{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
      })
      .Case<tosa::MinimumOp>([&](auto) {
        Interval a = operandRange(0), b = operandRange(1);
        return Interval{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
      })
      .Case<tosa::ClampOp>([&](tosa::ClampOp clamp) {
        auto bound = [](Attribute attr, double fallback) {
          // ReLU is written clamp(0, FLT_MAX): a bound at the end of f32
          // means "no bound", not a value that could be reached.
          if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
            double value = floatAttr.getValueAsDouble();
            return std::fabs(value) >= std::numeric_limits<float>::max()
                       ? std::copysign(inf, value)
                       : value;
          }
          if (auto intAttr = dyn_cast<IntegerAttr>(attr))
            return static_cast<double>(intAttr.getInt());
          return fallback;
        };
        return operandRange(0).clip(bound(clamp.getMinValAttr(), -inf),
                                    bound(clamp.getMaxValAttr(), inf));
      })
      .Case<tosa::SinOp, tosa::CosOp>([&](Operation *) {
        return Interval{-1, 1};
      })
      .Case<tosa::ReciprocalOp>([&](auto) {
        Interval in = operandRange(0);
        if (in.contains(0))
          return Interval::unknown();
        return Interval{1 / in.hi, 1 / in.lo};
      })
      .Case<tosa::RsqrtOp>([&](auto) {
        Interval in = operandRange(0);
        if (in.hi <= 0)
          return Interval::unknown();
        double hi = in.lo <= 0 ? inf : 1 / std::sqrt(in.lo);
        return Interval{1 / std::sqrt(in.hi), hi};
      })
      .Case<tosa::PowOp>([&](auto) {
        return boundPower(operandRange(0),
                          getWeights(op->getOperand(1)).has_value(),
                          operandRange(1));
      })
      .Case<tosa::SelectOp>(
          [&](auto) { return operandRange(1).join(operandRange(2)); })
      .Case<tosa::ReduceSumOp>([&](auto) {
        auto inputType = cast<ShapedType>(op->getOperand(0).getType());
        int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
        if (!inputType.hasRank() || inputType.isDynamicDim(axis))
          return Interval::unknown();
        return scale(operandRange(0), inputType.getDimSize(axis));
      })
      .Case<tosa::ReduceMaxOp, tosa::ReduceMinOp, tosa::MaxPool2dOp,
            tosa::ReshapeOp, tosa::TransposeOp, tosa::SliceOp, tosa::TileOp,
            tosa::ReverseOp, tosa::IdentityOp, tosa::GatherOp, tosa::CastOp,
            precision::CastOp>([&](Operation *) { return operandRange(0); })
      .Case<tosa::AvgPool2dOp>([&](Operation *) {
        Interval in = operandRange(0);
        return hasPadding(op) ? in.join(Interval::point(0)) : in;
      })
      .Case<tosa::ConcatOp>([&](Operation *) {
        Interval joined = operandRange(0);
        for (Value input : op->getOperands())
          joined = joined.join(getRange(input));
        return joined;
      })
      .Case<tosa::PadOp>([&](tosa::PadOp pad) {
        return operandRange(0).join(getRange(pad.getPadConst()));
      })
      .Case<tosa::MatMulOp>([&](tosa::MatMulOp matmul) {
        auto aType = cast<ShapedType>(matmul.getA().getType());
        auto bType = cast<ShapedType>(matmul.getB().getType());
        if (!aType.hasStaticShape() || !bType.hasStaticShape())
          return Interval::unknown();
        int64_t k = aType.getDimSize(2), n = bType.getDimSize(2);
        int64_t m = aType.getDimSize(1);
        // Per output column from B's values, or per output row from A's.
        if (const std::optional<std::vector<double>> &b =
                getWeights(matmul.getB()))
          return boundContraction(
              getRange(matmul.getA()), *b, bType.getDimSize(0) * n,
              [&](size_t i) { return (i / (k * n)) * n + i % n; }, {});
        if (const std::optional<std::vector<double>> &a =
                getWeights(matmul.getA()))
          return boundContraction(getRange(matmul.getB()), *a,
                                  aType.getDimSize(0) * m,
                                  [&](size_t i) { return i / k; }, {});
        return scale(getRange(matmul.getA()) * getRange(matmul.getB()), k);
      })
      .Case<tosa::Conv2DOp, tosa::Conv3DOp, tosa::TransposeConv2DOp>(
          [&](Operation *) {
            // Weights [O, ...taps, C]: one output channel per leading index.
            // A transposed convolution's outputs miss some taps, which
            // count as zeros like padding.
            auto weightType = cast<ShapedType>(op->getOperand(1).getType());
            int64_t channels = weightType.getDimSize(0);
            int64_t perChannel = getNumElements(op->getOperand(1)) /
                                 std::max<int64_t>(channels, 1);
            return boundConvolution(
                getWeights(op->getOperand(1)), getWeights(op->getOperand(2)),
                operandRange(0), operandRange(2), channels,
                [&](size_t i) { return i / perChannel; },
                hasPadding(op) || isa<tosa::TransposeConv2DOp>(op));
          })
      .Case<tosa::DepthwiseConv2DOp>([&](Operation *) {
        // Weights [KH, KW, C, M]: output channel c * M + m.
        auto weightType = cast<ShapedType>(op->getOperand(1).getType());
        int64_t channels = weightType.getDimSize(2) * weightType.getDimSize(3);
        return boundConvolution(
            getWeights(op->getOperand(1)), getWeights(op->getOperand(2)),
            operandRange(0), operandRange(2), channels,
            [&](size_t i) { return i % channels; }, hasPadding(op));
      })
      .Default([](Operation *) { return Interval::unknown(); });
}

} // namespace prec
