//===- ops/Normalization.cpp - Batch, Layer, Instance, Group norms -----===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importBatchNormalization() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  std::optional<KnownTensor> scale = getKnown(1), bias = getKnown(2),
                             mean = getKnown(3), variance = getKnown(4);
  if (!scale || !bias || !mean || !variance)
    return fail() << "scale, bias, mean and variance must be initializers "
                     "(inference mode)";
  if (node->output_size() > 1 && !node->output(1).empty())
    return fail() << "training-mode outputs are not supported";
  double epsilon = floatAttribute("epsilon", 1e-5f);
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() < 2)
    return fail() << "the input needs a channel dimension";
  int64_t channels = shape[1];
  for (const std::optional<KnownTensor> *parameter :
       {&scale, &bias, &mean, &variance})
    if (int64_t((*parameter)->values.size()) != channels)
      return fail() << "scale, bias, mean and variance need " << channels
                    << " values each, one per channel";
  // y = x * a + b with a = scale / sqrt(var + eps), b = bias - mean * a.
  std::vector<double> a(channels), b(channels);
  for (int64_t c = 0; c < channels; ++c) {
    a[c] = scale->values[c] / std::sqrt(variance->values[c] + epsilon);
    b[c] = bias->values[c] - mean->values[c] * a[c];
  }
  SmallVector<int64_t> channelShape(shape.size(), 1);
  channelShape[1] = channels;
  Type element = elementOf(*x);
  Value scaled = mul(*x, constant(channelShape, element, a));
  setOutput(0, binary<tosa::AddOp>(scaled, constant(channelShape, element, b),
                                   element));
  return success();
}

/// (x - mean) / sqrt(variance + epsilon) over `axes`, spelled as the chain
/// exporters write, so that the precision rules find its statistics
/// (passes/Normalization.h).
Value Importer::normalize(Value x, ArrayRef<int64_t> axes, double epsilon) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  Type element = elementOf(x);
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shape[axis];
  Value inverseCount = scalar(element, 1.0 / count, rank);
  Value mean = mul(reduce<tosa::ReduceSumOp>(x, axes), inverseCount);
  Value centered = binary<tosa::SubOp>(x, mean, element);
  Value variance = mul(reduce<tosa::ReduceSumOp>(mul(centered, centered), axes),
                       inverseCount);
  Value denominator = build<tosa::RsqrtOp>(
      variance.getType(),
      binary<tosa::AddOp>(variance, scalar(element, epsilon, rank), element));
  return mul(centered, denominator);
}

/// Input `index`, a scale or a shift, at the rank of `x`, to which it must
/// broadcast without widening it.
FailureOr<Value> Importer::affineParameter(int index, Value x) {
  FailureOr<Value> value = input(index);
  if (failed(value))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(x);
  Value ranked = toRank(*value, shape.size());
  FailureOr<SmallVector<int64_t>> joint =
      broadcastShapes(shapeOf(ranked), shape);
  if (failed(joint) || ArrayRef<int64_t>(*joint) != shape) {
    fail() << "input #" << index << " of type " << value->getType()
           << " does not broadcast to the input " << x.getType();
    return failure();
  }
  return ranked;
}

LogicalResult Importer::importLayerNormalization() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  int64_t axis = intAttribute("axis", -1);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(axis, rank));
  FailureOr<Value> gamma = affineParameter(1, *x);
  if (failed(gamma))
    return failure();
  Value result =
      mul(normalize(*x, axes, floatAttribute("epsilon", 1e-5f)), *gamma);
  if (hasInput(2)) {
    FailureOr<Value> beta = affineParameter(2, *x);
    if (failed(beta))
      return failure();
    result = binary<tosa::AddOp>(result, *beta, elementOf(*x));
  }
  setOutput(0, result);
  return success();
}

FailureOr<std::pair<Value, Value>>
Importer::channelScaleAndBias(int64_t count, llvm::StringRef unit) {
  FailureOr<Value> scale = input(1), bias = input(2);
  if (failed(scale) || failed(bias))
    return failure();
  for (Value parameter : {*scale, *bias})
    if (shapeOf(parameter) != ArrayRef<int64_t>{count}) {
      fail() << "scale and bias need " << count << " values each, one per "
             << unit << ", not " << parameter.getType();
      return failure();
    }
  return std::make_pair(*scale, *bias);
}

Value Importer::scaleChannels(Value x, std::pair<Value, Value> scaleAndBias) {
  SmallVector<int64_t> channelShape(shapeOf(x).size(), 1);
  channelShape[1] = shapeOf(x)[1];
  Value scaled = mul(x, reshape(scaleAndBias.first, channelShape));
  return binary<tosa::AddOp>(scaled, reshape(scaleAndBias.second, channelShape),
                             elementOf(x));
}

LogicalResult Importer::importInstanceNormalization() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  if (rank < 3)
    return fail() << "the input needs a channel and a spatial dimension, not "
                  << x->getType();
  auto scaleAndBias = channelScaleAndBias(shape[1], "channel");
  if (failed(scaleAndBias))
    return failure();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
  Value normalized = normalize(*x, axes, floatAttribute("epsilon", 1e-5f));
  setOutput(0, scaleChannels(normalized, *scaleAndBias));
  return success();
}

LogicalResult Importer::importGroupNormalization() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t groups = intAttribute("num_groups", 0);
  if (shape.size() < 2)
    return fail() << "the input needs a channel dimension, not "
                  << x->getType();
  int64_t channels = shape[1];
  if (groups < 1 || channels % groups != 0)
    return fail() << "num_groups " << groups << " does not divide the "
                  << channels << " channels";
  // Opset 18 gave one scale and bias per group, opset 21 one per channel.
  bool perGroup = opset < 21;
  auto scaleAndBias = perGroup ? channelScaleAndBias(groups, "group")
                               : channelScaleAndBias(channels, "channel");
  if (failed(scaleAndBias))
    return failure();
  // Statistics per group: [N, G, C/G * spatial], normalized along the last.
  SmallVector<int64_t> grouped = {shape[0], groups,
                                  product(shape.drop_front(1)) / groups};
  Value normalized =
      normalize(reshape(*x, grouped), {2}, floatAttribute("epsilon", 1e-5f));
  if (perGroup)
    setOutput(0, reshape(scaleChannels(normalized, *scaleAndBias), shape));
  else
    setOutput(0, scaleChannels(reshape(normalized, shape), *scaleAndBias));
  return success();
}

} // namespace prec::onnx_import
