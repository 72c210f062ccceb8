//===- ops/Shape.cpp - reshapes, slices, concats, pads, constants ------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importReshape() {
  FailureOr<Value> x = input(0);
  FailureOr<std::vector<int64_t>> target = getKnownInts(1, "shape");
  if (failed(x) || failed(target))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  bool allowZero = intAttribute("allowzero", 0);
  SmallVector<int64_t> result;
  int64_t inferred = -1, known = 1;
  for (auto [index, dim] : llvm::enumerate(*target)) {
    if (dim == 0 && !allowZero) {
      if (index >= shape.size())
        return fail() << "shape copies dimension " << index
                      << " the input lacks";
      dim = shape[index];
    }
    if (dim == -1) {
      if (inferred >= 0)
        return fail() << "shape has more than one -1";
      inferred = index;
      result.push_back(1);
      continue;
    }
    if (dim < 0)
      return fail() << "shape has the negative dimension " << dim;
    result.push_back(dim);
    if (llvm::MulOverflow(known, dim, known))
      return fail() << "shape has more elements than int64 counts";
  }
  int64_t total = product(shape);
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return fail() << "cannot infer the -1 of the shape";
    result[inferred] = total / known;
  }
  if (product(result) != total)
    return fail() << "cannot reshape " << x->getType() << " to "
                  << product(result) << " elements";
  setOutput(0, reshape(*x, result));
  return success();
}

LogicalResult Importer::importFlatten() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t axis = intAttribute("axis", 1);
  if (axis < 0)
    axis += shape.size();
  if (axis < 0 || axis > int64_t(shape.size()))
    return fail() << "axis out of range";
  setOutput(0, reshape(*x, {product(shape.take_front(axis)),
                            product(shape.drop_front(axis))}));
  return success();
}

LogicalResult Importer::importTranspose() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  std::vector<int64_t> perm = intsAttribute("perm");
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  std::vector<int64_t> sorted = perm, dimensions(rank);
  llvm::sort(sorted);
  std::iota(dimensions.begin(), dimensions.end(), 0);
  if (sorted != dimensions)
    return fail() << "perm is not a permutation of the " << rank
                  << " dimensions";
  SmallVector<int32_t> perm32(perm.begin(), perm.end());
  setOutput(0, transpose(*x, perm32));
  return success();
}

LogicalResult Importer::importConcat() {
  SmallVector<Value> inputs;
  for (int i = 0; i < node->input_size(); ++i) {
    // Empty parts add nothing.
    if (ElementsAttr part = getKnownElements(i); part && part.empty())
      continue;
    FailureOr<Value> value = input(i);
    if (failed(value))
      return failure();
    inputs.push_back(*value);
  }
  if (inputs.empty())
    return fail() << "Concat needs at least one non-empty input";
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, shapeOf(inputs[0]).size())))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(inputs[0]);
  for (Value value : inputs) {
    ArrayRef<int64_t> other = shapeOf(value);
    if (other.size() != shape.size())
      return fail() << "inputs differ in shape off the axis";
    for (size_t d = 0; d < shape.size(); ++d)
      if (int64_t(d) != axis && other[d] != shape[d])
        return fail() << "inputs differ in shape off the axis";
  }
  setOutput(0, concatAxis(inputs, axis));
  return success();
}

LogicalResult Importer::importSplit() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, shape.size())))
    return failure();
  std::vector<int64_t> sizes;
  if (hasInput(1)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(1, "split");
    if (failed(known))
      return failure();
    sizes = *known;
  } else {
    int64_t parts = intAttribute("num_outputs", node->output_size());
    if (parts < 1 || parts > shape[axis])
      return fail() << "num_outputs " << parts << " must lie between 1 and "
                    << shape[axis];
    int64_t each = (shape[axis] + parts - 1) / parts;
    for (int64_t p = 0, left = shape[axis]; p < parts; ++p) {
      sizes.push_back(std::min(each, left));
      left -= sizes.back();
    }
  }
  if (int64_t(sizes.size()) != node->output_size())
    return fail() << "splits into " << sizes.size() << " parts but has "
                  << node->output_size() << " outputs";
  int64_t covered = 0;
  for (int64_t size : sizes)
    if (size < 1 || llvm::AddOverflow(covered, size, covered))
      return fail() << "split sizes must be positive";
  if (covered != shape[axis])
    return fail() << "split sizes add up to " << covered << ", not "
                  << shape[axis];
  int64_t offset = 0;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    SmallVector<int64_t> start(shape.size(), 0), extent(shape);
    start[axis] = offset;
    extent[axis] = size;
    setOutput(index,
              build<tosa::SliceOp>(tensorOf(extent, elementOf(*x)), *x,
                                   constShape(start), constShape(extent)));
    offset += size;
  }
  return success();
}

