//===- Folding.cpp - ONNX nodes evaluated at import time ------------------===//

#include "import/Folding.h"

#include "mlir/Dialect/Traits.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

using namespace mlir;
using llvm::APFloat;

namespace prec {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    if (llvm::MulOverflow(count, dim, count))
      return std::numeric_limits<int64_t>::max();
  return count;
}

llvm::APSInt toInteger(double value, unsigned width, bool isUnsigned) {
  llvm::APSInt result(width, isUnsigned);
  bool isExact = false;
  (void)APFloat(value).convertToInteger(result, APFloat::rmTowardZero,
                                        &isExact);
  return result;
}

int64_t toInt64(double value) {
  return toInteger(value, 64, /*isUnsigned=*/false).getExtValue();
}

FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> b) {
  SmallVector<int64_t> result;
  if (!OpTrait::util::getBroadcastedShape(a, b, result))
    return failure();
  return result;
}

SliceAxis resolveSliceAxis(int64_t start, int64_t end, int64_t step,
                           int64_t dim) {
  auto clampIndex = [&](int64_t index, int64_t lo, int64_t hi) {
    if (index < 0)
      index =
          index < std::numeric_limits<int64_t>::min() + dim ? lo : index + dim;
    return std::clamp(index, lo, hi);
  };
  int64_t begin =
      step > 0 ? clampIndex(start, 0, dim) : clampIndex(start, 0, dim - 1);
  int64_t last =
      step > 0 ? clampIndex(end, 0, dim) : clampIndex(end, -1, dim - 1);
  int64_t distance = step > 0 ? last - begin : begin - last;
  if (distance <= 0)
    return {begin, 0, 1};
  // |step| is safe to take only below the distance (at most the axis).
  if (step >= distance || step <= -distance)
    return {begin, 1, 1};
  int64_t stride = std::abs(step);
  return {begin, (distance - 1) / stride + 1, stride};
}

namespace {

using TensorProto = onnx::TensorProto;

bool isFloatType(int dataType) {
  return dataType == TensorProto::FLOAT || dataType == TensorProto::FLOAT16 ||
         dataType == TensorProto::BFLOAT16 || dataType == TensorProto::DOUBLE;
}

/// The bits and signedness of an integer data type; nullopt otherwise.
std::optional<std::pair<unsigned, bool>> getIntegerType(int dataType) {
  switch (dataType) {
  case TensorProto::INT8:
    return std::make_pair(8u, false);
  case TensorProto::UINT8:
    return std::make_pair(8u, true);
  case TensorProto::INT16:
    return std::make_pair(16u, false);
  case TensorProto::UINT16:
    return std::make_pair(16u, true);
  case TensorProto::INT32:
    return std::make_pair(32u, false);
  case TensorProto::UINT32:
    return std::make_pair(32u, true);
  case TensorProto::INT64:
    return std::make_pair(64u, false);
  case TensorProto::UINT64:
    return std::make_pair(64u, true);
  default:
    return std::nullopt;
  }
}

/// `value` as an element of `dataType` holds it: floats rounded to nearest
/// even, integers rounded toward zero and saturated (NaN gives 0), booleans
/// 0 or 1. Through APFloat: a C++ cast of an out-of-range double is
/// undefined.
double roundToType(double value, int dataType) {
  const llvm::fltSemantics *semantics = nullptr;
  switch (dataType) {
  case TensorProto::FLOAT:
    semantics = &APFloat::IEEEsingle();
    break;
  case TensorProto::FLOAT16:
    semantics = &APFloat::IEEEhalf();
    break;
  case TensorProto::BFLOAT16:
    semantics = &APFloat::BFloat();
    break;
  case TensorProto::BOOL:
    return value != 0 ? 1 : 0;
  default:
    break;
  }
  if (semantics) {
    bool losesInfo = false;
    APFloat rounded(value);
    rounded.convert(*semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    return rounded.convertToDouble();
  }
  auto integer = getIntegerType(dataType);
  if (!integer)
    return value;
  llvm::APSInt result = toInteger(value, integer->first, integer->second);
  return integer->second ? double(result.getZExtValue())
                         : double(result.getSExtValue());
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<llvm::StringError>(message,
                                             llvm::inconvertibleErrorCode());
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `visit(flat, offsets)` for every element of `shape`, with the flat
/// offset in each of `inputs` broadcast to it.
void forEachBroadcast(
    ArrayRef<int64_t> shape, ArrayRef<ArrayRef<int64_t>> inputs,
    llvm::function_ref<void(int64_t, ArrayRef<int64_t>)> visit) {
  size_t rank = shape.size();
  SmallVector<SmallVector<int64_t>> strides;
  for (ArrayRef<int64_t> input : inputs) {
    SmallVector<int64_t> padded(rank - input.size(), 1);
    padded.append(input.begin(), input.end());
    SmallVector<int64_t> inputStrides = getStrides(padded);
    for (size_t d = 0; d < rank; ++d)
      if (padded[d] == 1)
        inputStrides[d] = 0;
    strides.push_back(std::move(inputStrides));
  }
  SmallVector<int64_t> index(rank, 0), offsets(inputs.size(), 0);
  int64_t count = product(shape);
  for (int64_t flat = 0; flat < count; ++flat) {
    visit(flat, offsets);
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      for (size_t i = 0; i < inputs.size(); ++i)
        offsets[i] += strides[i][d];
      if (++index[d] < shape[d])
        break;
      for (size_t i = 0; i < inputs.size(); ++i)
        offsets[i] -= strides[i][d] * shape[d];
      index[d] = 0;
    }
  }
}

/// A tensor of `shape` holding `data`'s elements rearranged: the element
/// at each index comes from the offset that `offsetOf(d, c)` sums over the
/// index's coordinates c along each dimension d.
KnownTensor rearrange(const KnownTensor &data, ArrayRef<int64_t> shape,
                      llvm::function_ref<int64_t(int64_t, int64_t)> offsetOf) {
  KnownTensor result{
      std::vector<int64_t>(shape.begin(), shape.end()), {}, data.dataType};
  forEachBroadcast(shape, {}, [&](int64_t flat, ArrayRef<int64_t>) {
    int64_t offset = 0, rest = flat;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      offset += offsetOf(d, rest % shape[d]);
      rest /= shape[d];
    }
    result.values.push_back(data.values[offset]);
  });
  return result;
}

using FoldResult = llvm::Expected<std::optional<KnownTensor>>;

class Folder {
public:
  Folder(const onnx::NodeProto &node, int64_t opset,
         const FoldEnvironment &environment)
      : node(node), opset(opset), environment(environment) {}

