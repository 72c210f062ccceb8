//===- OnnxImporter.cpp - ONNX models to func + TOSA ----------------------===//

#include "import/OnnxImporter.h"

#include "import/Folding.h"
#include "import/ImporterImpl.h"

using namespace mlir;

namespace prec {

bool parseInputShapes(llvm::ArrayRef<std::string> entries,
                      OnnxImportOptions &options, std::string &error) {
  for (llvm::StringRef entry : entries) {
    auto [name, dims] = entry.rsplit(':');
    if (name.empty() || dims.empty()) {
      error =
          ("--input-shape '" + entry + "' is not <name>:<d0>x<d1>...").str();
      return false;
    }
    std::vector<int64_t> shape;
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    for (llvm::StringRef part : parts) {
      int64_t dim = 0;
      if (part.getAsInteger(10, dim) || dim <= 0) {
        error =
            ("--input-shape '" + entry + "' has a bad dimension '" + part + "'")
                .str();
        return false;
      }
      shape.push_back(dim);
    }
    options.inputShapes[name] = shape;
  }
  return true;
}

} // namespace prec

namespace prec::onnx_import {

/// The element type of an ONNX TensorProto data type, or null.
Type getElementType(MLIRContext *context, int dataType) {
  Builder builder(context);
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return builder.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return builder.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return builder.getBF16Type();
  case onnx::TensorProto::INT8:
    return builder.getI8Type();
  case onnx::TensorProto::UINT8:
    return builder.getIntegerType(8, /*isSigned=*/false);
  case onnx::TensorProto::INT32:
    return builder.getI32Type();
  case onnx::TensorProto::INT64:
    return builder.getI64Type();
  case onnx::TensorProto::BOOL:
    return builder.getI1Type();
  default:
    return Type();
  }
}

/// `value` rounded toward zero to an integer of `width` bits, saturated at
/// the type's bounds (NaN gives 0): casting an out-of-range double, such as
/// an int64 initializer's INT64_MAX after its trip through double, is
/// undefined.
llvm::APSInt toInteger(double value, unsigned width, bool isUnsigned) {
  llvm::APSInt result(width, isUnsigned);
  bool isExact = false;
  (void)APFloat(value).convertToInteger(result, APFloat::rmTowardZero,
                                        &isExact);
  return result;
}

