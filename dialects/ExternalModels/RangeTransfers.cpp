//===- RangeTransfers.cpp - how ops transform value ranges ----------------===//

#include "dialects/ExternalModels/RangeTransfers.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace prec {

static constexpr double kInfinity = std::numeric_limits<double>::infinity();

Interval unknownRange(Operation *, ArrayRef<Interval>, ConstantValues &) {
  return Interval::unknown();
}

Interval firstOperandRange(Operation *, ArrayRef<Interval> operands,
                           ConstantValues &) {
  return operands[0];
}

Interval joinedRange(Operation *, ArrayRef<Interval> operands,
                     ConstantValues &) {
  Interval joined = operands[0];
  for (const Interval &operand : operands)
    joined = joined.join(operand);
  return joined;
}

Interval constantRange(Operation *op, ArrayRef<Interval>,
                       ConstantValues &constants) {
  const std::vector<double> *values = constants.lookup(op->getResult(0));
  if (!values || values->empty())
    return Interval::unknown();
  auto [lo, hi] = std::minmax_element(values->begin(), values->end());
  return {*lo, *hi};
}

//===----------------------------------------------------------------------===//
// Non-decreasing functions
//===----------------------------------------------------------------------===//

Interval expRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  return operands[0].mapMonotone([](double x) { return std::exp(x); });
}

Interval logRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  return operands[0].mapMonotone(
      [](double x) { return x <= 0 ? -kInfinity : std::log(x); });
}

Interval tanhRange(Operation *, ArrayRef<Interval> operands,
                   ConstantValues &) {
  return operands[0].mapMonotone([](double x) { return std::tanh(x); });
}

Interval sigmoidRange(Operation *, ArrayRef<Interval> operands,
                      ConstantValues &) {
  return operands[0].mapMonotone(
      [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
}

Interval erfRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  return operands[0].mapMonotone([](double x) { return std::erf(x); });
}

Interval floorRange(Operation *, ArrayRef<Interval> operands,
                    ConstantValues &) {
  return operands[0].mapMonotone([](double x) { return std::floor(x); });
}

Interval ceilRange(Operation *, ArrayRef<Interval> operands,
                   ConstantValues &) {
  return operands[0].mapMonotone([](double x) { return std::ceil(x); });
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

Interval addRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  return operands[0] + operands[1];
}

Interval subRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  return operands[0] - operands[1];
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

Interval mulRange(Operation *op, ArrayRef<Interval> operands,
                  ConstantValues &) {
  if (op->getOperand(0) == op->getOperand(1))
    return boundPower(operands[0], true, Interval{2, 2});
  return operands[0] * operands[1];
}

Interval negateRange(Operation *, ArrayRef<Interval> operands,
                     ConstantValues &) {
  return {-operands[0].hi, -operands[0].lo};
}

Interval absRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  const Interval &in = operands[0];
  if (in.lo >= 0)
    return in;
  if (in.hi <= 0)
    return {-in.hi, -in.lo};
  return {0, in.maxMagnitude()};
}

Interval maximumRange(Operation *, ArrayRef<Interval> operands,
                      ConstantValues &) {
  const Interval &a = operands[0], &b = operands[1];
  return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}

Interval minimumRange(Operation *, ArrayRef<Interval> operands,
                      ConstantValues &) {
  const Interval &a = operands[0], &b = operands[1];
  return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
}

/// A clamp bound; ReLU is written clamp(0, FLT_MAX): a bound at the end of
/// f32 means "no bound", not a value that could be reached.
static double getClampBound(Attribute attr, double fallback) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    double value = floatAttr.getValueAsDouble();
    return std::fabs(value) >= std::numeric_limits<float>::max()
               ? std::copysign(kInfinity, value)
               : value;
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(intAttr.getInt());
  return fallback;
}

