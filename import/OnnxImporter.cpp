//===- OnnxImporter.cpp - ONNX models to func + TOSA ----------------------===//

#include "import/OnnxImporter.h"

#include "import/Folding.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

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

namespace {

/// The most elements one tensor may have: bounds the memory an initializer
/// takes and keeps the sizes derived from shapes far from overflowing.
constexpr int64_t maxElements = int64_t(1) << 34;

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

class Importer {
public:
  Importer(MLIRContext *context, llvm::StringRef modelPath,
           const OnnxImportOptions &options)
      : context(context), builder(context), modelPath(modelPath.str()),
        options(options), location(UnknownLoc::get(context)) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

private:
  using Handler = std::function<LogicalResult()>;

  // Diagnostics name the node, its op type and the opset.
  InFlightDiagnostic fail() {
    return emitError(location)
           << "node '" << nodeName << "' (" << node->op_type() << ", opset "
           << opset << "): ";
  }
  InFlightDiagnostic failGraph() { return emitError(location); }
  /// Turns an ONNX axis (negative counts from the end) into an index below
  /// `rank`, or fails naming it.
  LogicalResult normalizeAxis(int64_t &axis, int64_t rank) {
    int64_t normalized = axis < 0 ? axis + rank : axis;
    if (normalized < 0 || normalized >= rank)
      return fail() << "axis " << axis << " is out of range for rank " << rank;
    axis = normalized;
    return success();
  }

  // Tensors known at import time.
  LogicalResult readTensorProto(const onnx::TensorProto &tensor,
                                KnownTensor &known);
  const KnownTensor *getKnown(int index) {
    if (!hasInput(index))
      return nullptr;
    auto it = known.find(node->input(index));
    return it == known.end() ? nullptr : &it->second;
  }
  FailureOr<std::vector<int64_t>> getKnownInts(int index, llvm::StringRef what);

  // Graph values.
  bool hasInput(int index) {
    return index < node->input_size() && !node->input(index).empty();
  }
  FailureOr<Value> input(int index);
  void setOutput(int index, Value value) {
    values[node->output(index)] = value;
    // The ONNX tensor name, for calibrations and TensorRT caches; a value
    // passed through unchanged (Identity) keeps its first name.
    Operation *op = value.getDefiningOp();
    StringRef tensorName = precision::PrecisionDialect::getTensorAttrName();
    if (op && op->getNumResults() == 1 && !op->hasAttr(tensorName) &&
        !isa<tosa::ConstOp>(op))
      op->setAttr(tensorName,
                  StringAttr::get(op->getContext(), node->output(index)));
  }
  Value materializeKnown(const KnownTensor &tensor);

  // Attributes.
  const onnx::AttributeProto *attribute(llvm::StringRef name);
  int64_t intAttribute(llvm::StringRef name, int64_t fallback);
  float floatAttribute(llvm::StringRef name, float fallback);
  std::string stringAttribute(llvm::StringRef name, std::string fallback);
  std::vector<int64_t> intsAttribute(llvm::StringRef name,
                                     std::vector<int64_t> fallback = {});

  // Building blocks.
  static ArrayRef<int64_t> shapeOf(Value value) {
    return cast<RankedTensorType>(value.getType()).getShape();
  }
  static Type elementOf(Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  }
  RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
  Value create(llvm::StringRef name, ValueRange operands, Type resultType,
               ArrayRef<NamedAttribute> attributes = {});
  Value constShape(ArrayRef<int64_t> values);
  Value constant(ArrayRef<int64_t> shape, Type element, ArrayRef<double> data);
  Value scalar(Type element, double value, int64_t rank);
  Value zeroPoint(Type element) { return constant({1}, element, {0.0}); }
  Value reshape(Value value, ArrayRef<int64_t> shape);
  Value transpose(Value value, ArrayRef<int32_t> permutation);
  Value toRank(Value value, int64_t rank);
  FailureOr<std::pair<Value, Value>> broadcastPair(Value a, Value b);
  Value binary(llvm::StringRef name, Value a, Value b, Type element);
  Value mul(Value a, Value b);
  Value clampValue(Value value, double lo, double hi);
  Value reduce(llvm::StringRef name, Value value, ArrayRef<int64_t> axes);
  Value trimForWindow(Value nhwc, std::vector<int64_t> &pads, int64_t windowH,
                      int64_t windowW, ArrayRef<int64_t> strides);
  LogicalResult checkWindow(ArrayRef<int64_t> extent, ArrayRef<int64_t> kernel,
                            ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> dilations, ArrayRef<int64_t> pads,
                            bool transposed);

  // The capability report (--check-support).
  struct SupportCheck {
    /// Failures by op type, then reason: the nodes.
    std::map<std::string, std::map<std::string, std::vector<std::string>>>
        failures;
    /// Tensors that failed nodes would have produced.
    llvm::StringSet<> missing;
    int64_t notTried = 0;
  };
  void checkNode(const onnx::NodeProto &node, SupportCheck &check);
  LogicalResult reportSupport(const SupportCheck &check, int64_t nodeCount);

