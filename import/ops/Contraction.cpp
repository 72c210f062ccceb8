//===- ops/Contraction.cpp - MatMul, Gemm, Einsum, Conv ----------------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importMatMul() {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  Value lhs = *a, rhs = *b;
  ArrayRef<int64_t> aShape = shapeOf(lhs), bShape = shapeOf(rhs);
  if (aShape.empty() || bShape.empty())
    return fail() << "operands must not be scalars";
  // 1-D operands gain a unit dimension, removed again from the result.
  bool vectorA = aShape.size() == 1, vectorB = bShape.size() == 1;
  if (vectorA)
    lhs = reshape(lhs, {1, aShape[0]});
  if (vectorB)
    rhs = reshape(rhs, {bShape[0], 1});
  aShape = shapeOf(lhs);
  bShape = shapeOf(rhs);
  int64_t m = aShape[aShape.size() - 2], k = aShape.back();
  int64_t n = bShape.back();
  if (bShape[bShape.size() - 2] != k)
    return fail() << "inner dimensions " << k << " and "
                  << bShape[bShape.size() - 2] << " differ";
  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(aShape.drop_back(2), bShape.drop_back(2));
  if (failed(batch))
    return fail() << "batch dimensions do not broadcast";
  int64_t batchSize = product(*batch);
  auto toBatch = [&](Value value, int64_t rows, int64_t columns) {
    ArrayRef<int64_t> own = shapeOf(value).drop_back(2);
    if (product(own) != batchSize) {
      // Broadcast the batch by tiling.
      SmallVector<int64_t> full(batch->begin(), batch->end());
      full.append({rows, columns});
      Value ranked = toRank(value, full.size());
      SmallVector<int64_t> multiples;
      for (auto [f, d] : llvm::zip(full, shapeOf(ranked)))
        multiples.push_back(f / d);
      value = build<tosa::TileOp>(tensorOf(full, elementOf(value)), ranked,
                                  constShape(multiples));
    }
    return reshape(value, {batchSize, rows, columns});
  };
  SmallVector<int64_t> resultShape(batch->begin(), batch->end());
  if (!vectorA)
    resultShape.push_back(m);
  if (!vectorB)
    resultShape.push_back(n);
  Type element = elementOf(lhs);
  Value zeroA = zeroPoint(element), zeroB = zeroPoint(elementOf(rhs));
  // A batch of A times one matrix B (a Linear on [batch, tokens, features])
  // is one product of all of A's rows with B: the same dot products,
  // without B copied once per batch element.
  if (batchSize > 1 && product(bShape.drop_back(2)) == 1) {
    Value rows = build<tosa::MatMulOp>(tensorOf({1, batchSize * m, n}, element),
                                       reshape(lhs, {1, batchSize * m, k}),
                                       reshape(rhs, {1, k, n}), zeroA, zeroB);
    setOutput(0, reshape(rows, resultShape));
    return success();
  }
  Value product3 = build<tosa::MatMulOp>(tensorOf({batchSize, m, n}, element),
                                         toBatch(lhs, m, k), toBatch(rhs, k, n),
                                         zeroA, zeroB);
  setOutput(0, reshape(product3, resultShape));
  return success();
}

/// `value`, whose dimensions carry `labels`, with the dimensions whose
/// labels are not in `kept` summed away; `labels` is updated.
Value Importer::sumLabelsOut(Value value, std::string &labels,
                             llvm::StringRef kept) {
  SmallVector<int64_t> axes, shape;
  std::string remaining;
  for (auto [axis, label] : llvm::enumerate(labels)) {
    if (kept.contains(label)) {
      remaining += label;
      shape.push_back(shapeOf(value)[axis]);
    } else {
      axes.push_back(axis);
    }
  }
  labels = remaining;
  if (axes.empty())
    return value;
  return reshape(reduce<tosa::ReduceSumOp>(value, axes), shape);
}