Interval clampRange(Operation *op, ArrayRef<Interval> operands,
                    ConstantValues &) {
  auto clamp = cast<tosa::ClampOp>(op);
  return operands[0].clip(getClampBound(clamp.getMinValAttr(), -kInfinity),
                          getClampBound(clamp.getMaxValAttr(), kInfinity));
}

Interval unitRange(Operation *, ArrayRef<Interval>, ConstantValues &) {
  return {-1, 1};
}

Interval reciprocalRange(Operation *, ArrayRef<Interval> operands,
                         ConstantValues &) {
  const Interval &in = operands[0];
  if (in.contains(0))
    return Interval::unknown();
  return {1 / in.hi, 1 / in.lo};
}

Interval quotientRange(Operation *op, ArrayRef<Interval> operands,
                       ConstantValues &constants) {
  return operands[0] * reciprocalRange(op, operands.drop_front(), constants);
}

Interval sqrtRange(Operation *, ArrayRef<Interval> operands, ConstantValues &) {
  const Interval &in = operands[0];
  if (in.hi < 0)
    return Interval::unknown();
  return {std::sqrt(std::max(in.lo, 0.0)), std::sqrt(in.hi)};
}

Interval rsqrtRange(Operation *, ArrayRef<Interval> operands,
                    ConstantValues &) {
  const Interval &in = operands[0];
  if (in.hi <= 0)
    return Interval::unknown();
  double hi = in.lo <= 0 ? kInfinity : 1 / std::sqrt(in.lo);
  return {1 / std::sqrt(in.hi), hi};
}

Interval powerRange(Operation *op, ArrayRef<Interval> operands,
                    ConstantValues &constants) {
  return boundPower(operands[0], constants.lookup(op->getOperand(1)),
                    operands[1]);
}

Interval selectRange(Operation *, ArrayRef<Interval> operands,
                     ConstantValues &) {
  return operands[1].join(operands[2]);
}

//===----------------------------------------------------------------------===//
// Reductions, pooling and padding
//===----------------------------------------------------------------------===//

int64_t getReductionLength(Operation *op) {
  auto inputType = dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto axis = op->getAttrOfType<IntegerAttr>("axis");
  if (!inputType || !inputType.hasRank() || !axis)
    return ShapedType::kDynamic;
  return inputType.getDimSize(axis.getInt());
}

Interval reduceSumRange(Operation *op, ArrayRef<Interval> operands,
                        ConstantValues &) {
  int64_t length = getReductionLength(op);
  if (ShapedType::isDynamic(length))
    return Interval::unknown();
  return scale(operands[0], length);
}

static bool hasPadding(Operation *op) {
  auto pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
  return pad && llvm::any_of(pad.asArrayRef(), [](int64_t p) { return p; });
}

Interval avgPoolRange(Operation *op, ArrayRef<Interval> operands,
                      ConstantValues &) {
  return hasPadding(op) ? operands[0].join(Interval::point(0)) : operands[0];
}