  // Op handlers.
  LogicalResult importNode(const onnx::NodeProto &node);
  FailureOr<bool> foldKnown();
  LogicalResult elementwiseBinary(llvm::StringRef tosaName);
  LogicalResult elementwiseUnary(llvm::StringRef tosaName);
  LogicalResult importDiv();
  LogicalResult importSqrt();
  LogicalResult importMatMul();
  LogicalResult importGemm();
  LogicalResult importConv(bool transposed);
  LogicalResult importPool(bool isMax, bool global);
  LogicalResult importBatchNormalization();
  LogicalResult importLayerNormalization();
  LogicalResult importInstanceNormalization();
  LogicalResult importGroupNormalization();
  Value normalize(Value x, ArrayRef<int64_t> axes, double epsilon);
  FailureOr<Value> affineParameter(int index, Value x);
  /// Inputs 1 and 2, `count` values each, one per `unit`.
  FailureOr<std::pair<Value, Value>> channelScaleAndBias(int64_t count,
                                                         llvm::StringRef unit);
  /// x * scale + bias, with one scale and bias per index of dimension 1.
  Value scaleChannels(Value x, std::pair<Value, Value> scaleAndBias);
  LogicalResult importSoftmax(bool logarithm);
  LogicalResult importReduce(llvm::StringRef kind);
  LogicalResult importReshape();
  LogicalResult importFlatten();
  LogicalResult importTranspose();
  LogicalResult importConcat();
  LogicalResult importSplit();
  LogicalResult importSlice();
  LogicalResult importSqueeze(bool unsqueeze);
  LogicalResult importGather();
  LogicalResult importRuntimeGather(Value data, int64_t axis);
  Value wrapIndices(Value indices, int64_t extent);
  Value gatherRows(Value data, int64_t rows, int64_t inner, Value positions,
                   ArrayRef<int64_t> shape);
  LogicalResult importGatherElements();
  LogicalResult importGatherND();
  LogicalResult importPredicate(llvm::StringRef type);
  LogicalResult importWhere();
  LogicalResult importExpandOrTile(bool isTile);
  Value tile(Value value, ArrayRef<int64_t> multiples);
  Value sliceAxis(Value value, int64_t axis, int64_t start, int64_t size);
  Value concatAxis(ArrayRef<Value> parts, int64_t axis);
  Value reverseAxis(Value value, int64_t axis);
  Value padAxis(Value value, int64_t axis, int64_t before, int64_t after,
                double fill);
  LogicalResult importCumSum();
  Value sumLabelsOut(Value value, std::string &labels, llvm::StringRef kept);
  Value permuteLabels(Value value, llvm::StringRef labels,
                      llvm::StringRef order);
  LogicalResult importEinsum();
  LogicalResult importTrilu();
  LogicalResult importMod();
  SmallVector<int64_t> multiplesTo(Value value, ArrayRef<int64_t> shape);
  Value stepAxis(Value value, int64_t axis, int64_t begin, int64_t count,
                 int64_t stride);
  LogicalResult importPad();
  LogicalResult importClip();
  LogicalResult importActivation(llvm::StringRef kind);
  LogicalResult importCast();
  LogicalResult importConstant();
  LogicalResult importQuantize(bool quantize);

  MLIRContext *context;
  OpBuilder builder;
  std::string modelPath;
  const OnnxImportOptions &options;
  Location location;
  const onnx::NodeProto *node = nullptr;
  std::string nodeName;
  int64_t opset = 0;
  llvm::StringMap<Value> values;
  std::map<std::string, KnownTensor> known;
  /// The data of constants the importer created: reshapes and transposes
  /// of weights fold into new constants, so that passes see weights, not
  /// data movement.
  llvm::DenseMap<Value, KnownTensor> constantData;
};

//===----------------------------------------------------------------------===//
// Tensors known at import time
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Op handlers
//===----------------------------------------------------------------------===//

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

LogicalResult Importer::importSqrt() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  setOutput(0, create("math.sqrt", {*x}, x->getType()));
  return success();
}

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
      value = create("tosa.tile", {ranked, constShape(multiples)},
                     tensorOf(full, elementOf(value)));
    }
    return reshape(value, {batchSize, rows, columns});
  };
  Type element = elementOf(lhs);
  Value product3 = create("tosa.matmul",
                          {toBatch(lhs, m, k), toBatch(rhs, k, n),
                           zeroPoint(element), zeroPoint(elementOf(rhs))},
                          tensorOf({batchSize, m, n}, element));
  SmallVector<int64_t> resultShape(batch->begin(), batch->end());
  if (!vectorA)
    resultShape.push_back(m);
  if (!vectorB)
    resultShape.push_back(n);
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
  return reshape(reduce("tosa.reduce_sum", value, axes), shape);
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
        llvm::any_of(term, [&](char c) { return term.count(c) != 1; }))
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
      create("tosa.matmul", {lhs, rhs, zeroPoint(element), zeroPoint(element)},
             tensorOf({b, m, n}, element));
  std::string resultLabels = batch + left + right;
  SmallVector<int64_t> resultShape;
  for (char c : resultLabels)
    resultShape.push_back(sizes[c]);
  setOutput(
      0, permuteLabels(reshape(product3, resultShape), resultLabels, output));
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
  setOutput(0, create("tosa.select", {mask, *x, zero}, x->getType()));
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

/// The multiples tiling `value` to `shape` (its rank already).
SmallVector<int64_t> Importer::multiplesTo(Value value,
                                           ArrayRef<int64_t> shape) {
  SmallVector<int64_t> multiples;
  for (auto [full, dim] : llvm::zip(shape, shapeOf(value)))
    multiples.push_back(full / dim);
  return multiples;
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
  Value result = create("tosa.matmul",
                        {reshape(lhs, {1, m, k}), reshape(rhs, {1, k, n}),
                         zeroPoint(element), zeroPoint(element)},
                        tensorOf({1, m, n}, element));
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
    result = binary("tosa.add", result, bias, element);
  }
  setOutput(0, result);
  return success();
}