LogicalResult Importer::readTensorProto(const onnx::TensorProto &tensor,
                                        KnownTensor &result) {
  result.shape.assign(tensor.dims().begin(), tensor.dims().end());
  result.dataType = tensor.data_type();
  if (llvm::any_of(result.shape, [](int64_t dim) { return dim < 0; })) {
    failGraph() << "tensor '" << tensor.name() << "' has a negative dimension";
    return failure();
  }
  int64_t count = product(result.shape);
  if (count > maxElements) {
    failGraph() << "tensor '" << tensor.name() << "' has " << count
                << " elements: too large to import";
    return failure();
  }

  std::string external;
  const std::string *raw = tensor.has_raw_data() ? &tensor.raw_data() : nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string file;
    uint64_t offset = 0;
    std::optional<uint64_t> length;
    for (const auto &entry : tensor.external_data()) {
      uint64_t number = 0;
      bool isCount = entry.key() == "offset" || entry.key() == "length";
      if (isCount && llvm::StringRef(entry.value()).getAsInteger(10, number)) {
        failGraph() << "tensor '" << tensor.name() << "': external data "
                    << entry.key() << " '" << entry.value()
                    << "' is not a byte count";
        return failure();
      }
      if (entry.key() == "location")
        file = entry.value();
      else if (entry.key() == "offset")
        offset = number;
      else if (entry.key() == "length")
        length = number;
    }
    // As ONNX's own loader does (CVE-2022-25882), external data stays in the
    // model's folder: a model must not read arbitrary files into its weights.
    if (llvm::sys::path::is_absolute(file) ||
        llvm::is_contained(llvm::make_range(llvm::sys::path::begin(file),
                                            llvm::sys::path::end(file)),
                           "..")) {
      failGraph() << "tensor '" << tensor.name() << "': external data '" << file
                  << "' must be a path inside the model's folder";
      return failure();
    }
    llvm::SmallString<256> full(llvm::sys::path::parent_path(modelPath));
    llvm::sys::path::append(full, file);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(full, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer) {
      failGraph() << "tensor '" << tensor.name()
                  << "': cannot read external data '" << full
                  << "': " << buffer.getError().message();
      return failure();
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    if (offset > bytes.size() || (length && *length > bytes.size() - offset)) {
      failGraph() << "tensor '" << tensor.name()
                  << "': external data range is outside '" << full << "'";
      return failure();
    }
    external =
        bytes.substr(offset, length.value_or(llvm::StringRef::npos)).str();
    raw = &external;
  }

  Type element = getElementType(context, result.dataType);
  if (!element && result.dataType != onnx::TensorProto::DOUBLE) {
    failGraph() << "tensor '" << tensor.name() << "' has data type "
                << result.dataType << ", which prec does not import";
    return failure();
  }
  // Count the values the tensor holds before allocating: its dims alone may
  // claim far more elements than its data provides.
  size_t width = result.dataType == onnx::TensorProto::DOUBLE
                     ? 8
                     : (element.getIntOrFloatBitWidth() + 7) / 8;
  if (raw && raw->size() % width != 0) {
    failGraph() << "tensor '" << tensor.name() << "' has " << raw->size()
                << " bytes of data, not a whole number of " << width
                << "-byte values";
    return failure();
  }
  size_t held;
  if (raw)
    held = raw->size() / width;
  else if (result.dataType == onnx::TensorProto::FLOAT)
    held = tensor.float_data_size();
  else if (result.dataType == onnx::TensorProto::DOUBLE)
    held = tensor.double_data_size();
  else if (result.dataType == onnx::TensorProto::INT64)
    held = tensor.int64_data_size();
  else // int32_data holds int32, int8, uint8, bool and the bits of f16/bf16.
    held = tensor.int32_data_size();
  if (held != size_t(count)) {
    failGraph() << "tensor '" << tensor.name() << "' holds " << held
                << " values but its shape needs " << count;
    return failure();
  }
  result.values.resize(count);
  if (raw) {
    const char *data = raw->data();
    for (int64_t i = 0; i < count; ++i) {
      const char *at = data + i * width;
      double value = 0;
      switch (result.dataType) {
      case onnx::TensorProto::FLOAT: {
        float v;
        std::memcpy(&v, at, 4);
        value = v;
        break;
      }
      case onnx::TensorProto::DOUBLE:
        std::memcpy(&value, at, 8);
        break;
      case onnx::TensorProto::FLOAT16:
      case onnx::TensorProto::BFLOAT16: {
        uint16_t bits;
        std::memcpy(&bits, at, 2);
        value = llvm::APFloat(cast<FloatType>(element).getFloatSemantics(),
                              llvm::APInt(16, bits))
                    .convertToDouble();
        break;
      }
      case onnx::TensorProto::INT8:
        value = static_cast<int8_t>(*at);
        break;
      case onnx::TensorProto::UINT8:
      case onnx::TensorProto::BOOL:
        value = static_cast<uint8_t>(*at);
        break;
      case onnx::TensorProto::INT32: {
        int32_t v;
        std::memcpy(&v, at, 4);
        value = v;
        break;
      }
      case onnx::TensorProto::INT64: {
        int64_t v;
        std::memcpy(&v, at, 8);
        value = static_cast<double>(v);
        break;
      }
      }
      result.values[i] = value;
    }
    return success();
  }
  switch (result.dataType) {
  case onnx::TensorProto::FLOAT:
    llvm::copy(tensor.float_data(), result.values.begin());
    return success();
  case onnx::TensorProto::DOUBLE:
    llvm::copy(tensor.double_data(), result.values.begin());
    return success();
  case onnx::TensorProto::INT64:
    for (int64_t i = 0; i < count; ++i)
      result.values[i] = static_cast<double>(tensor.int64_data(i));
    return success();
  default:
    for (int64_t i = 0; i < count; ++i) {
      int32_t v = tensor.int32_data(i);
      if (auto floatType = dyn_cast<FloatType>(element))
        result.values[i] = llvm::APFloat(floatType.getFloatSemantics(),
                                         llvm::APInt(16, uint16_t(v)))
                               .convertToDouble();
      else
        result.values[i] = v;
    }
    return success();
  }
}

