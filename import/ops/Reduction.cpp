//===- ops/Reduction.cpp - reductions, softmax, cumulative sums --------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importSoftmax(bool logarithm) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  int64_t axis = intAttribute("axis", -1);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  Type element = elementOf(*x);
  Value shifted =
      binary<tosa::SubOp>(*x, reduce<tosa::ReduceMaxOp>(*x, {axis}), element);
  Value exponent = build<tosa::ExpOp>(shifted.getType(), shifted);
  Value sum = reduce<tosa::ReduceSumOp>(exponent, {axis});
  if (logarithm) {
    Value logSum = build<tosa::LogOp>(sum.getType(), sum);
    setOutput(0, binary<tosa::SubOp>(shifted, logSum, element));
  } else {
    Value reciprocal = build<tosa::ReciprocalOp>(sum.getType(), sum);
    setOutput(0, mul(exponent, reciprocal));
  }
  return success();
}

LogicalResult Importer::importReduce(llvm::StringRef kind) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  std::vector<int64_t> axes;
  // Axes moved from attribute to input: ReduceSum at 13, the rest at 18.
  bool axesAsInput = kind == "sum" ? opset >= 13 : opset >= 18;
  if (axesAsInput && hasInput(1)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(1, "axes");
    if (failed(known))
      return failure();
    axes = *known;
  } else if (!axesAsInput) {
    axes = intsAttribute("axes");
  }
  if (axes.empty()) {
    if (intAttribute("noop_with_empty_axes", 0)) {
      setOutput(0, *x);
      return success();
    }
    axes.resize(rank);
    std::iota(axes.begin(), axes.end(), 0);
  }
  for (int64_t &axis : axes) {
    if (failed(normalizeAxis(axis, rank)))
      return failure();
  }
  llvm::sort(axes);
  Value reduced;
  if (kind == "max")
    reduced = reduce<tosa::ReduceMaxOp>(*x, axes);
  else if (kind == "min")
    reduced = reduce<tosa::ReduceMinOp>(*x, axes);
  else if (kind == "l1")
    reduced = reduce<tosa::ReduceSumOp>(unary<tosa::AbsOp>(*x), axes);
  else if (kind == "l2" || kind == "sumsquare")
    reduced = reduce<tosa::ReduceSumOp>(mul(*x, *x), axes);
  else
    reduced = reduce<tosa::ReduceSumOp>(*x, axes);
  if (kind == "l2")
    reduced = build<math::SqrtOp>(reduced.getType(), reduced);
  if (kind == "mean") {
    int64_t count = 1;
    for (int64_t axis : axes)
      count *= shapeOf(*x)[axis];
    reduced = mul(reduced, scalar(elementOf(*x), 1.0 / count, rank));
  }
  if (!intAttribute("keepdims", 1)) {
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(axes, d))
        kept.push_back(shapeOf(reduced)[d]);
    reduced = reshape(reduced, kept);
  }
  setOutput(0, reduced);
  return success();
}

/// CumSum of a run-time tensor as a log-step scan (Hillis-Steele): after
/// step k each element holds the sum of the 2^k before it, so an axis of L
/// takes ceil(log2 L) shifted additions, exact for integers.
LogicalResult Importer::importCumSum() {
  FailureOr<Value> x = input(0);
  FailureOr<std::vector<int64_t>> axisValues = getKnownInts(1, "axis");
  if (failed(x) || failed(axisValues))
    return failure();
  if (axisValues->size() != 1)
    return fail() << "axis (input #1) must be one value";
  int64_t axis = axisValues->front();
  if (failed(normalizeAxis(axis, shapeOf(*x).size())))
    return failure();
  bool reverse = intAttribute("reverse", 0);
  int64_t length = shapeOf(*x)[axis];
  Value sum = reverse ? reverseAxis(*x, axis) : *x;
  for (int64_t shift = 1; shift < length; shift *= 2) {
    Value shifted =
        padAxis(sliceAxis(sum, axis, 0, length - shift), axis, shift, 0, 0);
    sum = binary<tosa::AddOp>(sum, shifted, elementOf(sum));
  }
  if (intAttribute("exclusive", 0))
    sum = length == 1
              ? binary<tosa::SubOp>(sum, sum, elementOf(sum))
              : padAxis(sliceAxis(sum, axis, 0, length - 1), axis, 1, 0, 0);
  setOutput(0, reverse ? reverseAxis(sum, axis) : sum);
  return success();
}

} // namespace prec::onnx_import
