//===- ops/Elementwise.cpp - arithmetic, comparisons, activations, casts
//----===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::elementwiseBinary(llvm::StringRef tosaName) {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  auto pair = broadcastPair(*a, *b);
  if (failed(pair))
    return failure();
  if (elementOf(pair->first) != elementOf(pair->second))
    return fail() << "operands have different element types";
  setOutput(
      0, binary(tosaName, pair->first, pair->second, elementOf(pair->first)));
  return success();
}

LogicalResult Importer::elementwiseUnary(llvm::StringRef tosaName) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  SmallVector<Value> operands = {*x};
  if (tosaName == "tosa.negate") {
    operands.push_back(zeroPoint(elementOf(*x)));
    operands.push_back(zeroPoint(elementOf(*x)));
  }
  setOutput(0, create(tosaName, operands, x->getType()));
  return success();
}

LogicalResult Importer::importDiv() {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  auto pair = broadcastPair(*a, *b);
  if (failed(pair))
    return failure();
  Type element = elementOf(pair->first);
  if (!isa<FloatType>(element)) {
    setOutput(0, binary("tosa.intdiv", pair->first, pair->second, element));
    return success();
  }
  // TOSA has no float division; a correctly rounded one is arith.divf on
  // equally shaped tensors.
  SmallVector<int64_t> shape =
      *broadcastShapes(shapeOf(pair->first), shapeOf(pair->second));
  setOutput(0, create("arith.divf",
                      {tile(pair->first, multiplesTo(pair->first, shape)),
                       tile(pair->second, multiplesTo(pair->second, shape))},
                      tensorOf(shape, element)));
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
  setOutput(0, create("math.sqrt", {*x}, x->getType()));
  return success();
}

/// Mod of run-time tensors: fmod = 1 takes the dividend's sign (C's fmod),
/// fmod = 0 (integers only) the divisor's, as Python's %.
LogicalResult Importer::importMod() {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  auto pair = broadcastPair(*a, *b);
  if (failed(pair))
    return failure();
  auto [x, y] = *pair;
  Type element = elementOf(x);
  if (element != elementOf(y))
    return fail() << "operands have different element types";
  bool fmod = intAttribute("fmod", 0);
  bool isFloat = isa<FloatType>(element);
  if (isFloat && !fmod)
    return fail() << "fmod must be 1 for floating-point operands";
  SmallVector<int64_t> shape = *broadcastShapes(shapeOf(x), shapeOf(y));
  int64_t rank = shape.size();
  Value quotient;
  if (isFloat) {
    // trunc(x / y) = floor of |x / y| with x / y's sign.
    Value ratio =
        create("arith.divf",
               {tile(x, multiplesTo(x, shape)), tile(y, multiplesTo(y, shape))},
               tensorOf(shape, element));
    Value magnitude =
        create("tosa.floor", {create("tosa.abs", {ratio}, ratio.getType())},
               ratio.getType());
    Value negative = create("tosa.greater", {scalar(element, 0, rank), ratio},
                            tensorOf(shape, builder.getI1Type()));
    Value negated = create("tosa.negate",
                           {magnitude, zeroPoint(element), zeroPoint(element)},
                           ratio.getType());
    quotient =
        create("tosa.select", {negative, negated, magnitude}, ratio.getType());
  } else {
    quotient = binary("tosa.intdiv", x, y, element);
  }
  Value remainder = binary("tosa.sub", x, mul(quotient, y), element);
  if (!fmod) {
    // A remainder whose sign differs from the divisor's moves by one divisor.
    Type i1 = builder.getI1Type();
    Value zero = scalar(element, 0, rank);
    Value negativeRemainder =
        create("tosa.greater", {zero, remainder}, tensorOf(shape, i1));
    Value negativeDivisor =
        create("tosa.greater", {zero, y}, tensorOf(shapeOf(y), i1));
    Value nonZero =
        create("tosa.logical_not",
               {create("tosa.equal", {remainder, zero}, tensorOf(shape, i1))},
               tensorOf(shape, i1));
    Value differ =
        create("tosa.logical_xor", {negativeRemainder, negativeDivisor},
               tensorOf(shape, i1));
    Value adjust =
        create("tosa.logical_and", {nonZero, differ}, tensorOf(shape, i1));
    Value moved = binary("tosa.add", remainder, y, element);
    remainder =
        create("tosa.select", {adjust, moved, remainder}, remainder.getType());
  }
  setOutput(0, remainder);
  return success();
}