LogicalResult Importer::importSlice() {
  FailureOr<Value> x = input(0);
  FailureOr<std::vector<int64_t>> starts = getKnownInts(1, "starts");
  FailureOr<std::vector<int64_t>> ends = getKnownInts(2, "ends");
  if (failed(x) || failed(starts) || failed(ends))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  std::vector<int64_t> axes(starts->size()), steps(starts->size(), 1);
  std::iota(axes.begin(), axes.end(), 0);
  if (hasInput(3)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(3, "axes");
    if (failed(known))
      return failure();
    axes = *known;
  }
  if (hasInput(4)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(4, "steps");
    if (failed(known))
      return failure();
    steps = *known;
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size())
    return fail() << "starts, ends, axes and steps differ in length";
  SmallVector<SliceAxis> taken;
  SmallVector<int64_t> resultShape(shape);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (failed(normalizeAxis(axes[i], rank)))
      return failure();
    if (steps[i] == 0)
      return fail() << "a step is 0";
    taken.push_back(
        resolveSliceAxis((*starts)[i], (*ends)[i], steps[i], shape[axes[i]]));
    resultShape[axes[i]] = taken.back().count;
  }
  // An empty slice (Phi-3's rotary part when it is the whole head) is
  // known to be empty: Concat drops it, any other use is an error there.
  if (product(resultShape) == 0) {
    known[node->output(0)] =
        elementsFromBytes(tensorOf(resultShape, elementOf(*x)), {});
    return success();
  }
  Value result = *x;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i], step = steps[i], dim = shape[axis];
    int64_t begin = taken[i].begin;
    // A negative step walks the reversed axis forwards.
    if (step < 0) {
      result = reverseAxis(result, axis);
      begin = dim - 1 - begin;
    }
    result = stepAxis(result, axis, begin, taken[i].count, taken[i].stride);
  }
  setOutput(0, result);
  return success();
}

/// `count` elements of `value` along `axis` from `begin`, `stride` apart:
/// a slice, and for strides above 1 a split of the axis into [count, stride]
/// keeping the first of each (padded at the end to a whole multiple).
Value Importer::stepAxis(Value value, int64_t axis, int64_t begin,
                         int64_t count, int64_t stride) {
  int64_t dim = shapeOf(value)[axis];
  int64_t span = count * stride;
  int64_t available = std::min(span, dim - begin);
  if (stride == 1 && available == dim)
    return value;
  Value sliced = sliceAxis(value, axis, begin, available);
  if (stride == 1)
    return sliced;
  if (available < span)
    sliced = padAxis(sliced, axis, 0, span - available, 0);
  SmallVector<int64_t> split(shapeOf(sliced));
  split[axis] = stride;
  split.insert(split.begin() + axis, count);
  Value first = sliceAxis(reshape(sliced, split), axis + 1, 0, 1);
  SmallVector<int64_t> shape(shapeOf(value));
  shape[axis] = count;
  return reshape(first, shape);
}

LogicalResult Importer::importSqueeze(bool unsqueeze) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  std::vector<int64_t> axes;
  if (hasInput(1)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(1, "axes");
    if (failed(known))
      return failure();
    axes = *known;
  } else {
    axes = intsAttribute("axes");
  }
  SmallVector<int64_t> shape(shapeOf(*x));
  if (unsqueeze) {
    int64_t rank = shape.size() + axes.size();
    for (int64_t &axis : axes)
      if (axis < 0)
        axis += rank;
    llvm::sort(axes);
    for (int64_t axis : axes) {
      if (axis < 0 || axis > int64_t(shape.size()))
        return fail() << "axis out of range";
      shape.insert(shape.begin() + axis, 1);
    }
  } else {
    int64_t rank = shape.size();
    for (int64_t &axis : axes)
      if (failed(normalizeAxis(axis, rank)))
        return failure();
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d) {
      bool squeezed =
          axes.empty() ? shape[d] == 1 : llvm::is_contained(axes, d);
      if (squeezed && shape[d] != 1)
        return fail() << "cannot squeeze dimension " << d << " of size "
                      << shape[d];
      if (!squeezed)
        kept.push_back(shape[d]);
    }
    shape = kept;
  }
  setOutput(0, reshape(*x, shape));
  return success();
}

/// `value` repeated `multiples` times along each dimension.
Value Importer::tile(Value value, ArrayRef<int64_t> multiples) {
  if (llvm::all_of(multiples, [](int64_t m) { return m == 1; }))
    return value;
  SmallVector<int64_t> shape;
  for (auto [dim, multiple] : llvm::zip(shapeOf(value), multiples))
    shape.push_back(dim * multiple);
  // A splat stays one: the engine writes it as a literal, not a tile kernel.
  SplatElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)))
    return constant(splat.resizeSplat(tensorOf(shape, elementOf(value))));
  return build<tosa::TileOp>(tensorOf(shape, elementOf(value)), value,
                             constShape(multiples));
}