  FoldResult fold();

private:
  // Inputs: null when absent or known only at run time.
  bool has(int index) const {
    return index < node.input_size() && !node.input(index).empty();
  }
  const KnownTensor *in(int index) const {
    return has(index) ? environment.known(node.input(index)) : nullptr;
  }
  /// Every input present is known.
  bool allKnown() const {
    for (int i = 0; i < node.input_size(); ++i)
      if (has(i) && !in(i))
        return false;
    return true;
  }
  llvm::Expected<std::vector<int64_t>> ints(const KnownTensor &tensor,
                                            llvm::StringRef what) const;

  // Attributes.
  const onnx::AttributeProto *attribute(llvm::StringRef name) const {
    for (const onnx::AttributeProto &attr : node.attribute())
      if (attr.name() == name)
        return &attr;
    return nullptr;
  }
  int64_t intAttribute(llvm::StringRef name, int64_t fallback) const {
    const onnx::AttributeProto *attr = attribute(name);
    return attr ? attr->i() : fallback;
  }
  llvm::Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank) const {
    int64_t normalized = axis < 0 ? axis + rank : axis;
    if (normalized < 0 || normalized >= rank)
      return makeError("axis " + llvm::Twine(axis) +
                       " is out of range for rank " + llvm::Twine(rank));
    return normalized;
  }
  /// Axes from input `index` (opset >= `sinceOpset`) or the `axes`
  /// attribute before; nullopt when the input is there but not known.
  std::optional<std::vector<int64_t>> axesOperand(int index,
                                                  int64_t sinceOpset) const;

  FoldResult elementwise(int dataType,
                         llvm::function_ref<double(ArrayRef<double>)> fn);
  FoldResult arithmetic(llvm::StringRef type);
  FoldResult shapeOp(bool size);
  FoldResult constantOfShape();
  FoldResult range();
  FoldResult gather();
  FoldResult slice();
  FoldResult concat();
  FoldResult squeeze(bool unsqueeze);
  FoldResult reshape();
  FoldResult expand();
  FoldResult tile();
  FoldResult transpose();
  FoldResult cast();
  FoldResult cumSum();
  FoldResult trilu();
  FoldResult matMul();

  using Fold = FoldResult (Folder::*)();
  static const llvm::StringMap<Fold> &getStructuralFolds();

public:
  static bool hasStructuralFold(llvm::StringRef type) {
    return getStructuralFolds().count(type);
  }

private:
  const onnx::NodeProto &node;
  int64_t opset;
  const FoldEnvironment &environment;
};