LogicalResult Importer::importConv(bool transposed) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> xShape = shapeOf(*x);
  if (xShape.size() != 4)
    return fail() << "only 2-D convolutions (NCHW inputs) are supported";
  const KnownTensor *weights = getKnown(1);
  if (!weights || weights->shape.size() != 4)
    return fail() << "weights must be a 4-D initializer";
  Type element = elementOf(*x);
  int64_t group = intAttribute("group", 1);
  std::vector<int64_t> strides = intsAttribute("strides", {1, 1});
  std::vector<int64_t> dilations = intsAttribute("dilations", {1, 1});
  std::vector<int64_t> pads = intsAttribute("pads", {0, 0, 0, 0});
  if (stringAttribute("auto_pad", "NOTSET") != "NOTSET")
    return fail() << "auto_pad is not supported; export with explicit pads";
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4)
    return fail() << "strides, dilations and pads must describe 2-D";
  ArrayRef<int64_t> w = weights->shape;
  int64_t kh = w[2], kw = w[3];
  if (failed(checkWindow(xShape.drop_front(2), {kh, kw}, strides, dilations,
                         pads, transposed)))
    return failure();
  if (group < 1 || group > xShape[1])
    return fail() << "group " << group << " must lie between 1 and the "
                  << xShape[1] << " input channels";
  int64_t inChannels = xShape[1];
  int64_t outChannels = transposed ? w[1] * group : w[0];
  int64_t expectedInChannels = transposed ? w[0] : w[1] * group;
  if (expectedInChannels != inChannels)
    return fail() << "weights expect " << expectedInChannels
                  << " input channels, the input has " << inChannels;
  if (outChannels % group != 0)
    return fail() << outChannels << " output channels do not split into "
                  << group << " groups";

  // Bias: given or zeros, one per output channel.
  std::vector<double> bias(outChannels, 0.0);
  if (hasInput(2)) {
    const KnownTensor *b = getKnown(2);
    if (!b || int64_t(b->values.size()) != outChannels)
      return fail() << "bias must be an initializer of " << outChannels
                    << " values";
    bias = b->values;
  }
  Value nhwc = transpose(*x, {0, 2, 3, 1});
  auto weightAt = [&](int64_t o, int64_t i, int64_t y, int64_t x) {
    return weights->values[((o * w[1] + i) * kh + y) * kw + x];
  };
  auto attrs = [&](bool withDilation) {
    SmallVector<NamedAttribute> list = {
        builder.getNamedAttr("acc_type", TypeAttr::get(element)),
        builder.getNamedAttr("stride", builder.getDenseI64ArrayAttr(strides))};
    if (withDilation) {
      list.push_back(builder.getNamedAttr(
          "pad",
          builder.getDenseI64ArrayAttr({pads[0], pads[2], pads[1], pads[3]})));
      list.push_back(builder.getNamedAttr(
          "dilation", builder.getDenseI64ArrayAttr(dilations)));
    }
    return list;
  };

  int64_t oh, ow;
  Value result;
  if (transposed) {
    if (group != 1)
      return fail() << "grouped ConvTranspose is not supported";
    if (dilations != std::vector<int64_t>{1, 1})
      return fail() << "dilated ConvTranspose is not supported";
    std::vector<int64_t> outputPadding =
        intsAttribute("output_padding", {0, 0});
    if (outputPadding.size() != 2 || outputPadding[0] < 0 ||
        outputPadding[1] < 0 || outputPadding[0] >= strides[0] ||
        outputPadding[1] >= strides[1])
      return fail() << "output_padding must give 2 values, each below its "
                       "stride";
    // ONNX weights [I, O, KH, KW] -> TOSA [O, KH, KW, I].
    std::vector<double> ohwi(w[1] * kh * kw * w[0]);
    for (int64_t o = 0; o < w[1]; ++o)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t xx = 0; xx < kw; ++xx)
          for (int64_t i = 0; i < w[0]; ++i)
            ohwi[((o * kh + y) * kw + xx) * w[0] + i] = weightAt(i, o, y, xx);
    oh = (xShape[2] - 1) * strides[0] + kh - pads[0] - pads[2] +
         outputPadding[0];
    ow = (xShape[3] - 1) * strides[1] + kw - pads[1] - pads[3] +
         outputPadding[1];
    if (oh < 1 || ow < 1)
      return fail() << "pads leave an empty output";
    SmallVector<NamedAttribute> list = attrs(false);
    list.push_back(builder.getNamedAttr(
        "out_pad",
        builder.getDenseI64ArrayAttr({-pads[0], -pads[2] + outputPadding[0],
                                      -pads[1], -pads[3] + outputPadding[1]})));
    result = create("tosa.transpose_conv2d",
                    {nhwc, constant({w[1], kh, kw, w[0]}, element, ohwi),
                     constant({outChannels}, element, bias), zeroPoint(element),
                     zeroPoint(element)},
                    tensorOf({xShape[0], oh, ow, outChannels}, element), list);
  } else {
    oh = (xShape[2] + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) /
             strides[0] +
         1;
    ow = (xShape[3] + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) /
             strides[1] +
         1;
    nhwc = trimForWindow(nhwc, pads, dilations[0] * (kh - 1) + 1,
                         dilations[1] * (kw - 1) + 1, strides);
    auto convolve = [&](Value in, int64_t firstOut, int64_t outs) {
      std::vector<double> ohwi(outs * kh * kw * w[1]);
      for (int64_t o = 0; o < outs; ++o)
        for (int64_t y = 0; y < kh; ++y)
          for (int64_t xx = 0; xx < kw; ++xx)
            for (int64_t i = 0; i < w[1]; ++i)
              ohwi[((o * kh + y) * kw + xx) * w[1] + i] =
                  weightAt(firstOut + o, i, y, xx);
      return create("tosa.conv2d",
                    {in, constant({outs, kh, kw, w[1]}, element, ohwi),
                     constant({outs}, element,
                              ArrayRef<double>(bias).slice(firstOut, outs)),
                     zeroPoint(element), zeroPoint(element)},
                    tensorOf({xShape[0], oh, ow, outs}, element), attrs(true));
    };
    if (group == 1) {
      result = convolve(nhwc, 0, outChannels);
    } else if (group == inChannels && w[1] == 1) {
      // Depthwise: weights [KH, KW, C, M].
      int64_t multiplier = outChannels / inChannels;
      std::vector<double> hwcm(kh * kw * inChannels * multiplier);
      for (int64_t c = 0; c < inChannels; ++c)
        for (int64_t m = 0; m < multiplier; ++m)
          for (int64_t y = 0; y < kh; ++y)
            for (int64_t xx = 0; xx < kw; ++xx)
              hwcm[((y * kw + xx) * inChannels + c) * multiplier + m] =
                  weightAt(c * multiplier + m, 0, y, xx);
      result = create(
          "tosa.depthwise_conv2d",
          {nhwc, constant({kh, kw, inChannels, multiplier}, element, hwcm),
           constant({outChannels}, element, bias), zeroPoint(element),
           zeroPoint(element)},
          tensorOf({xShape[0], oh, ow, outChannels}, element), attrs(true));
    } else {
      // Grouped: one convolution per group on its slice of channels.
      int64_t inPerGroup = w[1], outPerGroup = outChannels / group;
      SmallVector<Value> parts;
      for (int64_t g = 0; g < group; ++g) {
        ArrayRef<int64_t> in = shapeOf(nhwc);
        SmallVector<int64_t> sliceShape = {in[0], in[1], in[2], inPerGroup};
        Value slice = create("tosa.slice",
                             {nhwc, constShape({0, 0, 0, g * inPerGroup}),
                              constShape(sliceShape)},
                             tensorOf(sliceShape, element));
        parts.push_back(convolve(slice, g * outPerGroup, outPerGroup));
      }
      result =
          create("tosa.concat", parts,
                 tensorOf({xShape[0], oh, ow, outChannels}, element),
                 {builder.getNamedAttr("axis", builder.getI32IntegerAttr(3))});
    }
  }
  setOutput(0, transpose(result, {0, 3, 1, 2}));
  return success();
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
  return create("tosa.slice",
                {nhwc, constShape({0, 0, 0, 0}), constShape(kept)},
                tensorOf(kept, elementOf(nhwc)));
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