/// Expand and Tile of run-time tensors, by known shapes or repeats.
LogicalResult Importer::importExpandOrTile(bool isTile) {
  FailureOr<Value> x = input(0);
  FailureOr<std::vector<int64_t>> operand =
      getKnownInts(1, isTile ? "repeats" : "shape");
  if (failed(x) || failed(operand))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  SmallVector<int64_t> multiples;
  Value value = *x;
  if (isTile) {
    if (operand->size() != shape.size() ||
        llvm::any_of(*operand, [](int64_t r) { return r < 1; }))
      return fail() << "repeats must hold one positive count per dimension";
    multiples.assign(operand->begin(), operand->end());
  } else {
    FailureOr<SmallVector<int64_t>> joint = broadcastShapes(shape, *operand);
    if (failed(joint) || llvm::any_of(*joint, [](int64_t d) { return d < 1; }))
      return fail() << "shape (input #1) does not broadcast with the input "
                    << x->getType();
    value = toRank(*x, joint->size());
    for (auto [full, dim] : llvm::zip(*joint, shapeOf(value)))
      multiples.push_back(full / dim);
  }
  if (product(multiples) > maxElements / std::max<int64_t>(product(shape), 1))
    return fail() << "the result would exceed " << maxElements << " elements";
  setOutput(0, tile(value, multiples));
  return success();
}

Value Importer::sliceAxis(Value value, int64_t axis, int64_t start,
                          int64_t size) {
  SmallVector<int64_t> begin(shapeOf(value).size(), 0);
  SmallVector<int64_t> extent(shapeOf(value));
  begin[axis] = start;
  extent[axis] = size;
  return build<tosa::SliceOp>(tensorOf(extent, elementOf(value)), value,
                              constShape(begin), constShape(extent));
}

Value Importer::concatAxis(ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() == 1)
    return parts.front();
  SmallVector<int64_t> shape(shapeOf(parts.front()));
  shape[axis] = 0;
  for (Value part : parts)
    shape[axis] += shapeOf(part)[axis];
  return build<tosa::ConcatOp>(tensorOf(shape, elementOf(parts[0])), parts,
                               uint32_t(axis));
}

Value Importer::reverseAxis(Value value, int64_t axis) {
  if (shapeOf(value)[axis] == 1)
    return value;
  return build<tosa::ReverseOp>(value.getType(), value, uint32_t(axis));
}

Value Importer::padAxis(Value value, int64_t axis, int64_t before,
                        int64_t after, double fill) {
  SmallVector<int64_t> padding(2 * shapeOf(value).size(), 0);
  padding[2 * axis] = before;
  padding[2 * axis + 1] = after;
  SmallVector<int64_t> shape(shapeOf(value));
  shape[axis] += before + after;
  return build<tosa::PadOp>(tensorOf(shape, elementOf(value)), value,
                            constShape(padding),
                            constant({1}, elementOf(value), {fill}));
}

/// Pad: constant (tosa.pad), edge, reflect and wrap (slices of the input
/// around it); negative pads crop.
LogicalResult Importer::importPad() {
  FailureOr<Value> x = input(0);
  FailureOr<std::vector<int64_t>> pads = getKnownInts(1, "pads");
  if (failed(x) || failed(pads))
    return failure();
  int64_t rank = shapeOf(*x).size();
  std::vector<int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  if (hasInput(3)) {
    FailureOr<std::vector<int64_t>> given = getKnownInts(3, "axes");
    if (failed(given))
      return failure();
    axes = *given;
    for (int64_t &axis : axes)
      if (failed(normalizeAxis(axis, rank)))
        return failure();
  }
  if (pads->size() != 2 * axes.size())
    return fail() << "pads holds " << pads->size() << " values for "
                  << axes.size() << " axes";
  double fill = 0;
  if (hasInput(2)) {
    std::optional<KnownTensor> value = getKnown(2);
    if (!value || value->values.size() != 1)
      return fail() << "constant_value (input #2) must be a known scalar";
    fill = value->values[0];
  }
  std::string mode = stringAttribute("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect" &&
      mode != "wrap")
    return fail() << "mode must be constant, edge, reflect or wrap, not '"
                  << mode << "'";
  Value result = *x;
  for (auto [index, axis] : llvm::enumerate(axes)) {
    int64_t before = (*pads)[index], after = (*pads)[index + axes.size()];
    int64_t length = shapeOf(result)[axis];
    if (std::max<int64_t>(-before, 0) + std::max<int64_t>(-after, 0) >= length)
      return fail() << "pads crop all of dimension " << axis;
    // Crop first: negative pads remove elements.
    int64_t start = std::max<int64_t>(-before, 0);
    int64_t kept = length - start - std::max<int64_t>(-after, 0);
    if (kept != length)
      result = sliceAxis(result, axis, start, kept);
    before = std::max<int64_t>(before, 0);
    after = std::max<int64_t>(after, 0);
    if (before == 0 && after == 0)
      continue;
    if (std::max(before, after) > (int64_t(1) << 24))
      return fail() << "pads of more than 2^24 elements are not supported";
    if (mode == "constant") {
      result = padAxis(result, axis, before, after, fill);
      continue;
    }
    int64_t limit = mode == "reflect" ? kept - 1 : kept;
    if (mode != "edge" && (before > limit || after > limit))
      return fail() << mode << " pads of dimension " << axis
                    << " must not exceed " << limit;
    SmallVector<Value> parts;
    SmallVector<int64_t> repeat(rank, 1);
    if (before) {
      repeat[axis] = before;
      parts.push_back(
          mode == "edge" ? tile(sliceAxis(result, axis, 0, 1), repeat)
          : mode == "reflect"
              ? reverseAxis(sliceAxis(result, axis, 1, before), axis)
              : sliceAxis(result, axis, kept - before, before));
    }
    parts.push_back(result);
    if (after) {
      repeat[axis] = after;
      parts.push_back(
          mode == "edge" ? tile(sliceAxis(result, axis, kept - 1, 1), repeat)
          : mode == "reflect"
              ? reverseAxis(sliceAxis(result, axis, kept - 1 - after, after),
                            axis)
              : sliceAxis(result, axis, 0, after));
    }
    result = concatAxis(parts, axis);
  }
  setOutput(0, result);
  return success();
}