FailureOr<std::vector<int64_t>> Importer::getKnownInts(int index,
                                                       llvm::StringRef what) {
  const KnownTensor *tensor = getKnown(index);
  if (!tensor) {
    fail() << what << " (input #" << index
           << ") must be a constant or an initializer";
    return failure();
  }
  std::vector<int64_t> ints;
  for (double value : tensor->values) {
    if (value != std::trunc(value)) {
      fail() << what << " (input #" << index << ") holds " << value
             << ", not an integer";
      return failure();
    }
    // Saturated: exporters write INT64_MAX for "to the end".
    ints.push_back(toInteger(value, 64, /*isUnsigned=*/false).getExtValue());
  }
  return ints;
}

Value Importer::materializeKnown(const KnownTensor &tensor) {
  Type element = tensor.dataType == onnx::TensorProto::DOUBLE
                     ? builder.getF32Type()
                     : getElementType(context, tensor.dataType);
  return constant(tensor.shape, element, tensor.values);
}

FailureOr<Value> Importer::input(int index) {
  if (!hasInput(index)) {
    fail() << "input #" << index << " is missing";
    return failure();
  }
  const std::string &name = node->input(index);
  Value value;
  if (auto it = values.find(name); it != values.end()) {
    value = it->second;
  } else if (auto knownIt = known.find(name); knownIt != known.end()) {
    value = materializeKnown(knownIt->second);
    values[name] = value;
  } else {
    fail() << "input '" << name << "' is not defined before this node";
    return failure();
  }
  // Empty tensors reach no kernel prec emits, and shape arithmetic (tiling
  // multiples, window sizes, means) would divide by their zero extents.
  if (llvm::is_contained(shapeOf(value), 0)) {
    fail() << "input '" << name << "' of type " << value.getType()
           << " is empty, which prec does not import";
    return failure();
  }
  return value;
}

const onnx::AttributeProto *Importer::attribute(llvm::StringRef name) {
  for (const onnx::AttributeProto &attr : node->attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

int64_t Importer::intAttribute(llvm::StringRef name, int64_t fallback) {
  const onnx::AttributeProto *attr = attribute(name);
  return attr ? attr->i() : fallback;
}

float Importer::floatAttribute(llvm::StringRef name, float fallback) {
  const onnx::AttributeProto *attr = attribute(name);
  return attr ? attr->f() : fallback;
}

std::string Importer::stringAttribute(llvm::StringRef name,
                                      std::string fallback) {
  const onnx::AttributeProto *attr = attribute(name);
  return attr ? attr->s() : fallback;
}

std::vector<int64_t> Importer::intsAttribute(llvm::StringRef name,
                                             std::vector<int64_t> fallback) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return fallback;
  return std::vector<int64_t>(attr->ints().begin(), attr->ints().end());
}

Value Importer::create(llvm::StringRef name, ValueRange operands,
                       Type resultType, ArrayRef<NamedAttribute> attributes) {
  OperationState state(location, name);
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(attributes);
  return builder.create(state)->getResult(0);
}

Value Importer::constShape(ArrayRef<int64_t> shapeValues) {
  auto type = RankedTensorType::get({int64_t(shapeValues.size())},
                                    builder.getIndexType());
  return create("tosa.const_shape", {},
                tosa::shapeType::get(context, shapeValues.size()),
                {builder.getNamedAttr(
                    "values", DenseIntElementsAttr::get(type, shapeValues))});
}

Value Importer::constant(ArrayRef<int64_t> shape, Type element,
                         ArrayRef<double> data) {
  auto type = RankedTensorType::get(shape, element);
  ElementsAttr values;
  constexpr size_t kBlobThreshold = 1024;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    if (element.isF32() && data.size() > kBlobThreshold) {
      // Large weights as resource blobs: quick to import, not printed.
      std::vector<float> floats(data.begin(), data.end());
      values = DenseResourceElementsAttr::get(
          type, "onnx_weight",
          HeapAsmResourceBlob::allocateAndCopyInferAlign(
              ArrayRef<float>(floats)));
    } else {
      SmallVector<APFloat> floats;
      for (double value : data) {
        APFloat converted(value);
        bool losesInfo = false;
        converted.convert(floatType.getFloatSemantics(),
                          APFloat::rmNearestTiesToEven, &losesInfo);
        floats.push_back(converted);
      }
      values = DenseElementsAttr::get(type, floats);
    }
  } else {
    // Booleans hold 0 and 1: unsigned, as a 1-bit signed integer holds -1.
    unsigned width = element.getIntOrFloatBitWidth();
    bool isUnsigned = element.isUnsignedInteger() || width == 1;
    SmallVector<APInt> ints;
    for (double value : data)
      ints.push_back(toInteger(value, width, isUnsigned));
    values = DenseElementsAttr::get(type, ints);
  }
  Value result =
      create("tosa.const", {}, type, {builder.getNamedAttr("values", values)});
  constantData[result] =
      KnownTensor{std::vector<int64_t>(shape.begin(), shape.end()),
                  std::vector<double>(data.begin(), data.end()), 0};
  return result;
}