/// Comparisons and logic on run-time tensors: boolean results. Less and
/// LessOrEqual are Greater and GreaterOrEqual with the operands swapped.
LogicalResult Importer::importPredicate(llvm::StringRef type) {
  static const llvm::StringMap<std::pair<llvm::StringRef, bool>> ops = {
      {"Equal", {"tosa.equal", false}},
      {"Greater", {"tosa.greater", false}},
      {"GreaterOrEqual", {"tosa.greater_equal", false}},
      {"Less", {"tosa.greater", true}},
      {"LessOrEqual", {"tosa.greater_equal", true}},
      {"And", {"tosa.logical_and", false}},
      {"Or", {"tosa.logical_or", false}},
      {"Xor", {"tosa.logical_xor", false}}};
  Type i1 = builder.getI1Type();
  if (type == "Not") {
    FailureOr<Value> x = input(0);
    if (failed(x))
      return failure();
    setOutput(0, create("tosa.logical_not", {*x}, tensorOf(shapeOf(*x), i1)));
    return success();
  }
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  auto pair = broadcastPair(*a, *b);
  if (failed(pair))
    return failure();
  if (elementOf(pair->first) != elementOf(pair->second))
    return fail() << "operands have different element types";
  auto [name, swapped] = ops.lookup(type);
  if (swapped)
    std::swap(pair->first, pair->second);
  SmallVector<int64_t> shape =
      *broadcastShapes(shapeOf(pair->first), shapeOf(pair->second));
  setOutput(0, create(name, {pair->first, pair->second}, tensorOf(shape, i1)));
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
  setOutput(
      0, create("tosa.select",
                {toRank(*condition, rank), toRank(*x, rank), toRank(*y, rank)},
                tensorOf(shape, elementOf(*x))));
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
        create("tosa.greater_equal", {*x, scalar(element, 0, rank)},
               tensorOf(shapeOf(*x), builder.getI1Type()));
    setOutput(0, create("tosa.select", {positive, *x, scaled}, x->getType()));
  } else if (kind == "HardSwish") {
    // x * clip(x + 3, 0, 6) / 6.
    Value shifted = binary("tosa.add", *x, scalar(element, 3, rank), element);
    Value clipped = clampValue(shifted, 0, 6);
    setOutput(0, mul(mul(*x, clipped), scalar(element, 1.0 / 6, rank)));
  } else if (kind == "HardSigmoid") {
    // clip(alpha x + beta, 0, 1).
    Value scaled =
        mul(*x, scalar(element, floatAttribute("alpha", 0.2f), rank));
    Value shifted =
        binary("tosa.add", scaled,
               scalar(element, floatAttribute("beta", 0.5f), rank), element);
    setOutput(0, clampValue(shifted, 0, 1));
  } else if (kind == "Gelu") {
    std::string approximate = stringAttribute("approximate", "none");
    Value inner;
    if (approximate == "none") {
      // 0.5 x (1 + erf(x / sqrt 2)).
      Value scaled = mul(*x, scalar(element, M_SQRT1_2, rank));
      inner = create("tosa.erf", {scaled}, x->getType());
    } else if (approximate == "tanh") {
      // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
      Value cube = mul(mul(*x, *x), *x);
      Value sum = binary("tosa.add", *x,
                         mul(cube, scalar(element, 0.044715, rank)), element);
      Value scaled = mul(sum, scalar(element, std::sqrt(2 / M_PI), rank));
      inner = create("tosa.tanh", {scaled}, x->getType());
    } else {
      return fail() << "approximate must be none or tanh, not '" << approximate
                    << "'";
    }
    Value onePlus =
        binary("tosa.add", inner, scalar(element, 1, rank), element);
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
  OperationState state(location, precision::CastOp::getOperationName());
  state.addOperands(*x);
  state.addTypes(tensorOf(shapeOf(*x), element));
  setOutput(0, builder.create(state)->getResult(0));
  return success();
}

} // namespace prec::onnx_import