/// `value` with its dimensions, labelled `labels`, put in the order of
/// `order`.
Value Importer::permuteLabels(Value value, llvm::StringRef labels,
                              llvm::StringRef order) {
  SmallVector<int32_t> permutation;
  for (char label : order)
    permutation.push_back(labels.find(label));
  if (llvm::equal(permutation, llvm::seq<int32_t>(0, permutation.size())))
    return value;
  return transpose(value, permutation);
}

/// Einsum of one or two operands without ellipses or repeated labels
/// within an operand: what transformers write (attention's "bhid,bhjd->
/// bhij", projections, outer products). Two operands become one batched
/// matmul between transposes and reshapes: batch labels (in both and in
/// the output), free labels of each, and contracted labels.
LogicalResult Importer::importEinsum() {
  std::string equation = stringAttribute("equation", "");
  llvm::erase(equation, ' ');
  auto [inputsText, outputText] = llvm::StringRef(equation).split("->");
  SmallVector<llvm::StringRef> terms;
  inputsText.split(terms, ',');
  if (terms.size() != size_t(node->input_size()) || terms.size() > 2 ||
      llvm::StringRef(equation).contains("..."))
    return fail() << "equation '" << equation
                  << "' is not supported: one or two operands, no ellipsis";
  SmallVector<Value> operands;
  std::vector<std::string> labels;
  for (auto [index, term] : llvm::enumerate(terms)) {
    FailureOr<Value> value = input(index);
    if (failed(value))
      return failure();
    if (term.size() != shapeOf(*value).size() ||
        llvm::any_of(term,
                     [term = term](char c) { return term.count(c) != 1; }))
      return fail() << "term '" << term << "' does not label the "
                    << shapeOf(*value).size()
                    << " dimensions of its operand once each";
    operands.push_back(*value);
    labels.push_back(term.str());
  }
  std::string output = outputText.str();
  if (!llvm::StringRef(equation).contains("->")) {
    // Implicit output: the labels used once, alphabetically.
    std::string all = llvm::join(labels, "");
    for (char c : all)
      if (llvm::count(all, c) == 1)
        output += c;
    llvm::sort(output);
  }
  std::map<char, int64_t> sizes;
  for (auto [value, term] : llvm::zip(operands, labels))
    for (auto [axis, label] : llvm::enumerate(term)) {
      auto [it, inserted] = sizes.try_emplace(label, shapeOf(value)[axis]);
      if (!inserted && it->second != shapeOf(value)[axis])
        return fail() << "label '" << label << "' has sizes " << it->second
                      << " and " << shapeOf(value)[axis];
    }
  if (llvm::any_of(output, [&](char c) { return !sizes.count(c); }))
    return fail() << "output '" << output << "' names a label no operand has";
  if (operands.size() == 1) {
    Value summed = sumLabelsOut(operands[0], labels[0], output);
    setOutput(0, permuteLabels(summed, labels[0], output));
    return success();
  }
  // A label in one operand only and not in the output is summed first.
  for (int side : {0, 1})
    operands[side] =
        sumLabelsOut(operands[side], labels[side], output + labels[1 - side]);
  std::string batch, contracted, left, right;
  for (char c : labels[0])
    (labels[1].find(c) != std::string::npos
         ? (output.find(c) != std::string::npos ? batch : contracted)
         : left) += c;
  for (char c : labels[1])
    if (labels[0].find(c) == std::string::npos)
      right += c;
  auto sizeOf = [&](llvm::StringRef group) {
    int64_t size = 1;
    for (char c : group)
      size *= sizes[c];
    return size;
  };
  int64_t b = sizeOf(batch), m = sizeOf(left), k = sizeOf(contracted),
          n = sizeOf(right);
  Value lhs =
      reshape(permuteLabels(operands[0], labels[0], batch + left + contracted),
              {b, m, k});
  Value rhs =
      reshape(permuteLabels(operands[1], labels[1], batch + contracted + right),
              {b, k, n});
  Type element = elementOf(lhs);
  Value product3 =
      build<tosa::MatMulOp>(tensorOf({b, m, n}, element), lhs, rhs,
                            zeroPoint(element), zeroPoint(element));
  std::string resultLabels = batch + left + right;
  SmallVector<int64_t> resultShape;
  for (char c : resultLabels)
    resultShape.push_back(sizes[c]);
  setOutput(
      0, permuteLabels(reshape(product3, resultShape), resultLabels, output));
  return success();
}