LogicalResult Importer::importPool(bool isMax, bool global) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() != 4)
    return fail() << "only 2-D pooling (NCHW inputs) is supported";
  Type element = elementOf(*x);
  std::vector<int64_t> kernel = global
                                    ? std::vector<int64_t>{shape[2], shape[3]}
                                    : intsAttribute("kernel_shape");
  std::vector<int64_t> strides = intsAttribute("strides", {1, 1});
  std::vector<int64_t> pads = intsAttribute("pads", {0, 0, 0, 0});
  if (kernel.size() != 2 || strides.size() != 2 || pads.size() != 4)
    return fail() << "kernel_shape, strides and pads must describe 2-D";
  if (stringAttribute("auto_pad", "NOTSET") != "NOTSET")
    return fail() << "auto_pad is not supported; export with explicit pads";
  if (intAttribute("ceil_mode", 0))
    return fail() << "ceil_mode is not supported";
  if (!isMax && intAttribute("count_include_pad", 0) &&
      llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    return fail() << "count_include_pad with padding is not supported";
  if (isMax && intsAttribute("dilations", {1, 1}) != std::vector<int64_t>{1, 1})
    return fail() << "dilated MaxPool is not supported";
  if (failed(checkWindow(shape.drop_front(2), kernel, strides, {1, 1}, pads,
                         /*transposed=*/false)))
    return failure();
  int64_t oh = (shape[2] + pads[0] + pads[2] - kernel[0]) / strides[0] + 1;
  int64_t ow = (shape[3] + pads[1] + pads[3] - kernel[1]) / strides[1] + 1;
  Value nhwc = trimForWindow(transpose(*x, {0, 2, 3, 1}), pads, kernel[0],
                             kernel[1], strides);
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("kernel", builder.getDenseI64ArrayAttr(kernel)),
      builder.getNamedAttr("stride", builder.getDenseI64ArrayAttr(strides)),
      builder.getNamedAttr("pad", builder.getDenseI64ArrayAttr(
                                      {pads[0], pads[2], pads[1], pads[3]}))};
  auto resultType = tensorOf({shape[0], oh, ow, shape[1]}, element);
  Value pooled;
  if (isMax) {
    pooled = create("tosa.max_pool2d", {nhwc}, resultType, attrs);
  } else {
    attrs.push_back(builder.getNamedAttr(
        "acc_type",
        TypeAttr::get(element.isF32() || element.isF16() || element.isBF16()
                          ? builder.getF32Type()
                          : element)));
    pooled = create("tosa.avg_pool2d",
                    {nhwc, zeroPoint(element), zeroPoint(element)}, resultType,
                    attrs);
  }
  setOutput(0, transpose(pooled, {0, 3, 1, 2}));
  return success();
}