Value Importer::scalar(Type element, double value, int64_t rank) {
  return constant(SmallVector<int64_t>(rank, 1), element, {value});
}

Value Importer::reshape(Value value, ArrayRef<int64_t> shape) {
  if (shapeOf(value) == shape)
    return value;
  auto it = constantData.find(value);
  if (it != constantData.end()) {
    std::vector<double> data = it->second.values;
    return constant(shape, elementOf(value), data);
  }
  return create("tosa.reshape", {value, constShape(shape)},
                tensorOf(shape, elementOf(value)));
}

Value Importer::transpose(Value value, ArrayRef<int32_t> permutation) {
  ArrayRef<int64_t> shape = shapeOf(value);
  SmallVector<int64_t> result;
  for (int32_t axis : permutation)
    result.push_back(shape[axis]);
  auto it = constantData.find(value);
  if (it != constantData.end()) {
    // Permute the data: the element at result index r comes from the
    // source index whose axis permutation[d] is r[d].
    const std::vector<double> &source = it->second.values;
    std::vector<double> permuted(source.size());
    SmallVector<int64_t> sourceStrides = computeStrides(shape);
    SmallVector<int64_t> index(result.size(), 0);
    for (size_t flat = 0; flat < permuted.size(); ++flat) {
      int64_t offset = 0;
      for (size_t d = 0; d < result.size(); ++d)
        offset += index[d] * sourceStrides[permutation[d]];
      permuted[flat] = source[offset];
      for (int64_t d = int64_t(result.size()) - 1; d >= 0; --d) {
        if (++index[d] < result[d])
          break;
        index[d] = 0;
      }
    }
    return constant(result, elementOf(value), permuted);
  }
  return create("tosa.transpose", {value}, tensorOf(result, elementOf(value)),
                {builder.getNamedAttr(
                    "perms", builder.getDenseI32ArrayAttr(permutation))});
}

Value Importer::toRank(Value value, int64_t rank) {
  ArrayRef<int64_t> shape = shapeOf(value);
  if (int64_t(shape.size()) >= rank)
    return value;
  SmallVector<int64_t> expanded(rank - shape.size(), 1);
  expanded.append(shape.begin(), shape.end());
  return reshape(value, expanded);
}

FailureOr<std::pair<Value, Value>> Importer::broadcastPair(Value a, Value b) {
  if (failed(broadcastShapes(shapeOf(a), shapeOf(b)))) {
    fail() << "shapes " << a.getType() << " and " << b.getType()
           << " do not broadcast";
    return failure();
  }
  int64_t rank = std::max(shapeOf(a).size(), shapeOf(b).size());
  return std::make_pair(toRank(a, rank), toRank(b, rank));
}

Value Importer::binary(llvm::StringRef name, Value a, Value b, Type element) {
  SmallVector<int64_t> shape = *broadcastShapes(shapeOf(a), shapeOf(b));
  SmallVector<Value> operands = {a, b};
  if (name == "tosa.mul")
    operands.push_back(constant({1}, builder.getI8Type(), {0.0}));
  return create(name, operands, tensorOf(shape, element));
}

Value Importer::mul(Value a, Value b) {
  return binary("tosa.mul", a, b, elementOf(a));
}