llvm::Expected<std::vector<int64_t>> Folder::ints(const KnownTensor &tensor,
                                                  llvm::StringRef what) const {
  std::vector<int64_t> result;
  for (double value : tensor.values) {
    if (value != std::trunc(value))
      return makeError(what + " holds " + std::to_string(value) +
                       ", not an integer");
    result.push_back(toInt64(value));
  }
  return result;
}

std::optional<std::vector<int64_t>> Folder::axesOperand(int index,
                                                        int64_t since) const {
  if (opset < since) {
    const onnx::AttributeProto *attr = attribute("axes");
    return attr ? std::vector<int64_t>(attr->ints().begin(), attr->ints().end())
                : std::vector<int64_t>();
  }
  if (!has(index))
    return std::vector<int64_t>();
  const KnownTensor *axes = in(index);
  if (!axes)
    return std::nullopt;
  std::vector<int64_t> result;
  for (double value : axes->values)
    result.push_back(toInt64(value));
  return result;
}

FoldResult
Folder::elementwise(int dataType,
                    llvm::function_ref<double(ArrayRef<double>)> fn) {
  SmallVector<const KnownTensor *> inputs;
  SmallVector<int64_t> shape;
  for (int i = 0; i < node.input_size(); ++i) {
    const KnownTensor *input = in(i);
    if (!input)
      return std::nullopt;
    FailureOr<SmallVector<int64_t>> joint =
        broadcastShapes(shape, input->shape);
    if (failed(joint))
      return makeError("input shapes do not broadcast");
    shape = *joint;
    inputs.push_back(input);
  }
  if (inputs.empty())
    return makeError("node has no inputs");
  if (product(shape) > kMaxFoldedElements)
    return std::nullopt;
  KnownTensor result{std::vector<int64_t>(shape.begin(), shape.end()),
                     std::vector<double>(product(shape)), dataType};
  SmallVector<ArrayRef<int64_t>> shapes;
  for (const KnownTensor *input : inputs)
    shapes.push_back(input->shape);
  SmallVector<double> operands(inputs.size());
  forEachBroadcast(shape, shapes, [&](int64_t flat, ArrayRef<int64_t> at) {
    for (size_t i = 0; i < inputs.size(); ++i)
      operands[i] = inputs[i]->values[at[i]];
    result.values[flat] = roundToType(fn(operands), dataType);
  });
  return result;
}

FoldResult Folder::arithmetic(llvm::StringRef type) {
  const KnownTensor *first = in(0);
  if (!first)
    return std::nullopt;
  int dataType = first->dataType;
  bool isInteger = !isFloatType(dataType);
  using Fn = std::function<double(ArrayRef<double>)>;
  auto unary = [](double (*f)(double)) -> Fn {
    return [f](ArrayRef<double> v) { return f(v[0]); };
  };
  bool fmod = intAttribute("fmod", 0) != 0;
  Fn fn =
      llvm::StringSwitch<Fn>(type)
          .Case("Add", [](ArrayRef<double> v) { return v[0] + v[1]; })
          .Case("Sub", [](ArrayRef<double> v) { return v[0] - v[1]; })
          .Case("Mul", [](ArrayRef<double> v) { return v[0] * v[1]; })
          .Case("Div",
                [isInteger](ArrayRef<double> v) {
                  if (!isInteger)
                    return v[0] / v[1];
                  return v[1] == 0 ? 0.0 : std::trunc(v[0] / v[1]);
                })
          .Case("Mod",
                [fmod, isInteger](ArrayRef<double> v) {
                  if (v[1] == 0)
                    return isInteger ? 0.0 : std::nan("");
                  double r = std::fmod(v[0], v[1]);
                  // Python's %: the sign of the divisor.
                  if (!fmod && r != 0 && (r < 0) != (v[1] < 0))
                    r += v[1];
                  return r;
                })
          .Case("Pow", [](ArrayRef<double> v) { return std::pow(v[0], v[1]); })
          .Case("Max",
                [](ArrayRef<double> v) {
                  return *std::max_element(v.begin(), v.end());
                })
          .Case("Min",
                [](ArrayRef<double> v) {
                  return *std::min_element(v.begin(), v.end());
                })
          .Case("Neg", [](ArrayRef<double> v) { return -v[0]; })
          .Case("Abs", unary(std::fabs))
          .Case("Sqrt", unary(std::sqrt))
          .Case("Exp", unary(std::exp))
          .Case("Log", unary(std::log))
          .Case("Sin", unary(std::sin))
          .Case("Cos", unary(std::cos))
          .Case("Floor", unary(std::floor))
          .Case("Ceil", unary(std::ceil))
          .Case("Reciprocal", [](ArrayRef<double> v) { return 1 / v[0]; })
          .Case("Sign",
                [](ArrayRef<double> v) {
                  return double((v[0] > 0) - (v[0] < 0));
                })
          .Case("Identity", [](ArrayRef<double> v) { return v[0]; })
          .Default(nullptr);
  if (fn)
    return elementwise(dataType, fn);
  auto compare =
      llvm::StringSwitch<Fn>(type)
          .Case("Equal", [](ArrayRef<double> v) { return v[0] == v[1]; })
          .Case("Less", [](ArrayRef<double> v) { return v[0] < v[1]; })
          .Case("LessOrEqual", [](ArrayRef<double> v) { return v[0] <= v[1]; })
          .Case("Greater", [](ArrayRef<double> v) { return v[0] > v[1]; })
          .Case("GreaterOrEqual",
                [](ArrayRef<double> v) { return v[0] >= v[1]; })
          .Case("Not", [](ArrayRef<double> v) { return !v[0]; })
          .Case("IsNaN", [](ArrayRef<double> v) { return std::isnan(v[0]); })
          .Case("And", [](ArrayRef<double> v) { return v[0] && v[1]; })
          .Case("Or", [](ArrayRef<double> v) { return v[0] || v[1]; })
          .Case("Xor",
                [](ArrayRef<double> v) { return bool(v[0]) != bool(v[1]); })
          .Default(nullptr);
  if (compare)
    return elementwise(TensorProto::BOOL, compare);
  // Where(condition, x, y): the type of x.
  const KnownTensor *x = in(1);
  if (!x)
    return std::nullopt;
  return elementwise(x->dataType,
                     [](ArrayRef<double> v) { return v[0] ? v[1] : v[2]; });
}