LogicalResult Importer::importBatchNormalization() {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  const KnownTensor *scale = getKnown(1), *bias = getKnown(2),
                    *mean = getKnown(3), *variance = getKnown(4);
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
  for (const KnownTensor *parameter : {scale, bias, mean, variance})
    if (int64_t(parameter->values.size()) != channels)
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
  setOutput(0, binary("tosa.add", scaled, constant(channelShape, element, b),
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
  Value mean = mul(reduce("tosa.reduce_sum", x, axes), inverseCount);
  Value centered = binary("tosa.sub", x, mean, element);
  Value variance = mul(reduce("tosa.reduce_sum", mul(centered, centered), axes),
                       inverseCount);
  Value denominator = create(
      "tosa.rsqrt",
      {binary("tosa.add", variance, scalar(element, epsilon, rank), element)},
      variance.getType());
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
    result = binary("tosa.add", result, *beta, elementOf(*x));
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
  return binary("tosa.add", scaled, reshape(scaleAndBias.second, channelShape),
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
      binary("tosa.sub", *x, reduce("tosa.reduce_max", *x, {axis}), element);
  Value exponent = create("tosa.exp", {shifted}, shifted.getType());
  Value sum = reduce("tosa.reduce_sum", exponent, {axis});
  if (logarithm) {
    Value logSum = create("tosa.log", {sum}, sum.getType());
    setOutput(0, binary("tosa.sub", shifted, logSum, element));
  } else {
    Value reciprocal = create("tosa.reciprocal", {sum}, sum.getType());
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
  Value reduced =
      reduce(kind == "max" ? "tosa.reduce_max" : "tosa.reduce_sum", *x, axes);
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
    FailureOr<Value> value = input(i);
    if (failed(value))
      return failure();
    inputs.push_back(*value);
  }
  if (inputs.empty())
    return fail() << "Concat needs at least one input";
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, shapeOf(inputs[0]).size())))
    return failure();
  SmallVector<int64_t> shape(shapeOf(inputs[0]));
  shape[axis] = 0;
  for (Value value : inputs) {
    ArrayRef<int64_t> other = shapeOf(value);
    if (other.size() != shape.size())
      return fail() << "inputs differ in shape off the axis";
    for (size_t d = 0; d < shape.size(); ++d)
      if (int64_t(d) != axis && other[d] != shape[d])
        return fail() << "inputs differ in shape off the axis";
    shape[axis] += other[axis];
  }
  setOutput(
      0,
      create("tosa.concat", inputs, tensorOf(shape, elementOf(inputs[0])),
             {builder.getNamedAttr("axis", builder.getI32IntegerAttr(axis))}));
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
              create("tosa.slice", {*x, constShape(start), constShape(extent)},
                     tensorOf(extent, elementOf(*x))));
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
  Value result = *x;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i];
    if (failed(normalizeAxis(axis, rank)))
      return failure();
    int64_t step = steps[i], dim = shape[axis];
    if (step == 0)
      return fail() << "a step is 0";
    // ONNX's clamping: negative indices count from the end; a negative step
    // starts at most at the last element and ends at least before the first.
    auto clampIndex = [&](int64_t index, int64_t lo, int64_t hi) {
      if (index < 0)
        index = index < std::numeric_limits<int64_t>::min() + dim ? lo
                                                                  : index + dim;
      return std::clamp(index, lo, hi);
    };
    int64_t begin = step > 0 ? clampIndex((*starts)[i], 0, dim)
                             : clampIndex((*starts)[i], 0, dim - 1);
    int64_t end = step > 0 ? clampIndex((*ends)[i], 0, dim)
                           : clampIndex((*ends)[i], -1, dim - 1);
    int64_t stride = std::abs(step);
    int64_t count = (std::abs(end - begin) + stride - 1) / stride;
    if ((end - begin) * (step > 0 ? 1 : -1) <= 0)
      return fail() << "the slice of dimension " << axis << " is empty";
    // A negative step walks the reversed axis forwards.
    if (step < 0) {
      result = reverseAxis(result, axis);
      begin = dim - 1 - begin;
    }
    result = stepAxis(result, axis, begin, count, stride);
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

LogicalResult Importer::importGather() {
  FailureOr<Value> data = input(0);
  if (failed(data))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*data);
  int64_t rank = shape.size();
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  if (!getKnown(1))
    return importRuntimeGather(*data, axis);
  FailureOr<std::vector<int64_t>> indices = getKnownInts(1, "indices");
  if (failed(indices))
    return failure();
  const KnownTensor *indexTensor = getKnown(1);
  // tosa.gather works on [N, K, C] values and [N, W] indices: fold the
  // dimensions before the axis into N and those after into C.
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  std::vector<double> wrapped;
  for (int64_t index : *indices) {
    if (index < -shape[axis] || index >= shape[axis])
      return fail() << "index " << index << " is out of range for dimension "
                    << shape[axis];
    wrapped.push_back(index < 0 ? index + shape[axis] : index);
  }
  int64_t count = wrapped.size();
  // The indices are repeated for each of the outer rows: bound the constant.
  constexpr int64_t maxTiledIndices = int64_t(1) << 24;
  if (outer > maxTiledIndices / std::max<int64_t>(count, 1))
    return fail() << "gathering " << count << " indices from " << outer
                  << " rows needs more than " << maxTiledIndices << " indices";
  std::vector<double> tiledIndices;
  for (int64_t n = 0; n < outer; ++n)
    tiledIndices.insert(tiledIndices.end(), wrapped.begin(), wrapped.end());
  Value values = reshape(*data, {outer, shape[axis], inner});
  Value gathered = create(
      "tosa.gather",
      {values, constant({outer, count}, builder.getI32Type(), tiledIndices)},
      tensorOf({outer, count, inner}, elementOf(*data)));
  SmallVector<int64_t> resultShape(shape.take_front(axis));
  resultShape.append(indexTensor->shape.begin(), indexTensor->shape.end());
  resultShape.append(shape.begin() + axis + 1, shape.end());
  setOutput(0, reshape(gathered, resultShape));
  return success();
}