Value Importer::clampValue(Value value, double lo, double hi) {
  Type element = elementOf(value);
  auto bound = [&](double v) -> Attribute {
    if (auto floatType = dyn_cast<FloatType>(element)) {
      APFloat converted(v);
      bool losesInfo = false;
      converted.convert(floatType.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
      return FloatAttr::get(element, converted);
    }
    return IntegerAttr::get(element,
                            toInteger(v, element.getIntOrFloatBitWidth(),
                                      element.isUnsignedInteger()));
  };
  return create("tosa.clamp", {value}, value.getType(),
                {builder.getNamedAttr("min_val", bound(lo)),
                 builder.getNamedAttr("max_val", bound(hi))});
}

Value Importer::reduce(llvm::StringRef name, Value value,
                       ArrayRef<int64_t> axes) {
  for (int64_t axis : axes) {
    SmallVector<int64_t> shape(shapeOf(value));
    shape[axis] = 1;
    value =
        create(name, {value}, tensorOf(shape, elementOf(value)),
               {builder.getNamedAttr("axis", builder.getI32IntegerAttr(axis))});
  }
  return value;
}

/// Imports `current`, recording instead of reporting why it fails; a node
/// fed by a failed one is not tried (its error would only echo the first).
void Importer::checkNode(const onnx::NodeProto &current, SupportCheck &check) {
  auto markMissing = [&] {
    for (const std::string &output : current.output())
      check.missing.insert(output);
  };
  if (llvm::any_of(current.input(), [&](const std::string &input) {
        return check.missing.contains(input);
      })) {
    ++check.notTried;
    markMissing();
    return;
  }
  std::string prefix = "node '" + nodeName + "' (" + current.op_type() +
                       ", opset " + std::to_string(opset) + "): ";
  std::vector<std::string> reasons;
  LogicalResult imported = success();
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      std::string message = diagnostic.str();
      llvm::StringRef reason(message);
      reason.consume_front(prefix);
      reasons.push_back(reason.str());
      return success();
    });
    imported = importNode(current);
  }
  if (succeeded(imported))
    return;
  std::string reason = reasons.empty() ? "failed" : reasons.front();
  check.failures[current.op_type()][reason].push_back(nodeName);
  markMissing();
}

/// One error per op type and reason, naming the first nodes; then a total.
LogicalResult Importer::reportSupport(const SupportCheck &check,
                                      int64_t nodeCount) {
  location = FileLineColLoc::get(context, modelPath, 0, 0);
  int64_t failedNodes = 0;
  for (const auto &[opType, reasons] : check.failures)
    for (const auto &[reason, nodes] : reasons) {
      failedNodes += nodes.size();
      InFlightDiagnostic error = failGraph();
      error << opType << ": " << nodes.size()
            << (nodes.size() == 1 ? " node" : " nodes") << " ("
            << llvm::join(llvm::ArrayRef(nodes).take_front(3), ", ")
            << (nodes.size() > 3 ? ", ..." : "") << "): " << reason;
    }
  if (failedNodes == 0) {
    emitRemark(location) << "all " << nodeCount
                         << " nodes can be imported (opset " << opset << ")";
    return success();
  }
  failGraph() << failedNodes << " of " << nodeCount
              << " nodes cannot be imported (opset " << opset << "); "
              << check.notTried
              << (check.notTried == 1 ? " more depends" : " more depend")
              << " on them and " << (check.notTried == 1 ? "was" : "were")
              << " not tried";
  return failure();
}

/// Evaluates the current node when its inputs are known (import/Folding.h):
/// true with its outputs known, false when it must become IR.
FailureOr<bool> Importer::foldKnown() {
  auto knownTensor = [&](StringRef name) -> const KnownTensor * {
    auto it = known.find(name.str());
    return it == known.end() ? nullptr : &it->second;
  };
  auto staticShape =
      [&](StringRef name) -> std::optional<SmallVector<int64_t>> {
    if (const KnownTensor *tensor = knownTensor(name))
      return SmallVector<int64_t>(tensor->shape.begin(), tensor->shape.end());
    auto it = values.find(name);
    if (it == values.end())
      return std::nullopt;
    return SmallVector<int64_t>(shapeOf(it->second));
  };
  llvm::Expected<std::vector<KnownTensor>> outputs =
      foldNode(*node, opset, FoldEnvironment{knownTensor, staticShape});
  if (!outputs) {
    fail() << llvm::toString(outputs.takeError());
    return failure();
  }
  for (auto [index, tensor] : llvm::enumerate(*outputs))
    known[node->output(index)] = std::move(tensor);
  return !outputs->empty();
}

