//===- ops/Elementwise.cpp - arithmetic, comparisons, activations ------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

FailureOr<std::pair<Value, Value>> Importer::binaryOperands(bool swapped) {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  auto pair = broadcastPair(*a, *b);
  if (failed(pair))
    return failure();
  if (elementOf(pair->first) != elementOf(pair->second)) {
    fail() << "operands have different element types";
    return failure();
  }
  if (swapped)
    std::swap(pair->first, pair->second);
  return *pair;
}

LogicalResult Importer::importDiv() {
  FailureOr<std::pair<Value, Value>> pair = binaryOperands(false);
  if (failed(pair))
    return failure();
  Type element = elementOf(pair->first);
  if (!isa<FloatType>(element)) {
    setOutput(0, binary<tosa::IntDivOp>(pair->first, pair->second, element));
    return success();
  }
  // TOSA has no float division; a correctly rounded one is arith.divf on
  // equally shaped tensors.
  SmallVector<int64_t> shape =
      *broadcastShapes(shapeOf(pair->first), shapeOf(pair->second));
  setOutput(0, build<arith::DivFOp>(
                   tensorOf(shape, element),
                   tile(pair->first, multiplesTo(pair->first, shape)),
                   tile(pair->second, multiplesTo(pair->second, shape))));
  return success();
}

/// The multiples tiling `value` to `shape` (its rank already).
SmallVector<int64_t> Importer::multiplesTo(Value value,
                                           ArrayRef<int64_t> shape) {
  SmallVector<int64_t> multiples;
  for (auto [full, dim] : llvm::zip(shape, shapeOf(value)))
    multiples.push_back(full / dim);
  return multiples;
}

LogicalResult Importer::importSqrt() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  setOutput(0, build<math::SqrtOp>(x->getType(), *x));
  return success();
}

/// IsNaN: the elements that differ from themselves. SDPA attention, as
/// PyTorch exports it, zeroes the rows of fully masked queries with it.
LogicalResult Importer::importIsNaN() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  if (!isa<FloatType>(elementOf(*x)))
    return fail() << "the input must be a float tensor, not " << x->getType();
  Value same = binary<tosa::EqualOp>(*x, *x, builder.getI1Type());
  setOutput(0, unary<tosa::LogicalNotOp>(same));
  return success();
}

/// Sign: 1, -1 or 0 as the element is positive, negative or zero; NaN
/// stays NaN (x - x), as numpy's.
LogicalResult Importer::importSign() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type element = elementOf(*x);
  int64_t rank = shapeOf(*x).size();
  Value zero = scalar(element, 0, rank);
  auto select = [&](Value condition, double value, Value otherwise) {
    return build<tosa::SelectOp>(x->getType(), condition,
                                 scalar(element, value, rank), otherwise);
  };
  Value negative = select(binary<tosa::GreaterOp>(zero, *x, element), -1,
                          build<tosa::SubOp>(x->getType(), *x, *x));
  setOutput(0, select(binary<tosa::GreaterOp>(*x, zero, element), 1, negative));
  return success();
}

/// Mod of run-time tensors: fmod = 1 takes the dividend's sign (C's fmod),
/// fmod = 0 (integers only) the divisor's, as Python's %.
LogicalResult Importer::importMod() {
  FailureOr<std::pair<Value, Value>> pair = binaryOperands(false);
  if (failed(pair))
    return failure();
  auto [x, y] = *pair;
  Type element = elementOf(x);
  bool fmod = intAttribute("fmod", 0);
  bool isFloat = isa<FloatType>(element);
  if (isFloat && !fmod)
    return fail() << "fmod must be 1 for floating-point operands";
  SmallVector<int64_t> shape = *broadcastShapes(shapeOf(x), shapeOf(y));
  int64_t rank = shape.size();
  Value quotient;
  if (isFloat) {
    // trunc(x / y) = floor of |x / y| with x / y's sign.
    Value ratio = build<arith::DivFOp>(tensorOf(shape, element),
                                       tile(x, multiplesTo(x, shape)),
                                       tile(y, multiplesTo(y, shape)));
    Value magnitude = build<tosa::FloorOp>(
        ratio.getType(), build<tosa::AbsOp>(ratio.getType(), ratio));
    Value negative = build<tosa::GreaterOp>(
        tensorOf(shape, builder.getI1Type()), scalar(element, 0, rank), ratio);
    Value negated = build<tosa::NegateOp>(
        ratio.getType(), magnitude, zeroPoint(element), zeroPoint(element));
    quotient =
        build<tosa::SelectOp>(ratio.getType(), negative, negated, magnitude);
  } else {
    quotient = binary<tosa::IntDivOp>(x, y, element);
  }
  Value remainder = binary<tosa::SubOp>(x, mul(quotient, y), element);
  if (!fmod) {
    // A remainder whose sign differs from the divisor's moves by one divisor.
    Type i1 = builder.getI1Type();
    Value zero = scalar(element, 0, rank);
    Value negativeRemainder =
        build<tosa::GreaterOp>(tensorOf(shape, i1), zero, remainder);
    Value negativeDivisor =
        build<tosa::GreaterOp>(tensorOf(shapeOf(y), i1), zero, y);
    Value nonZero = build<tosa::LogicalNotOp>(
        tensorOf(shape, i1),
        build<tosa::EqualOp>(tensorOf(shape, i1), remainder, zero));
    Value differ = build<tosa::LogicalXorOp>(
        tensorOf(shape, i1), negativeRemainder, negativeDivisor);
    Value adjust =
        build<tosa::LogicalAndOp>(tensorOf(shape, i1), nonZero, differ);
    Value moved = binary<tosa::AddOp>(remainder, y, element);
    remainder =
        build<tosa::SelectOp>(remainder.getType(), adjust, moved, remainder);
  }
  setOutput(0, remainder);
  return success();
}