/// Gather with indices known at run time (embeddings of `input_ids`): the
/// indices wrap when negative and are clamped into the dimension, so that no
/// index reads outside the data.
LogicalResult Importer::importRuntimeGather(Value data, int64_t axis) {
  FailureOr<Value> indices = input(1);
  if (failed(indices))
    return failure();
  Type indexType = elementOf(*indices);
  if (!indexType.isInteger(64) && !indexType.isInteger(32))
    return fail() << "indices (input #1) must be int64 or int32, not "
                  << indices->getType();
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  int64_t extent = shape[axis];
  int64_t count = product(shapeOf(*indices));
  Value positions = wrapIndices(reshape(*indices, {1, count}), extent);
  if (outer > 1)
    positions = create("tosa.tile", {positions, constShape({outer, 1})},
                       tensorOf({outer, count}, builder.getI32Type()));
  Value gathered =
      create("tosa.gather", {reshape(data, {outer, extent, inner}), positions},
             tensorOf({outer, count, inner}, elementOf(data)));
  SmallVector<int64_t> resultShape(shape.take_front(axis));
  llvm::append_range(resultShape, shapeOf(*indices));
  resultShape.append(shape.begin() + axis + 1, shape.end());
  setOutput(0, reshape(gathered, resultShape));
  return success();
}

/// Run-time indices into a dimension of `extent` as i32, wrapped when
/// negative and clamped into the dimension, so that none reads outside it.
Value Importer::wrapIndices(Value indices, int64_t extent) {
  Type i32 = builder.getI32Type();
  ArrayRef<int64_t> shape = shapeOf(indices);
  int64_t rank = shape.size();
  if (!elementOf(indices).isInteger(32))
    indices = create("tosa.cast", {indices}, tensorOf(shape, i32));
  Value negative = create("tosa.greater", {scalar(i32, 0, rank), indices},
                          tensorOf(shape, builder.getI1Type()));
  Value shifted = binary("tosa.add", indices, scalar(i32, extent, rank), i32);
  Value wrapped =
      create("tosa.select", {negative, shifted, indices}, indices.getType());
  return clampValue(wrapped, 0, extent - 1);
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

/// `value` repeated `multiples` times along each dimension.
Value Importer::tile(Value value, ArrayRef<int64_t> multiples) {
  if (llvm::all_of(multiples, [](int64_t m) { return m == 1; }))
    return value;
  SmallVector<int64_t> shape;
  for (auto [dim, multiple] : llvm::zip(shapeOf(value), multiples))
    shape.push_back(dim * multiple);
  return create("tosa.tile", {value, constShape(multiples)},
                tensorOf(shape, elementOf(value)));
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
  return create("tosa.slice", {value, constShape(begin), constShape(extent)},
                tensorOf(extent, elementOf(value)));
}

Value Importer::concatAxis(ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() == 1)
    return parts.front();
  SmallVector<int64_t> shape(shapeOf(parts.front()));
  shape[axis] = 0;
  for (Value part : parts)
    shape[axis] += shapeOf(part)[axis];
  return create(
      "tosa.concat", parts, tensorOf(shape, elementOf(parts[0])),
      {builder.getNamedAttr("axis", builder.getI32IntegerAttr(axis))});
}

Value Importer::reverseAxis(Value value, int64_t axis) {
  if (shapeOf(value)[axis] == 1)
    return value;
  return create(
      "tosa.reverse", {value}, value.getType(),
      {builder.getNamedAttr("axis", builder.getI32IntegerAttr(axis))});
}

Value Importer::padAxis(Value value, int64_t axis, int64_t before,
                        int64_t after, double fill) {
  SmallVector<int64_t> padding(2 * shapeOf(value).size(), 0);
  padding[2 * axis] = before;
  padding[2 * axis + 1] = after;
  SmallVector<int64_t> shape(shapeOf(value));
  shape[axis] += before + after;
  return create(
      "tosa.pad",
      {value, constShape(padding), constant({1}, elementOf(value), {fill})},
      tensorOf(shape, elementOf(value)));
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
    sum = binary("tosa.add", sum, shifted, elementOf(sum));
  }
  if (intAttribute("exclusive", 0))
    sum = length == 1
              ? binary("tosa.sub", sum, sum, elementOf(sum))
              : padAxis(sliceAxis(sum, axis, 0, length - 1), axis, 1, 0, 0);
  setOutput(0, reverse ? reverseAxis(sum, axis) : sum);
  return success();
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
    const KnownTensor *value = getKnown(2);
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

/// Rows of `data` viewed as [1, rows, inner], picked by `positions` (i32,
/// [1, count]) and shaped `shape`: the one tosa.gather the gathers share.
Value Importer::gatherRows(Value data, int64_t rows, int64_t inner,
                           Value positions, ArrayRef<int64_t> shape) {
  int64_t count = shapeOf(positions)[1];
  Value gathered =
      create("tosa.gather", {reshape(data, {1, rows, inner}), positions},
             tensorOf({1, count, inner}, elementOf(data)));
  return reshape(gathered, shape);
}