LogicalResult Importer::importGemm() {
  FailureOr<Value> a = input(0), b = input(1);
  if (failed(a) || failed(b))
    return failure();
  if (shapeOf(*a).size() != 2 || shapeOf(*b).size() != 2)
    return fail() << "A and B must be matrices";
  Value lhs = *a, rhs = *b;
  if (intAttribute("transA", 0))
    lhs = transpose(lhs, {1, 0});
  if (intAttribute("transB", 0))
    rhs = transpose(rhs, {1, 0});
  int64_t m = shapeOf(lhs)[0], k = shapeOf(lhs)[1], n = shapeOf(rhs)[1];
  if (shapeOf(rhs)[0] != k)
    return fail() << "inner dimensions " << k << " and " << shapeOf(rhs)[0]
                  << " differ";
  Type element = elementOf(lhs);
  Value result = build<tosa::MatMulOp>(
      tensorOf({1, m, n}, element), reshape(lhs, {1, m, k}),
      reshape(rhs, {1, k, n}), zeroPoint(element), zeroPoint(element));
  result = reshape(result, {m, n});
  float alpha = floatAttribute("alpha", 1), beta = floatAttribute("beta", 1);
  if (alpha != 1)
    result = mul(result, scalar(element, alpha, 2));
  if (hasInput(2) && beta != 0) {
    FailureOr<Value> c = input(2);
    if (failed(c))
      return failure();
    Value bias = toRank(*c, 2);
    if (beta != 1)
      bias = mul(bias, scalar(element, beta, 2));
    if (failed(broadcastShapes(shapeOf(bias), {m, n})))
      return fail() << "C of type " << c->getType() << " does not broadcast to "
                    << m << "x" << n;
    result = binary<tosa::AddOp>(result, bias, element);
  }
  setOutput(0, result);
  return success();
}

/// Conv and ConvTranspose on NCL or NCHW inputs. A 1-D convolution (the
/// feature encoders of Whisper and wav2vec2) is the 2-D one of height 1.
LogicalResult Importer::importConv(bool transposed) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> xShape = shapeOf(*x);
  int64_t rank = xShape.size();
  if (rank != 3 && rank != 4)
    return fail() << "only 1-D and 2-D convolutions (NCL and NCHW inputs) "
                     "are supported";
  ElementsAttr weights = getKnownElements(1);
  if (!weights || cast<RankedTensorType>(weights.getType()).getRank() != rank)
    return fail() << "weights must be a " << rank << "-D initializer";
  FailureOr<ConvWindow> window = readConvWindow(rank - 2, transposed);
  if (failed(window))
    return failure();
  weights = asConstantData(weights);
  Value planar = *x;
  if (rank == 3) {
    ArrayRef<int64_t> w = shapeOf(weights);
    planar = reshape(*x, {xShape[0], xShape[1], 1, xShape[2]});
    weights = reshapeElements(weights, {w[0], w[1], 1, w[2]});
  }
  FailureOr<Value> nhwc = convolve2d(planar, weights, *window, transposed);
  if (failed(nhwc))
    return failure();
  Value result = transpose(*nhwc, {0, 3, 1, 2});
  if (rank == 3) {
    ArrayRef<int64_t> shape = shapeOf(result);
    result = reshape(result, {shape[0], shape[1], shape[3]});
  }
  setOutput(0, result);
  return success();
}