/// Where(condition, x, y) with a condition known at run time.
LogicalResult Importer::importWhere() {
  FailureOr<Value> condition = input(0), x = input(1), y = input(2);
  if (failed(condition) || failed(x) || failed(y))
    return failure();
  if (!elementOf(*condition).isInteger(1))
    return fail() << "the condition must be boolean, not "
                  << condition->getType();
  if (elementOf(*x) != elementOf(*y))
    return fail() << "x and y have different element types";
  int64_t rank = std::max(
      {shapeOf(*condition).size(), shapeOf(*x).size(), shapeOf(*y).size()});
  SmallVector<int64_t> shape;
  for (Value operand : {*condition, *x, *y}) {
    FailureOr<SmallVector<int64_t>> joint =
        broadcastShapes(shape, shapeOf(operand));
    if (failed(joint))
      return fail() << "condition, x and y do not broadcast";
    shape = *joint;
  }
  setOutput(0, build<tosa::SelectOp>(tensorOf(shape, elementOf(*x)),
                                     toRank(*condition, rank), toRank(*x, rank),
                                     toRank(*y, rank)));
  return success();
}

LogicalResult Importer::importClip() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  double lo = -std::numeric_limits<float>::max(),
         hi = std::numeric_limits<float>::max();
  for (auto [index, bound] : {std::pair{1, &lo}, std::pair{2, &hi}}) {
    if (!hasInput(index))
      continue;
    std::optional<KnownTensor> known = getKnown(index);
    if (!known || known->values.size() != 1)
      return fail() << "min and max must be constant scalars";
    *bound = known->values[0];
  }
  setOutput(0, clampValue(*x, lo, hi));
  return success();
}

LogicalResult Importer::importActivation(llvm::StringRef kind) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  Type element = elementOf(*x);
  int64_t rank = shapeOf(*x).size();
  if (kind == "Relu") {
    setOutput(0, clampValue(*x, 0, std::numeric_limits<float>::max()));
  } else if (kind == "LeakyRelu") {
    double alpha = floatAttribute("alpha", 0.01f);
    Value scaled = mul(*x, scalar(element, alpha, rank));
    Value positive =
        build<tosa::GreaterEqualOp>(tensorOf(shapeOf(*x), builder.getI1Type()),
                                    *x, scalar(element, 0, rank));
    setOutput(0, build<tosa::SelectOp>(x->getType(), positive, *x, scaled));
  } else if (kind == "HardSwish") {
    // x * clip(x + 3, 0, 6) / 6.
    Value shifted = binary<tosa::AddOp>(*x, scalar(element, 3, rank), element);
    Value clipped = clampValue(shifted, 0, 6);
    setOutput(0, mul(mul(*x, clipped), scalar(element, 1.0 / 6, rank)));
  } else if (kind == "HardSigmoid") {
    // clip(alpha x + beta, 0, 1).
    Value scaled =
        mul(*x, scalar(element, floatAttribute("alpha", 0.2f), rank));
    Value shifted = binary<tosa::AddOp>(
        scaled, scalar(element, floatAttribute("beta", 0.5f), rank), element);
    setOutput(0, clampValue(shifted, 0, 1));
  } else if (kind == "Gelu") {
    std::string approximate = stringAttribute("approximate", "none");
    Value inner;
    if (approximate == "none") {
      // 0.5 x (1 + erf(x / sqrt 2)).
      Value scaled = mul(*x, scalar(element, M_SQRT1_2, rank));
      inner = build<tosa::ErfOp>(x->getType(), scaled);
    } else if (approximate == "tanh") {
      // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
      Value cube = mul(mul(*x, *x), *x);
      Value sum = binary<tosa::AddOp>(
          *x, mul(cube, scalar(element, 0.044715, rank)), element);
      Value scaled = mul(sum, scalar(element, std::sqrt(2 / M_PI), rank));
      inner = build<tosa::TanhOp>(x->getType(), scaled);
    } else {
      return fail() << "approximate must be none or tanh, not '" << approximate
                    << "'";
    }
    Value onePlus =
        binary<tosa::AddOp>(inner, scalar(element, 1, rank), element);
    setOutput(0, mul(mul(*x, onePlus), scalar(element, 0.5, rank)));
  }
  return success();
}

LogicalResult Importer::importCast() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  int64_t to = intAttribute("to", 0);
  Type element = getElementType(context, to);
  if (!element)
    return fail() << "cast to data type " << to << " is not supported";
  // The model asked for this cast: it is user intent, kept by every pass.
  setOutput(0, build<precision::CastOp>(tensorOf(shapeOf(*x), element), *x));
  return success();
}

} // namespace prec::onnx_import