/// GatherElements: out[p] = data[p with p[axis] = indices[p]], as a gather
/// of single elements at flat offsets computed from the indices.
LogicalResult Importer::importGatherElements() {
  FailureOr<Value> data = input(0), indices = input(1);
  if (failed(data) || failed(indices))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t rank = shape.size();
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  if (int64_t(indexShape.size()) != rank)
    return fail() << "indices " << indices->getType()
                  << " must have the rank of the data " << data->getType();
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indexShape[d] > shape[d])
      return fail() << "indices " << indices->getType() << " exceed the data "
                    << data->getType() << " outside the axis";
  if (product(shape) > std::numeric_limits<int32_t>::max())
    return fail() << "the data has more elements than i32 offsets reach";
  SmallVector<int64_t> strides = computeStrides(shape);
  int64_t count = product(indexShape), extent = shape[axis];
  // Each element's offset without its axis coordinate.
  std::vector<double> base(count);
  SmallVector<int64_t> index(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        base[flat] += double(index[d] * strides[d]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < indexShape[d])
        break;
      index[d] = 0;
    }
  }
  Type i32 = builder.getI32Type();
  Value offsets;
  if (const KnownTensor *known = getKnown(1)) {
    std::vector<double> flat = base;
    for (int64_t i = 0; i < count; ++i) {
      double position = known->values[i];
      if (position < -extent || position >= extent)
        return fail() << "index " << position
                      << " is out of range for dimension " << extent;
      flat[i] += (position < 0 ? position + extent : position) * strides[axis];
    }
    offsets = constant({1, count}, i32, flat);
  } else {
    Value positions = wrapIndices(reshape(*indices, {1, count}), extent);
    Value scaled = mul(positions, scalar(i32, strides[axis], 2));
    offsets = binary("tosa.add", scaled, constant({1, count}, i32, base), i32);
  }
  setOutput(0, gatherRows(*data, product(shape), 1, offsets, indexShape));
  return success();
}