/// The window attributes of a Conv or ConvTranspose with `spatialRank`
/// (1 or 2) spatial dimensions, as those of a 2-D one.
FailureOr<Importer::ConvWindow> Importer::readConvWindow(int64_t spatialRank,
                                                         bool transposed) {
  if (stringAttribute("auto_pad", "NOTSET") != "NOTSET") {
    fail() << "auto_pad is not supported; export with explicit pads";
    return failure();
  }
  ConvWindow window;
  window.group = intAttribute("group", 1);
  std::vector<int64_t> ones(spatialRank, 1), zeros(spatialRank, 0);
  window.strides = intsAttribute("strides", ones);
  window.dilations = intsAttribute("dilations", ones);
  window.pads = intsAttribute("pads", std::vector<int64_t>(2 * spatialRank));
  window.outputPadding = intsAttribute("output_padding", zeros);
  if (int64_t(window.strides.size()) != spatialRank ||
      int64_t(window.dilations.size()) != spatialRank ||
      int64_t(window.pads.size()) != 2 * spatialRank) {
    fail() << "strides, dilations and pads must describe " << spatialRank
           << "-D";
    return failure();
  }
  if (transposed &&
      (int64_t(window.outputPadding.size()) != spatialRank ||
       llvm::any_of(llvm::zip(window.outputPadding, window.strides),
                    [](auto pair) {
                      auto [padding, stride] = pair;
                      return padding < 0 || padding >= stride;
                    }))) {
    fail() << "output_padding must give " << spatialRank
           << " values, each below its stride";
    return failure();
  }
  if (spatialRank == 1) {
    // Height 1: unit stride and dilation, no padding.
    window.strides.insert(window.strides.begin(), 1);
    window.dilations.insert(window.dilations.begin(), 1);
    window.pads = {0, window.pads[0], 0, window.pads[1]};
    window.outputPadding.insert(window.outputPadding.begin(), 0);
  }
  return window;
}

/// A 2-D convolution of an NCHW value: its NHWC result.
FailureOr<Value> Importer::convolve2d(Value x, ElementsAttr weights,
                                      ConvWindow window, bool transposed) {
  ArrayRef<int64_t> xShape = shapeOf(x);
  Type element = elementOf(x);
  int64_t group = window.group;
  if (weights.getElementType() != element) {
    fail() << "weights of type " << weights.getType()
           << " do not match the input's " << x.getType();
    return failure();
  }
  ArrayRef<int64_t> w = shapeOf(weights);
  if (failed(checkWindow(xShape.drop_front(2), w.drop_front(2), window.strides,
                         window.dilations, window.pads, transposed)))
    return failure();
  if (group < 1 || group > xShape[1]) {
    fail() << "group " << group << " must lie between 1 and the " << xShape[1]
           << " input channels";
    return failure();
  }
  int64_t inChannels = xShape[1];
  int64_t outChannels = transposed ? w[1] * group : w[0];
  int64_t expectedInChannels = transposed ? w[0] : w[1] * group;
  if (expectedInChannels != inChannels) {
    fail() << "weights expect " << expectedInChannels
           << " input channels, the input has " << inChannels;
    return failure();
  }
  if (outChannels % group != 0) {
    fail() << outChannels << " output channels do not split into " << group
           << " groups";
    return failure();
  }
  FailureOr<ElementsAttr> bias = convBias(outChannels, element);
  if (failed(bias))
    return failure();
  Value nhwc = transpose(x, {0, 2, 3, 1});
  if (transposed)
    return transposedConvolve(nhwc, weights, *bias, window);
  return forwardConvolve(nhwc, weights, *bias, window);
}

/// Input 2, a convolution's bias, or zeros: one per output channel.
FailureOr<ElementsAttr> Importer::convBias(int64_t outChannels, Type element) {
  if (!hasInput(2))
    return elementsFromDoubles(tensorOf({outChannels}, element),
                               std::vector<double>(outChannels));
  ElementsAttr bias = getKnownElements(2);
  if (!bias || bias.getNumElements() != outChannels) {
    fail() << "bias must be an initializer of " << outChannels << " values";
    return failure();
  }
  bias = reshapeElements(asConstantData(bias), {outChannels});
  if (bias.getElementType() != element) {
    fail() << "bias of type " << bias.getType()
           << " does not match the input's element type " << element;
    return failure();
  }
  return bias;
}