FoldResult Folder::shapeOp(bool size) {
  if (!has(0))
    return makeError("input #0 is missing");
  std::optional<SmallVector<int64_t>> shape = environment.shape(node.input(0));
  if (!shape)
    return std::nullopt;
  KnownTensor result;
  result.dataType = TensorProto::INT64;
  if (size) {
    result.values = {double(product(*shape))};
    return result;
  }
  int64_t rank = shape->size();
  int64_t start = intAttribute("start", 0), end = intAttribute("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  for (int64_t d = start; d < end; ++d)
    result.values.push_back(double((*shape)[d]));
  result.shape = {end - start};
  return result;
}

FoldResult Folder::constantOfShape() {
  const KnownTensor *shapeTensor = in(0);
  if (!shapeTensor)
    return std::nullopt;
  auto shape = ints(*shapeTensor, "shape (input #0)");
  if (!shape)
    return shape.takeError();
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return makeError("shape (input #0) has a negative dimension");
  if (product(*shape) > kMaxFoldedElements)
    return std::nullopt;
  KnownTensor result{*shape, {}, TensorProto::FLOAT};
  double fill = 0;
  if (const onnx::AttributeProto *value = attribute("value")) {
    const onnx::TensorProto &tensor = value->t();
    result.dataType = tensor.data_type();
    if (tensor.float_data_size())
      fill = tensor.float_data(0);
    else if (tensor.int64_data_size())
      fill = double(tensor.int64_data(0));
    else if (tensor.int32_data_size())
      fill = tensor.int32_data(0);
    else if (!tensor.raw_data().empty()) {
      const std::string &raw = tensor.raw_data();
      auto read = [&](auto zero) {
        decltype(zero) v = zero;
        if (raw.size() < sizeof(v))
          return false;
        std::memcpy(&v, raw.data(), sizeof(v));
        fill = double(v);
        return true;
      };
      bool ok = false;
      switch (tensor.data_type()) {
      case TensorProto::FLOAT:
        ok = read(float());
        break;
      case TensorProto::DOUBLE:
        ok = read(double());
        break;
      case TensorProto::INT64:
        ok = read(int64_t());
        break;
      case TensorProto::INT32:
        ok = read(int32_t());
        break;
      case TensorProto::INT8:
        ok = read(int8_t());
        break;
      case TensorProto::UINT8:
      case TensorProto::BOOL:
        ok = read(uint8_t());
        break;
      default:
        return makeError("value has a data type ConstantOfShape cannot fill");
      }
      if (!ok)
        return makeError("value holds no element");
    }
  }
  result.values.assign(product(*shape), roundToType(fill, result.dataType));
  return result;
}

FoldResult Folder::range() {
  const KnownTensor *start = in(0), *limit = in(1), *delta = in(2);
  if (!start || !limit || !delta)
    return std::nullopt;
  if (start->values.size() != 1 || limit->values.size() != 1 ||
      delta->values.size() != 1)
    return makeError("start, limit and delta must be scalars");
  double first = start->values[0], step = delta->values[0];
  if (step == 0 || !std::isfinite(step) || !std::isfinite(first) ||
      !std::isfinite(limit->values[0]))
    return makeError("start, limit and delta must be finite, delta not 0");
  double count = std::max(std::ceil((limit->values[0] - first) / step), 0.0);
  if (count > double(kMaxFoldedElements))
    return std::nullopt;
  KnownTensor result{{int64_t(count)}, {}, start->dataType};
  for (int64_t i = 0; i < int64_t(count); ++i)
    result.values.push_back(
        roundToType(first + double(i) * step, start->dataType));
  return result;
}

FoldResult Folder::gather() {
  const KnownTensor *data = in(0), *indices = in(1);
  if (!data || !indices)
    return std::nullopt;
  int64_t rank = data->shape.size();
  if (rank == 0)
    return makeError("data must not be a scalar");
  auto axis = normalizeAxis(intAttribute("axis", 0), rank);
  if (!axis)
    return axis.takeError();
  auto positions = ints(*indices, "indices (input #1)");
  if (!positions)
    return positions.takeError();
  int64_t extent = data->shape[*axis];
  std::vector<int64_t> shape(data->shape.begin(), data->shape.begin() + *axis);
  shape.insert(shape.end(), indices->shape.begin(), indices->shape.end());
  shape.insert(shape.end(), data->shape.begin() + *axis + 1, data->shape.end());
  if (product(shape) > kMaxFoldedElements)
    return std::nullopt;
  int64_t outer = product(ArrayRef<int64_t>(data->shape).take_front(*axis));
  int64_t inner = product(ArrayRef<int64_t>(data->shape).drop_front(*axis + 1));
  KnownTensor result{shape, {}, data->dataType};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t position : *positions) {
      int64_t p = position < 0 ? position + extent : position;
      if (p < 0 || p >= extent)
        return makeError("index " + llvm::Twine(position) +
                         " is out of range for a dimension of " +
                         llvm::Twine(extent));
      const double *row = data->values.data() + (o * extent + p) * inner;
      result.values.insert(result.values.end(), row, row + inner);
    }
  return result;
}