LogicalResult Importer::importNode(const onnx::NodeProto &current) {
  node = &current;
  if (!current.domain().empty() && current.domain() != "ai.onnx")
    return fail() << "op domain '" << current.domain()
                  << "' is not supported (only the default ONNX domain)";
  // Every op prec imports has a first output; further ones are optional.
  if (current.output_size() == 0 || current.output(0).empty())
    return fail() << "node has no output";
  llvm::StringRef type = current.op_type();
  if (isFoldable(type)) {
    FailureOr<bool> folded = foldKnown();
    if (failed(folded) || *folded)
      return failure(failed(folded));
    // Shape and Size fold whenever their input is defined.
    if (type == "Shape" || type == "Size")
      return input(0);
  }
  auto handler = getOpTable().find(type);
  if (handler == getOpTable().end())
    return fail() << "unsupported op type";
  if (opset < handler->second.sinceOpset)
    return fail() << "op type '" << type << "' exists from opset "
                  << handler->second.sinceOpset << " on";
  return handler->second.handle(*this, type);
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  location = FileLineColLoc::get(context, modelPath, 0, 0);
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
  if (model.ir_version() > 10) {
    failGraph() << "IR version " << model.ir_version()
                << " is newer than prec supports (10)";
    return nullptr;
  }
  if (opset < 13 || opset > 21) {
    failGraph() << "opset " << opset << " is outside the supported 13 to 21";
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &initializer : graph.initializer()) {
    KnownTensor tensor;
    if (failed(readTensorProto(initializer, tensor)))
      return nullptr;
    known[initializer.name()] = std::move(tensor);
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(location);
  builder.setInsertionPointToEnd(module->getBody());

  // Inputs: graph inputs that are not initializers, in graph order.
  for (const auto &entry : options.inputShapes)
    if (llvm::none_of(graph.input(), [&](const onnx::ValueInfoProto &info) {
          return info.name() == entry.getKey() && !known.count(info.name());
        })) {
      failGraph() << "--input-shape names '" << entry.getKey()
                  << "', which is not an input of the model";
      return nullptr;
    }
  SmallVector<Type> inputTypes;
  SmallVector<std::string> inputNames;
  for (const onnx::ValueInfoProto &info : graph.input()) {
    if (known.count(info.name()))
      continue;
    const onnx::TypeProto_Tensor &tensorType = info.type().tensor_type();
    Type element = getElementType(context, tensorType.elem_type());
    if (!element) {
      failGraph() << "input '" << info.name() << "' has data type "
                  << tensorType.elem_type() << ", which prec does not import";
      return nullptr;
    }
    SmallVector<int64_t> shape;
    auto override = options.inputShapes.find(info.name());
    if (override != options.inputShapes.end()) {
      shape.assign(override->second.begin(), override->second.end());
      if (int64_t(shape.size()) != tensorType.shape().dim_size()) {
        failGraph() << "--input-shape gives " << info.name() << " rank "
                    << shape.size() << " but the model says "
                    << tensorType.shape().dim_size();
        return nullptr;
      }
    } else {
      for (const auto &dim : tensorType.shape().dim()) {
        if (!dim.has_dim_value() || dim.dim_value() <= 0) {
          failGraph() << "input '" << info.name() << "' has a dynamic dimension"
                      << (dim.has_dim_param() ? " '" + dim.dim_param() + "'"
                                              : std::string())
                      << "; give its shape with --input-shape " << info.name()
                      << ":1x3x224x224";
          return nullptr;
        }
        shape.push_back(dim.dim_value());
      }
    }
    if (product(shape) > maxElements) {
      failGraph() << "input '" << info.name() << "' has more than "
                  << maxElements << " elements: too large to import";
      return nullptr;
    }
    inputTypes.push_back(RankedTensorType::get(shape, element));
    inputNames.push_back(info.name());
  }

  auto function = func::FuncOp::create(builder, location, "main",
                                       builder.getFunctionType(inputTypes, {}));
  Block *entry = function.addEntryBlock();
  StringRef nameAttr = precision::PrecisionDialect::getNameAttrName();
  for (auto [index, name] : llvm::enumerate(inputNames)) {
    BlockArgument argument = entry->getArgument(index);
    argument.setLoc(NameLoc::get(builder.getStringAttr(name), location));
    function.setArgAttr(index, nameAttr, builder.getStringAttr(name));
    values[name] = argument;
  }
  builder.setInsertionPointToStart(entry);

  SupportCheck check;
  for (auto [index, current] : llvm::enumerate(graph.node())) {
    nodeName = current.name().empty()
                   ? current.op_type() + "_" + std::to_string(index)
                   : current.name();
    location =
        NameLoc::get(builder.getStringAttr(nodeName),
                     FileLineColLoc::get(context, modelPath, index + 1, 0));
    if (options.checkSupport)
      checkNode(current, check);
    else if (failed(importNode(current)))
      return nullptr;
  }
  if (options.checkSupport && failed(reportSupport(check, graph.node_size())))
    return nullptr;

  location = FileLineColLoc::get(context, modelPath, 0, 0);
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    auto it = values.find(output.name());
    Value value;
    if (it != values.end()) {
      value = it->second;
    } else if (auto knownIt = known.find(output.name());
               knownIt != known.end()) {
      if (product(knownIt->second.shape) == 0) {
        failGraph() << "output '" << output.name()
                    << "' is empty, which prec does not import";
        return nullptr;
      }
      value = materializeKnown(knownIt->second);
    } else {
      failGraph() << "output '" << output.name() << "' is never produced";
      return nullptr;
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, location, results);
  function.setFunctionType(builder.getFunctionType(
      inputTypes, llvm::to_vector(llvm::map_range(
                      results, [](Value v) { return v.getType(); }))));
  for (auto [index, output] : llvm::enumerate(graph.output()))
    function.setResultAttr(index, nameAttr,
                           builder.getStringAttr(output.name()));
  // Constants the folding of reshapes and transposes left unused.
  SmallVector<Operation *> unused;
  function.walk([&](Operation *op) {
    if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op) && op->use_empty())
      unused.push_back(op);
  });
  for (Operation *op : unused)
    op->erase();
  if (failed(verify(*module)))
    return nullptr;
  // The NCHW <-> NHWC transposes around every convolution and pooling cancel
  // once pushed through the elementwise ops between them (upstream TOSA
  // pass): of ResNet-50's 110, the two at the bindings remain. A transpose
  // that names an ONNX tensor passes the name to its source first.
  StringRef tensorName = precision::PrecisionDialect::getTensorAttrName();
  module->walk([&](tosa::TransposeOp transpose) {
    Operation *source = transpose.getInput1().getDefiningOp();
    if (Attribute name = transpose->getAttr(tensorName);
        name && source && source->getNumResults() == 1 &&
        !source->hasAttr(tensorName) && !isa<tosa::ConstOp>(source))
      source->setAttr(tensorName, name);
  });
  PassManager pm(context);
  pm.addNestedPass<func::FuncOp>(tosa::createTosaReduceTransposes());
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

} // namespace prec::onnx_import

namespace prec {

OwningOpRef<ModuleOp> importOnnxModel(llvm::StringRef bytes,
                                      llvm::StringRef modelPath,
                                      MLIRContext *context,
                                      const OnnxImportOptions &options) {
  context->loadDialect<func::FuncDialect, tosa::TosaDialect,
                       arith::ArithDialect, math::MathDialect,
                       tensor::TensorDialect, precision::PrecisionDialect>();
  onnx::ModelProto model;
  if (bytes.size() > size_t(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      !model.has_graph()) {
    emitError(FileLineColLoc::get(context, modelPath, 0, 0))
        << "'" << modelPath
        << "' is not an ONNX model (the protobuf does not parse)";
    return nullptr;
  }
  onnx_import::Importer importer(context, modelPath, options);
  return importer.run(model);
}

} // namespace prec