/// ConvTranspose of an NHWC value with ONNX weights [I, O, KH, KW].
FailureOr<Value> Importer::transposedConvolve(Value nhwc, ElementsAttr weights,
                                              ElementsAttr bias,
                                              const ConvWindow &window) {
  if (window.group != 1) {
    fail() << "grouped ConvTranspose is not supported";
    return failure();
  }
  if (window.dilations != std::vector<int64_t>{1, 1}) {
    fail() << "dilated ConvTranspose is not supported";
    return failure();
  }
  ArrayRef<int64_t> in = shapeOf(nhwc), w = shapeOf(weights);
  ArrayRef<int64_t> strides = window.strides, pads = window.pads,
                    outputPadding = window.outputPadding;
  int64_t oh =
      (in[1] - 1) * strides[0] + w[2] - pads[0] - pads[2] + outputPadding[0];
  int64_t ow =
      (in[2] - 1) * strides[1] + w[3] - pads[1] - pads[3] + outputPadding[1];
  if (oh < 1 || ow < 1) {
    fail() << "pads leave an empty output";
    return failure();
  }
  Type element = elementOf(nhwc);
  SmallVector<int64_t> outPad = {-pads[0], -pads[2] + outputPadding[0],
                                 -pads[1], -pads[3] + outputPadding[1]};
  // TOSA weights [O, KH, KW, I].
  return build<tosa::TransposeConv2DOp>(
      tensorOf({in[0], oh, ow, w[1]}, element), nhwc,
      constant(transposeElements(weights, {1, 2, 3, 0})), constant(bias),
      zeroPoint(element), zeroPoint(element), outPad, strides, element);
}

/// Conv of an NHWC value with ONNX weights [O, I / group, KH, KW]: one
/// convolution, a depthwise one, or one per group.
FailureOr<Value> Importer::forwardConvolve(Value nhwc, ElementsAttr weights,
                                           ElementsAttr bias,
                                           ConvWindow window) {
  ArrayRef<int64_t> w = shapeOf(weights);
  int64_t kh = w[2], kw = w[3];
  ArrayRef<int64_t> strides = window.strides, dilations = window.dilations;
  std::vector<int64_t> &pads = window.pads;
  ArrayRef<int64_t> in = shapeOf(nhwc);
  int64_t oh =
      (in[1] + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) / strides[0] +
      1;
  int64_t ow =
      (in[2] + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) / strides[1] +
      1;
  nhwc = trimForWindow(nhwc, pads, dilations[0] * (kh - 1) + 1,
                       dilations[1] * (kw - 1) + 1, strides);
  Type element = elementOf(nhwc);
  int64_t batch = in[0], inChannels = in[3], outChannels = w[0];
  // TOSA weights [O, KH, KW, I]; a group takes consecutive output channels.
  ElementsAttr ohwi = transposeElements(weights, {0, 2, 3, 1});
  SmallVector<int64_t> tosaPads = {pads[0], pads[2], pads[1], pads[3]};
  auto convolve = [&](Value part, int64_t firstOut, int64_t outs) {
    return build<tosa::Conv2DOp>(tensorOf({batch, oh, ow, outs}, element), part,
                                 constant(leadingSlice(ohwi, firstOut, outs)),
                                 constant(leadingSlice(bias, firstOut, outs)),
                                 zeroPoint(element), zeroPoint(element),
                                 tosaPads, strides, dilations, element);
  };
  if (window.group == 1)
    return convolve(nhwc, 0, outChannels);
  if (window.group == inChannels && w[1] == 1) {
    // Depthwise: ONNX weights [C * M, 1, KH, KW] -> TOSA [KH, KW, C, M].
    int64_t multiplier = outChannels / inChannels;
    ElementsAttr hwcm = transposeElements(
        reshapeElements(weights, {inChannels, multiplier, kh, kw}),
        {2, 3, 0, 1});
    return build<tosa::DepthwiseConv2DOp>(
        tensorOf({batch, oh, ow, outChannels}, element), nhwc, constant(hwcm),
        constant(bias), zeroPoint(element), zeroPoint(element), tosaPads,
        strides, dilations, element);
  }
  // Grouped: one convolution per group on its slice of channels.
  int64_t outPerGroup = outChannels / window.group;
  SmallVector<Value> parts;
  for (int64_t g = 0; g < window.group; ++g)
    parts.push_back(convolve(sliceAxis(nhwc, 3, g * w[1], w[1]),
                             g * outPerGroup, outPerGroup));
  return concatAxis(parts, 3);
}