FoldResult Folder::slice() {
  const KnownTensor *data = in(0), *starts = in(1), *ends = in(2);
  if (!data || !starts || !ends || (has(3) && !in(3)) || (has(4) && !in(4)))
    return std::nullopt;
  int64_t rank = data->shape.size();
  auto begin = ints(*starts, "starts"), end = ints(*ends, "ends");
  if (!begin)
    return begin.takeError();
  if (!end)
    return end.takeError();
  std::vector<int64_t> axes(begin->size()), steps(begin->size(), 1);
  std::iota(axes.begin(), axes.end(), 0);
  if (has(3)) {
    auto given = ints(*in(3), "axes");
    if (!given)
      return given.takeError();
    axes = *given;
  }
  if (has(4)) {
    auto given = ints(*in(4), "steps");
    if (!given)
      return given.takeError();
    steps = *given;
  }
  if (end->size() != begin->size() || axes.size() != begin->size() ||
      steps.size() != begin->size())
    return makeError("starts, ends, axes and steps differ in length");
  // Per dimension: first index, step and count.
  std::vector<int64_t> first(rank, 0), step(rank, 1), shape = data->shape;
  for (size_t i = 0; i < axes.size(); ++i) {
    auto axis = normalizeAxis(axes[i], rank);
    if (!axis)
      return axis.takeError();
    int64_t dim = data->shape[*axis], s = steps[i];
    if (s == 0)
      return makeError("a step is 0");
    SliceAxis taken = resolveSliceAxis((*begin)[i], (*end)[i], s, dim);
    first[*axis] = taken.begin;
    step[*axis] = s;
    shape[*axis] = taken.count;
  }
  if (product(shape) > kMaxFoldedElements)
    return std::nullopt;
  SmallVector<int64_t> strides = getStrides(data->shape);
  return rearrange(*data, shape, [&](int64_t d, int64_t c) {
    return (first[d] + c * step[d]) * strides[d];
  });
}