/// GatherND with indices known at import: each index tuple (after the
/// batch dimensions) picks a row of the trailing dimensions.
LogicalResult Importer::importGatherND() {
  FailureOr<Value> data = input(0);
  if (failed(data))
    return failure();
  const KnownTensor *indices = getKnown(1);
  if (!indices)
    return fail() << "indices (input #1) must be known at import time";
  ArrayRef<int64_t> shape = shapeOf(*data);
  ArrayRef<int64_t> indexShape = indices->shape;
  int64_t batch = intAttribute("batch_dims", 0);
  if (indexShape.empty() || batch < 0 || batch >= int64_t(indexShape.size()) ||
      indexShape.back() < 1 ||
      batch + indexShape.back() > int64_t(shape.size()) ||
      shape.take_front(batch) != indexShape.take_front(batch))
    return fail() << "indices with batch_dims " << batch
                  << " do not fit the data " << data->getType();
  int64_t depth = indexShape.back();
  ArrayRef<int64_t> indexed = shape.slice(batch, depth);
  SmallVector<int64_t> indexedStrides = computeStrides(indexed);
  int64_t perBatch = product(indexed);
  int64_t tuples = product(indexShape.drop_back());
  int64_t tuplesPerBatch = product(indexShape.drop_back().drop_front(batch));
  int64_t rows = product(shape.take_front(batch + depth));
  if (rows > std::numeric_limits<int32_t>::max())
    return fail() << "the data has more rows than i32 offsets reach";
  std::vector<double> offsets(tuples);
  for (int64_t t = 0; t < tuples; ++t) {
    double row = double((t / tuplesPerBatch) * perBatch);
    for (int64_t k = 0; k < depth; ++k) {
      double position = indices->values[t * depth + k];
      if (position < -indexed[k] || position >= indexed[k])
        return fail() << "index " << position
                      << " is out of range for dimension " << indexed[k];
      row += (position < 0 ? position + indexed[k] : position) *
             double(indexedStrides[k]);
    }
    offsets[t] = row;
  }
  SmallVector<int64_t> resultShape(indexShape.drop_back());
  llvm::append_range(resultShape, shape.drop_front(batch + depth));
  Value positions = constant({1, tuples}, builder.getI32Type(), offsets);
  setOutput(0, gatherRows(*data, rows, product(shape.drop_front(batch + depth)),
                          positions, resultShape));
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
    const KnownTensor *known = getKnown(index);
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

LogicalResult Importer::importConstant() {
  const onnx::AttributeProto *value = attribute("value");
  KnownTensor tensor;
  if (value && value->has_t()) {
    if (failed(readTensorProto(value->t(), tensor)))
      return failure();
  } else if (const onnx::AttributeProto *f = attribute("value_float")) {
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
  known[node->output(0)] = tensor;
  return success();
}

LogicalResult Importer::importQuantize(bool quantize) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  const KnownTensor *scale = getKnown(1);
  const KnownTensor *zero = getKnown(2);
  if (!scale || scale->values.size() != 1)
    return fail() << "only per-tensor (scalar, constant) scales are "
                     "supported";
  if (zero && zero->values.size() != 1)
    return fail() << "only per-tensor (scalar, constant) zero points are "
                     "supported";
  double zeroPointValue = zero ? zero->values[0] : 0.0;
  int zeroType = zero ? zero->dataType : onnx::TensorProto::UINT8;
  int64_t rank = shapeOf(*x).size();
  Type floatType = builder.getF32Type();
  if (quantize) {
    Type element = getElementType(context, zeroType);
    if (!element || !element.isInteger(8))
      return fail() << "only int8 and uint8 quantization is supported";
    // saturate(round(x / scale) + zero point): the cast rounds to nearest
    // even and saturates; the zero point is an integer, so adding it before
    // rounding changes nothing.
    Value scaled =
        create("arith.divf",
               {*x, create("tosa.tile",
                           {scalar(floatType, scale->values[0], rank),
                            constShape(shapeOf(*x))},
                           x->getType())},
               x->getType());
    Value shifted = binary("tosa.add", scaled,
                           scalar(floatType, zeroPointValue, rank), floatType);
    setOutput(0,
              create("tosa.cast", {shifted}, tensorOf(shapeOf(*x), element)));
  } else {
    Value asFloat = create("tosa.cast", {*x}, tensorOf(shapeOf(*x), floatType));
    Value centered = binary("tosa.sub", asFloat,
                            scalar(floatType, zeroPointValue, rank), floatType);
    setOutput(0, mul(centered, scalar(floatType, scale->values[0], rank)));
  }
  return success();
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
  using namespace std::placeholders;
  static const llvm::StringMap<llvm::StringRef> binaryOps = {
      {"Add", "tosa.add"}, {"Sub", "tosa.sub"},     {"Mul", "tosa.mul"},
      {"Pow", "tosa.pow"}, {"Max", "tosa.maximum"}, {"Min", "tosa.minimum"}};
  static const llvm::StringMap<llvm::StringRef> unaryOps = {
      {"Exp", "tosa.exp"},         {"Log", "tosa.log"},
      {"Erf", "tosa.erf"},         {"Neg", "tosa.negate"},
      {"Abs", "tosa.abs"},         {"Reciprocal", "tosa.reciprocal"},
      {"Sigmoid", "tosa.sigmoid"}, {"Tanh", "tosa.tanh"},
      {"Floor", "tosa.floor"},     {"Ceil", "tosa.ceil"},
      {"Sin", "tosa.sin"},         {"Cos", "tosa.cos"}};
  if (auto it = binaryOps.find(type); it != binaryOps.end())
    return elementwiseBinary(it->second);
  if (auto it = unaryOps.find(type); it != unaryOps.end())
    return elementwiseUnary(it->second);
  if (type == "Div")
    return importDiv();
  if (type == "Sqrt")
    return importSqrt();
  if (type == "MatMul")
    return importMatMul();
  if (type == "Gemm")
    return importGemm();
  if (type == "Conv" || type == "ConvTranspose")
    return importConv(type == "ConvTranspose");
  if (type == "MaxPool" || type == "AveragePool")
    return importPool(type == "MaxPool", /*global=*/false);
  if (type == "GlobalAveragePool" || type == "GlobalMaxPool")
    return importPool(type == "GlobalMaxPool", /*global=*/true);
  if (type == "BatchNormalization")
    return importBatchNormalization();
  if (type == "LayerNormalization")
    return importLayerNormalization();
  if (type == "InstanceNormalization")
    return importInstanceNormalization();
  if (type == "GroupNormalization")
    return importGroupNormalization();
  if (type == "Softmax" || type == "LogSoftmax")
    return importSoftmax(type == "LogSoftmax");
  if (type == "ReduceMean")
    return importReduce("mean");
  if (type == "ReduceSum")
    return importReduce("sum");
  if (type == "ReduceMax")
    return importReduce("max");
  if (type == "Reshape")
    return importReshape();
  if (type == "Flatten")
    return importFlatten();
  if (type == "Transpose")
    return importTranspose();
  if (type == "Concat")
    return importConcat();
  if (type == "Split")
    return importSplit();
  if (type == "Slice")
    return importSlice();
  if (type == "Squeeze" || type == "Unsqueeze")
    return importSqueeze(type == "Unsqueeze");
  if (type == "Gather")
    return importGather();
  if (llvm::is_contained({"Equal", "Greater", "GreaterOrEqual", "Less",
                          "LessOrEqual", "Not", "And", "Or", "Xor"},
                         type))
    return importPredicate(type);
  if (type == "Where")
    return importWhere();
  if (type == "GatherElements")
    return importGatherElements();
  if (type == "GatherND")
    return importGatherND();
  if (type == "CumSum")
    return importCumSum();
  if (type == "Einsum")
    return importEinsum();
  if (type == "Trilu")
    return importTrilu();
  if (type == "Mod")
    return importMod();
  if (type == "Pad")
    return importPad();
  if (type == "Expand" || type == "Tile")
    return importExpandOrTile(type == "Tile");
  if (type == "Clip")
    return importClip();
  if (type == "Relu" || type == "LeakyRelu" || type == "HardSwish" ||
      type == "HardSigmoid" || type == "Gelu")
    return importActivation(type);
  if (type == "Cast")
    return importCast();
  if (type == "Dropout") {
    // Inference: the identity, as exporters leave it in eval mode.
    if (hasInput(2)) {
      const KnownTensor *training = getKnown(2);
      if (!training || training->values.size() != 1 || training->values[0])
        return fail() << "training_mode (input #2) must be a known false";
    }
    if (current.output_size() > 1 && !current.output(1).empty())
      return fail() << "the mask output (a training output) is not supported";
    FailureOr<Value> x = input(0);
    if (failed(x))
      return failure();
    setOutput(0, *x);
    return success();
  }
  if (type == "Identity") {
    // Exporters alias shared weights through Identity: keep them known.
    if (const KnownTensor *tensor = getKnown(0)) {
      known[current.output(0)] = *tensor;
      return success();
    }
    FailureOr<Value> x = input(0);
    if (failed(x))
      return failure();
    setOutput(0, *x);
    return success();
  }
  if (type == "Constant")
    return importConstant();
  if (type == "QuantizeLinear" || type == "DequantizeLinear")
    return importQuantize(type == "QuantizeLinear");
  return fail() << "unsupported op type";
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

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

} // namespace

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
  Importer importer(context, modelPath, options);
  return importer.run(model);
}

} // namespace prec