/// ONNX floors the output size of a strided window; TOSA wants the window
/// to end exactly on the last output. Trims the trailing pad (or, when the
/// pad is too small, the input's last rows) by the remainder: those rows
/// reach no output. Returns the trailing pad to use and how many input rows
/// to drop.
static std::pair<int64_t, int64_t>
trimTrailingPad(int64_t extent, int64_t leading, int64_t trailing,
                int64_t window, int64_t stride) {
  int64_t remainder = (extent + leading + trailing - window) % stride;
  if (remainder <= trailing)
    return {trailing - remainder, 0};
  return {0, remainder - trailing};
}

/// Applies trimTrailingPad to the H and W of an NHWC value and its
/// [top, left, bottom, right] pads; returns the trimmed value.
Value Importer::trimForWindow(Value nhwc, std::vector<int64_t> &pads,
                              int64_t windowH, int64_t windowW,
                              ArrayRef<int64_t> strides) {
  SmallVector<int64_t> shape(shapeOf(nhwc));
  auto [bottom, dropH] =
      trimTrailingPad(shape[1], pads[0], pads[2], windowH, strides[0]);
  auto [right, dropW] =
      trimTrailingPad(shape[2], pads[1], pads[3], windowW, strides[1]);
  pads[2] = bottom;
  pads[3] = right;
  if (dropH == 0 && dropW == 0)
    return nhwc;
  SmallVector<int64_t> kept = {shape[0], shape[1] - dropH, shape[2] - dropW,
                               shape[3]};
  return build<tosa::SliceOp>(tensorOf(kept, elementOf(nhwc)), nhwc,
                              constShape({0, 0, 0, 0}), constShape(kept));
}

/// The window of a 2-D Conv, ConvTranspose or Pool: ONNX leaves strides or
/// dilations below 1, negative pads and a window wider than the padded input
/// undefined, and TOSA's output sizes divide by the stride. The upper bound
/// keeps output sizes of inputs up to 2^34 elements from overflowing.
LogicalResult Importer::checkWindow(ArrayRef<int64_t> extent,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilations,
                                    ArrayRef<int64_t> pads, bool transposed) {
  constexpr int64_t largest = int64_t(1) << 24;
  auto outside = [&](ArrayRef<int64_t> values, int64_t least) {
    return llvm::any_of(values,
                        [&](int64_t v) { return v < least || v > largest; });
  };
  for (auto [name, values, least] : {std::make_tuple("kernel", kernel, 1),
                                     {"strides", strides, 1},
                                     {"dilations", dilations, 1},
                                     {"pads", pads, 0}})
    if (outside(values, least))
      return fail() << name << " must lie between " << least << " and "
                    << largest;
  if (transposed)
    return success();
  for (int axis : {0, 1}) {
    int64_t window = dilations[axis] * (kernel[axis] - 1) + 1;
    int64_t padded = extent[axis] + pads[axis] + pads[axis + 2];
    if (window > padded)
      return fail() << "the window (" << window
                    << ") is wider than the padded input (" << padded << ")";
  }
  return success();
}

} // namespace prec::onnx_import