FoldResult Folder::concat() {
  if (node.input_size() == 0)
    return makeError("Concat needs at least one input");
  if (!allKnown())
    return std::nullopt;
  const KnownTensor *first = in(0);
  int64_t rank = first->shape.size();
  if (rank == 0)
    return makeError("inputs must not be scalars");
  auto axis = normalizeAxis(intAttribute("axis", 0), rank);
  if (!axis)
    return axis.takeError();
  std::vector<int64_t> shape = first->shape;
  shape[*axis] = 0;
  for (int i = 0; i < node.input_size(); ++i) {
    const KnownTensor *input = in(i);
    std::vector<int64_t> expected = shape;
    expected[*axis] =
        input->shape.size() == size_t(rank) ? input->shape[*axis] : -1;
    if (input->shape != expected)
      return makeError("inputs differ in shape outside the axis");
    shape[*axis] += input->shape[*axis];
  }
  if (product(shape) > kMaxFoldedElements)
    return std::nullopt;
  KnownTensor result{shape, {}, first->dataType};
  int64_t outer = product(ArrayRef<int64_t>(shape).take_front(*axis));
  for (int64_t o = 0; o < outer; ++o)
    for (int i = 0; i < node.input_size(); ++i) {
      const KnownTensor *input = in(i);
      int64_t chunk =
          product(ArrayRef<int64_t>(input->shape).drop_front(*axis));
      const double *from = input->values.data() + o * chunk;
      result.values.insert(result.values.end(), from, from + chunk);
    }
  return result;
}

FoldResult Folder::squeeze(bool unsqueeze) {
  const KnownTensor *data = in(0);
  std::optional<std::vector<int64_t>> axes = axesOperand(1, 13);
  if (!data || !axes)
    return std::nullopt;
  std::vector<int64_t> shape;
  if (unsqueeze) {
    int64_t rank = data->shape.size() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (int64_t axis : *axes) {
      auto normalized = normalizeAxis(axis, rank);
      if (!normalized)
        return normalized.takeError();
      if (inserted[*normalized])
        return makeError("axis " + llvm::Twine(axis) + " is repeated");
      inserted[*normalized] = true;
    }
    auto next = data->shape.begin();
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(inserted[d] ? 1 : *next++);
  } else {
    int64_t rank = data->shape.size();
    std::vector<bool> removed(rank, axes->empty());
    for (int64_t axis : *axes) {
      auto normalized = normalizeAxis(axis, rank);
      if (!normalized)
        return normalized.takeError();
      if (data->shape[*normalized] != 1)
        return makeError("dimension " + llvm::Twine(axis) + " is not 1");
      removed[*normalized] = true;
    }
    for (int64_t d = 0; d < rank; ++d)
      if (!removed[d] || data->shape[d] != 1)
        shape.push_back(data->shape[d]);
  }
  return KnownTensor{shape, data->values, data->dataType};
}

FoldResult Folder::reshape() {
  const KnownTensor *data = in(0), *shapeTensor = in(1);
  if (!data || !shapeTensor)
    return std::nullopt;
  auto shape = ints(*shapeTensor, "shape (input #1)");
  if (!shape)
    return shape.takeError();
  bool allowZero = intAttribute("allowzero", 0) != 0;
  int64_t inferred = -1, known = 1;
  for (size_t d = 0; d < shape->size(); ++d) {
    int64_t &dim = (*shape)[d];
    if (dim == 0 && !allowZero) {
      if (d >= data->shape.size())
        return makeError("a 0 in the shape has no input dimension to copy");
      dim = data->shape[d];
    }
    if (dim == -1) {
      if (inferred >= 0)
        return makeError("the shape has two -1s");
      inferred = d;
      continue;
    }
    if (dim < 0 || llvm::MulOverflow(known, dim, known))
      return makeError("the shape is not valid");
  }
  int64_t count = data->values.size();
  if (inferred >= 0) {
    if (known == 0 || count % known != 0)
      return makeError("the shape does not divide the input's elements");
    (*shape)[inferred] = count / known;
  } else if (known != count) {
    return makeError("the shape holds " + llvm::Twine(known) +
                     " elements, the input " + llvm::Twine(count));
  }
  return KnownTensor{*shape, data->values, data->dataType};
}

FoldResult Folder::expand() {
  const KnownTensor *data = in(0), *shapeTensor = in(1);
  if (!data || !shapeTensor)
    return std::nullopt;
  auto shape = ints(*shapeTensor, "shape (input #1)");
  if (!shape)
    return shape.takeError();
  FailureOr<SmallVector<int64_t>> joint = broadcastShapes(data->shape, *shape);
  if (failed(joint) || llvm::any_of(*joint, [](int64_t d) { return d < 0; }))
    return makeError("the shape does not broadcast with the input");
  if (product(*joint) > kMaxFoldedElements)
    return std::nullopt;
  KnownTensor result{std::vector<int64_t>(joint->begin(), joint->end()),
                     std::vector<double>(product(*joint)), data->dataType};
  forEachBroadcast(*joint, {data->shape},
                   [&](int64_t flat, ArrayRef<int64_t> at) {
                     result.values[flat] = data->values[at[0]];
                   });
  return result;
}