Interval padRange(Operation *op, ArrayRef<Interval> operands,
                  ConstantValues &) {
  unsigned padConst =
      cast<tosa::PadOp>(op).getPadConstMutable().getOperandNumber();
  return operands[0].join(operands[padConst]);
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// How a contraction's weights map to output channels: laid out as
/// [outer][taps][inner], weight (o, t, i) feeds output channel o * inner + i.
struct WeightLayout {
  int64_t outer, taps, inner;
};

/// Bounds a contraction whose weights are known: for each output channel,
/// the sum over its taps of the extreme products of an input in `input` with
/// the tap's weight; `bias` adds per channel.
static Interval boundContraction(const Interval &input,
                                 ArrayRef<double> weights, WeightLayout layout,
                                 ArrayRef<Interval> bias) {
  if (layout.outer <= 0 || layout.taps < 0 || layout.inner <= 0 ||
      static_cast<int64_t>(weights.size()) !=
          layout.outer * layout.taps * layout.inner)
    return Interval::unknown();
  Interval result{kInfinity, -kInfinity};
  std::vector<Interval> sums;
  const double *weight = weights.data();
  for (int64_t outer = 0; outer < layout.outer; ++outer) {
    sums.assign(layout.inner, Interval::point(0));
    for (int64_t tap = 0; tap < layout.taps; ++tap)
      for (Interval &sum : sums)
        sum = sum + input * Interval::point(*weight++);
    for (auto [inner, sum] : llvm::enumerate(sums)) {
      size_t channel = outer * layout.inner + inner;
      result =
          result.join(bias.empty() ? sum : sum + bias[channel % bias.size()]);
    }
  }
  return result;
}

Interval matmulRange(Operation *op, ArrayRef<Interval> operands,
                     ConstantValues &constants) {
  auto matmul = cast<tosa::MatMulOp>(op);
  auto aType = cast<ShapedType>(matmul.getA().getType());
  auto bType = cast<ShapedType>(matmul.getB().getType());
  if (!aType.hasStaticShape() || !bType.hasStaticShape())
    return Interval::unknown();
  int64_t k = aType.getDimSize(2), n = bType.getDimSize(2);
  int64_t m = aType.getDimSize(1);
  // Per output column from B's values, or per output row from A's.
  if (const std::vector<double> *b = constants.lookup(matmul.getB()))
    return boundContraction(operands[0], *b, {bType.getDimSize(0), k, n}, {});
  if (const std::vector<double> *a = constants.lookup(matmul.getA()))
    return boundContraction(operands[1], *a, {aType.getDimSize(0) * m, k, 1},
                            {});
  return scale(operands[0] * operands[1], k);
}

/// Conv-like ops whose weights map to output channels by `layout`. Padding
/// and, for transposed convolutions, taps that miss an output contribute
/// zeros.
static Interval boundConvolution(Operation *op, ArrayRef<Interval> operands,
                                 ConstantValues &constants, WeightLayout layout,
                                 bool padded) {
  const Interval &inputRange = operands[0];
  Interval input = padded ? inputRange.join(Interval::point(0)) : inputRange;
  std::vector<Interval> bias;
  if (const std::vector<double> *biasValues =
          constants.lookup(op->getOperand(2)))
    for (double value : *biasValues)
      bias.push_back(Interval::point(value));
  else
    bias.push_back(operands[2]);
  const std::vector<double> *weights = constants.lookup(op->getOperand(1));
  if (!weights)
    return Interval::unknown();
  return boundContraction(input, *weights, layout, bias);
}

Interval convolutionRange(Operation *op, ArrayRef<Interval> operands,
                          ConstantValues &constants) {
  // One output channel per leading weight index. A transposed
  // convolution's outputs miss some taps, which count as zeros like padding.
  auto weightType = cast<ShapedType>(op->getOperand(1).getType());
  if (!weightType.hasStaticShape())
    return Interval::unknown();
  int64_t channels = weightType.getDimSize(0);
  int64_t perChannel =
      weightType.getNumElements() / std::max<int64_t>(channels, 1);
  return boundConvolution(op, operands, constants, {channels, perChannel, 1},
                          hasPadding(op) || isa<tosa::TransposeConv2DOp>(op));
}

Interval depthwiseConvolutionRange(Operation *op, ArrayRef<Interval> operands,
                                   ConstantValues &constants) {
  // Weights [KH, KW, C, M]: output channel c * M + m sums over the window.
  auto weightType = cast<ShapedType>(op->getOperand(1).getType());
  if (!weightType.hasStaticShape())
    return Interval::unknown();
  int64_t channels = weightType.getDimSize(2) * weightType.getDimSize(3);
  int64_t taps = weightType.getDimSize(0) * weightType.getDimSize(1);
  return boundConvolution(op, operands, constants, {1, taps, channels},
                          hasPadding(op));
}

} // namespace prec