/// Trilu of a run-time tensor: a select against the triangle, known at
/// import.
LogicalResult Importer::importTrilu() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() < 2)
    return fail() << "the input needs two dimensions, not " << x->getType();
  int64_t k = 0;
  if (hasInput(1)) {
    FailureOr<std::vector<int64_t>> known = getKnownInts(1, "k");
    if (failed(known))
      return failure();
    if (known->size() != 1)
      return fail() << "k (input #1) must be one value";
    k = known->front();
  }
  bool upper = intAttribute("upper", 1);
  int64_t rows = shape[shape.size() - 2], columns = shape.back();
  std::vector<double> keep(rows * columns);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      keep[r * columns + c] = upper ? c - r >= k : c - r <= k;
  SmallVector<int64_t> maskShape(shape.size() - 2, 1);
  maskShape.append({rows, columns});
  Value mask = constant(maskShape, builder.getI1Type(), keep);
  Value zero = scalar(elementOf(*x), 0, shape.size());
  setOutput(0, build<tosa::SelectOp>(x->getType(), mask, *x, zero));
  return success();
}

LogicalResult Importer::importConstant() {
  const onnx::AttributeProto *value = attribute("value");
  KnownTensor tensor;
  if (value && value->has_t()) {
    FailureOr<ElementsAttr> elements =
        readTensor(value->t(), modelPath, location);
    if (failed(elements))
      return failure();
    known[node->output(0)] = *elements;
    return success();
  }
  if (const onnx::AttributeProto *f = attribute("value_float")) {
    tensor.values = {f->f()};
  } else if (const onnx::AttributeProto *i = attribute("value_int")) {
    tensor.values = {double(i->i())};
    tensor.dataType = onnx::TensorProto::INT64;
  } else if (const onnx::AttributeProto *fs = attribute("value_floats")) {
    tensor.values.assign(fs->floats().begin(), fs->floats().end());
    tensor.shape = {int64_t(tensor.values.size())};
  } else if (const onnx::AttributeProto *is = attribute("value_ints")) {
    for (int64_t v : is->ints())
      tensor.values.push_back(double(v));
    tensor.shape = {int64_t(tensor.values.size())};
    tensor.dataType = onnx::TensorProto::INT64;
  } else {
    return fail() << "only tensor, float(s) and int(s) values are supported";
  }
  known[node->output(0)] = toElements(tensor, context);
  return success();
}

LogicalResult Importer::importDropout() {
  // Inference: the identity, as exporters leave it in eval mode.
  if (hasInput(2)) {
    std::optional<KnownTensor> training = getKnown(2);
    if (!training || training->values.size() != 1 || training->values[0])
      return fail() << "training_mode (input #2) must be a known false";
  }
  if (node->output_size() > 1 && !node->output(1).empty())
    return fail() << "the mask output (a training output) is not supported";
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  setOutput(0, *x);
  return success();
}

LogicalResult Importer::importIdentity() {
  // Exporters alias shared weights through Identity: keep them known.
  if (ElementsAttr elements = getKnownElements(0)) {
    known[node->output(0)] = elements;
    return success();
  }
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  setOutput(0, *x);
  return success();
}

} // namespace prec::onnx_import