FoldResult Folder::tile() {
  const KnownTensor *data = in(0), *repeatsTensor = in(1);
  if (!data || !repeatsTensor)
    return std::nullopt;
  auto repeats = ints(*repeatsTensor, "repeats (input #1)");
  if (!repeats)
    return repeats.takeError();
  if (repeats->size() != data->shape.size() ||
      llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
    return makeError("repeats must hold one non-negative count per dimension");
  std::vector<int64_t> shape;
  for (auto [dim, repeat] : llvm::zip(data->shape, *repeats))
    shape.push_back(product({dim, repeat}));
  if (product(shape) > kMaxFoldedElements)
    return std::nullopt;
  SmallVector<int64_t> strides = getStrides(data->shape);
  return rearrange(*data, shape, [&](int64_t d, int64_t c) {
    return c % data->shape[d] * strides[d];
  });
}

FoldResult Folder::transpose() {
  const KnownTensor *data = in(0);
  if (!data)
    return std::nullopt;
  int64_t rank = data->shape.size();
  std::vector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (const onnx::AttributeProto *attr = attribute("perm"))
    perm.assign(attr->ints().begin(), attr->ints().end());
  std::vector<int64_t> sorted = perm;
  llvm::sort(sorted);
  for (int64_t d = 0; d < rank; ++d)
    if (sorted.size() != size_t(rank) || sorted[d] != d)
      return makeError("perm is not a permutation of the dimensions");
  std::vector<int64_t> shape;
  for (int64_t axis : perm)
    shape.push_back(data->shape[axis]);
  SmallVector<int64_t> strides = getStrides(data->shape);
  return rearrange(*data, shape,
                   [&](int64_t d, int64_t c) { return c * strides[perm[d]]; });
}

FoldResult Folder::cast() {
  const KnownTensor *data = in(0);
  if (!data)
    return std::nullopt;
  // The types the importer has tensors of; others are its handler's to
  // refuse.
  int to = intAttribute("to", TensorProto::UNDEFINED);
  if (!llvm::is_contained(
          {TensorProto::FLOAT, TensorProto::FLOAT16, TensorProto::BFLOAT16,
           TensorProto::DOUBLE, TensorProto::INT8, TensorProto::UINT8,
           TensorProto::INT32, TensorProto::INT64, TensorProto::BOOL},
          to))
    return std::nullopt;
  KnownTensor result{data->shape, {}, to};
  for (double value : data->values)
    result.values.push_back(roundToType(value, to));
  return result;
}

FoldResult Folder::cumSum() {
  const KnownTensor *data = in(0), *axisTensor = in(1);
  if (!data || !axisTensor)
    return std::nullopt;
  if (axisTensor->values.size() != 1)
    return makeError("axis (input #1) must be a scalar");
  int64_t rank = data->shape.size();
  auto axis = normalizeAxis(toInt64(axisTensor->values[0]), rank);
  if (!axis)
    return axis.takeError();
  bool exclusive = intAttribute("exclusive", 0),
       reverse = intAttribute("reverse", 0);
  KnownTensor result = *data;
  int64_t extent = data->shape[*axis];
  int64_t inner = product(ArrayRef<int64_t>(data->shape).drop_front(*axis + 1));
  int64_t outer = product(ArrayRef<int64_t>(data->shape).take_front(*axis));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double sum = 0;
      for (int64_t k = 0; k < extent; ++k) {
        int64_t position = reverse ? extent - 1 - k : k;
        double &slot = result.values[(o * extent + position) * inner + i];
        double value = slot;
        slot = roundToType(exclusive ? sum : sum + value, data->dataType);
        sum += value;
      }
    }
  return result;
}

FoldResult Folder::trilu() {
  const KnownTensor *data = in(0);
  if (!data || (has(1) && !in(1)))
    return std::nullopt;
  if (data->shape.size() < 2)
    return makeError("the input needs two dimensions");
  int64_t k = 0;
  if (has(1)) {
    if (in(1)->values.size() != 1)
      return makeError("k (input #1) must be a scalar");
    k = toInt64(in(1)->values[0]);
  }
  bool upper = intAttribute("upper", 1);
  int64_t rows = data->shape[data->shape.size() - 2], cols = data->shape.back();
  KnownTensor result = *data;
  for (size_t flat = 0; flat < result.values.size(); ++flat) {
    int64_t col = flat % cols, row = flat / cols % rows;
    bool keep = upper ? col - row >= k : col - row <= k;
    if (!keep)
      result.values[flat] = 0;
  }
  return result;
}

FoldResult Folder::matMul() {
  const KnownTensor *a = in(0), *b = in(1);
  if (!a || !b)
    return std::nullopt;
  if (a->shape.size() < 2 || b->shape.size() < 2)
    return std::nullopt;
  int64_t m = a->shape[a->shape.size() - 2], k = a->shape.back();
  int64_t n = b->shape.back();
  if (b->shape[b->shape.size() - 2] != k)
    return makeError("the inner dimensions differ");
  ArrayRef<int64_t> aBatch = ArrayRef<int64_t>(a->shape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef<int64_t>(b->shape).drop_back(2);
  FailureOr<SmallVector<int64_t>> batch = broadcastShapes(aBatch, bBatch);
  if (failed(batch))
    return makeError("the batch dimensions do not broadcast");
  std::vector<int64_t> shape(batch->begin(), batch->end());
  shape.push_back(m);
  shape.push_back(n);
  if (product(shape) > kMaxFoldedElements ||
      product({product(shape), k}) > kMaxFoldedElements * 16)
    return std::nullopt;
  KnownTensor result{shape, std::vector<double>(product(shape)), a->dataType};
  forEachBroadcast(*batch, {aBatch, bBatch},
                   [&](int64_t flat, ArrayRef<int64_t> at) {
                     const double *x = a->values.data() + at[0] * m * k;
                     const double *y = b->values.data() + at[1] * k * n;
                     double *out = result.values.data() + flat * m * n;
                     for (int64_t i = 0; i < m; ++i)
                       for (int64_t j = 0; j < n; ++j) {
                         double sum = 0;
                         for (int64_t l = 0; l < k; ++l)
                           sum += x[i * k + l] * y[l * n + j];
                         out[i * n + j] = roundToType(sum, a->dataType);
                       }
                   });
  return result;
}

const llvm::StringMap<Folder::Fold> &Folder::getStructuralFolds() {
  static const llvm::StringMap<Fold> folds = {
      {"ConstantOfShape", &Folder::constantOfShape},
      {"Range", &Folder::range},
      {"Gather", &Folder::gather},
      {"Slice", &Folder::slice},
      {"Concat", &Folder::concat},
      {"Reshape", &Folder::reshape},
      {"Expand", &Folder::expand},
      {"Tile", &Folder::tile},
      {"Transpose", &Folder::transpose},
      {"Cast", &Folder::cast},
      {"CumSum", &Folder::cumSum},
      {"Trilu", &Folder::trilu},
      {"MatMul", &Folder::matMul},
  };
  return folds;
}

const llvm::StringSet<> &getElementwiseFolds() {
  static const llvm::StringSet<> ops = {
      "Add",      "Sub",   "Mul",  "Div",         "Mod",     "Pow",
      "Max",      "Min",   "Neg",  "Abs",         "Sqrt",    "Exp",
      "Log",      "Sin",   "Cos",  "Floor",       "Ceil",    "Reciprocal",
      "Identity", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
      "Not",      "And",   "Or",   "Xor",         "Where",   "IsNaN",
      "Sign"};
  return ops;
}

FoldResult Folder::fold() {
  llvm::StringRef type = node.op_type();
  if (type == "Shape" || type == "Size")
    return shapeOp(type == "Size");
  if (type == "Squeeze" || type == "Unsqueeze")
    return squeeze(type == "Unsqueeze");
  if (getElementwiseFolds().contains(type))
    return arithmetic(type);
  auto it = getStructuralFolds().find(type);
  if (it == getStructuralFolds().end())
    return std::nullopt;
  return (this->*it->second)();
}

} // namespace

bool isFoldable(llvm::StringRef opType) {
  return opType == "Shape" || opType == "Size" || opType == "Squeeze" ||
         opType == "Unsqueeze" || getElementwiseFolds().contains(opType) ||
         Folder::hasStructuralFold(opType);
}

llvm::Expected<std::vector<KnownTensor>>
foldNode(const onnx::NodeProto &node, int64_t opset,
         const FoldEnvironment &environment) {
  FoldResult result = Folder(node, opset, environment).fold();
  if (!result)
    return result.takeError();
  std::vector<KnownTensor> outputs;
  if (*result)
    outputs.push_back(std::move(**result));
  return outputs;
}

} // namespace prec
