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

FailureOr<std::vector<int64_t>> Importer::getKnownInts(int index,
                                                       llvm::StringRef what) {
  std::optional<KnownTensor> tensor = getKnown(index);
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
    ints.push_back(toInt64(value));
  }
  return ints;
}

std::optional<KnownTensor> Importer::getKnown(int index) {
  ElementsAttr elements = getKnownElements(index);
  if (!elements)
    return std::nullopt;
  return toKnownTensor(elements);
}

ElementsAttr Importer::getKnownElements(int index) {
  if (!hasInput(index))
    return nullptr;
  return known.lookup(node->input(index));
}

Value Importer::materializeKnown(ElementsAttr elements) {
  return constant(asConstantData(elements));
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
  } else if (ElementsAttr elements = known.lookup(name)) {
    value = materializeKnown(elements);
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

Value Importer::constShape(ArrayRef<int64_t> shapeValues) {
  auto type = RankedTensorType::get({int64_t(shapeValues.size())},
                                    builder.getIndexType());
  return build<tosa::ConstShapeOp>(
      tosa::shapeType::get(context, shapeValues.size()),
      DenseIntElementsAttr::get(type, shapeValues));
}

Value Importer::constant(ElementsAttr elements) {
  return build<tosa::ConstOp>(elements.getType(), elements);
}

Value Importer::constant(ArrayRef<int64_t> shape, Type element,
                         ArrayRef<double> data) {
  return constant(elementsFromDoubles(tensorOf(shape, element), data));
}

Value Importer::scalar(Type element, double value, int64_t rank) {
  return constant(SmallVector<int64_t>(rank, 1), element, {value});
}

/// The data of `value` when the importer made it a constant: reshapes and
/// transposes of weights then fold, so that passes see weights, not data
/// movement.
static ElementsAttr constantElements(Value value) {
  ElementsAttr elements;
  return matchPattern(value, m_Constant(&elements)) ? elements : nullptr;
}

Value Importer::reshape(Value value, ArrayRef<int64_t> shape) {
  if (shapeOf(value) == shape)
    return value;
  if (ElementsAttr elements = constantElements(value))
    return constant(reshapeElements(elements, shape));
  Value &built = reshapes[{value.getAsOpaquePointer(),
                           std::vector<int64_t>(shape.begin(), shape.end())}];
  if (!built || built.getParentBlock() != builder.getInsertionBlock())
    built = build<tosa::ReshapeOp>(tensorOf(shape, elementOf(value)), value,
                                   constShape(shape));
  return built;
}

Value Importer::transpose(Value value, ArrayRef<int32_t> permutation) {
  if (ElementsAttr elements = constantElements(value))
    return constant(transposeElements(elements, permutation));
  SmallVector<int64_t> result;
  for (int32_t axis : permutation)
    result.push_back(shapeOf(value)[axis]);
  return build<tosa::TransposeOp>(tensorOf(result, elementOf(value)), value,
                                  permutation);
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

Value Importer::mul(Value a, Value b) {
  return binary<tosa::MulOp>(a, b, elementOf(a));
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
  return build<tosa::ClampOp>(value.getType(), value, bound(lo), bound(hi));
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
  // Beside Shape and Size, which read only shapes, a node folds only when
  // every input is known: do not decode an embedding table next to
  // run-time ids for nothing.
  bool readsOnlyShapes =
      node->op_type() == "Shape" || node->op_type() == "Size";
  if (!readsOnlyShapes &&
      llvm::any_of(node->input(), [&](const std::string &name) {
        return !name.empty() && !known.count(name);
      }))
    return false;
  // The evaluator reads doubles: decode each known input it asks for, once.
  std::map<std::string, KnownTensor> decoded;
  auto knownTensor = [&](StringRef name) -> const KnownTensor * {
    ElementsAttr elements = known.lookup(name);
    if (!elements)
      return nullptr;
    return &decoded.try_emplace(name.str(), toKnownTensor(elements))
                .first->second;
  };
  auto staticShape =
      [&](StringRef name) -> std::optional<SmallVector<int64_t>> {
    if (ElementsAttr elements = known.lookup(name))
      return SmallVector<int64_t>(
          cast<RankedTensorType>(elements.getType()).getShape());
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
    known[node->output(index)] = toElements(tensor, context);
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
  const onnx::GraphProto &graph = model.graph();
  if (failed(checkVersions(model)) || failed(readInitializers(graph)))
    return nullptr;
  OwningOpRef<ModuleOp> module = ModuleOp::create(location);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> inputTypes;
  SmallVector<std::string> inputNames;
  if (failed(collectInputs(graph, inputTypes, inputNames)))
    return nullptr;
  func::FuncOp function = createMain(inputTypes, inputNames);
  if (failed(importNodes(graph)) || failed(returnOutputs(function, graph)) ||
      failed(verify(*module)) || failed(cancelLayoutTransposes(*module)))
    return nullptr;
  return module;
}

LogicalResult Importer::checkVersions(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
  if (model.ir_version() > 10)
    return failGraph() << "IR version " << model.ir_version()
                       << " is newer than prec supports (10)";
  if (opset < 13 || opset > 21)
    return failGraph() << "opset " << opset
                       << " is outside the supported 13 to 21";
  return success();
}

LogicalResult Importer::readInitializers(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &initializer : graph.initializer()) {
    FailureOr<ElementsAttr> elements =
        readTensor(initializer, modelPath, location);
    if (failed(elements))
      return failure();
    known[initializer.name()] = *elements;
  }
  return success();
}

/// Inputs: graph inputs that are not initializers, in graph order.
LogicalResult Importer::collectInputs(const onnx::GraphProto &graph,
                                      SmallVectorImpl<Type> &types,
                                      SmallVectorImpl<std::string> &names) {
  for (const auto &entry : options.inputShapes)
    if (llvm::none_of(graph.input(), [&](const onnx::ValueInfoProto &info) {
          return info.name() == entry.getKey() && !known.count(info.name());
        }))
      return failGraph() << "--input-shape names '" << entry.getKey()
                         << "', which is not an input of the model";
  for (const onnx::ValueInfoProto &info : graph.input()) {
    if (known.count(info.name()))
      continue;
    FailureOr<Type> type = getInputType(info);
    if (failed(type))
      return failure();
    types.push_back(*type);
    names.push_back(info.name());
  }
  return success();
}

/// An input's tensor type: its shape from --input-shape or the model.
FailureOr<Type> Importer::getInputType(const onnx::ValueInfoProto &info) {
  const onnx::TypeProto_Tensor &tensorType = info.type().tensor_type();
  Type element = getElementType(context, tensorType.elem_type());
  if (!element)
    return failGraph() << "input '" << info.name() << "' has data type "
                       << tensorType.elem_type()
                       << ", which prec does not import";
  SmallVector<int64_t> shape;
  auto override = options.inputShapes.find(info.name());
  if (override != options.inputShapes.end()) {
    shape.assign(override->second.begin(), override->second.end());
    if (int64_t(shape.size()) != tensorType.shape().dim_size())
      return failGraph() << "--input-shape gives " << info.name() << " rank "
                         << shape.size() << " but the model says "
                         << tensorType.shape().dim_size();
  } else {
    for (const auto &dim : tensorType.shape().dim()) {
      if (!dim.has_dim_value() || dim.dim_value() <= 0)
        return failGraph() << "input '" << info.name()
                           << "' has a dynamic dimension"
                           << (dim.has_dim_param()
                                   ? " '" + dim.dim_param() + "'"
                                   : std::string())
                           << "; give its shape with --input-shape "
                           << info.name() << ":1x3x224x224";
      shape.push_back(dim.dim_value());
    }
  }
  if (product(shape) > maxElements)
    return failGraph() << "input '" << info.name() << "' has more than "
                       << maxElements << " elements: too large to import";
  return Type(RankedTensorType::get(shape, element));
}

/// @main with the inputs as named arguments; the builder at its start.
func::FuncOp Importer::createMain(ArrayRef<Type> inputTypes,
                                  ArrayRef<std::string> inputNames) {
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
  return function;
}

/// Imports every node, or with --check-support lists the unsupported ones.
LogicalResult Importer::importNodes(const onnx::GraphProto &graph) {
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
      return failure();
  }
  if (options.checkSupport)
    return reportSupport(check, graph.node_size());
  return success();
}

/// Returns the graph's outputs and drops the constants that the folding of
/// reshapes and transposes left unused.
LogicalResult Importer::returnOutputs(func::FuncOp function,
                                      const onnx::GraphProto &graph) {
  location = FileLineColLoc::get(context, modelPath, 0, 0);
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it != values.end()) {
      results.push_back(it->second);
      continue;
    }
    ElementsAttr elements = known.lookup(output.name());
    if (!elements)
      return failGraph() << "output '" << output.name()
                         << "' is never produced";
    if (elements.getNumElements() == 0)
      return failGraph() << "output '" << output.name()
                         << "' is empty, which prec does not import";
    results.push_back(materializeKnown(elements));
  }
  func::ReturnOp::create(builder, location, results);
  function.setFunctionType(builder.getFunctionType(
      function.getArgumentTypes(),
      llvm::to_vector(
          llvm::map_range(results, [](Value v) { return v.getType(); }))));
  StringRef nameAttr = precision::PrecisionDialect::getNameAttrName();
  for (auto [index, output] : llvm::enumerate(graph.output()))
    function.setResultAttr(index, nameAttr,
                           builder.getStringAttr(output.name()));
  SmallVector<Operation *> unused;
  function.walk([&](Operation *op) {
    if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op) && op->use_empty())
      unused.push_back(op);
  });
  for (Operation *op : unused)
    op->erase();
  return success();
}

/// The NCHW <-> NHWC transposes around every convolution and pooling cancel
/// once pushed through the elementwise ops between them (upstream TOSA
/// pass): of ResNet-50's 110, the two at the bindings remain. A transpose
/// that names an ONNX tensor passes the name to its source first.
LogicalResult Importer::cancelLayoutTransposes(ModuleOp module) {
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
  return pm.run(module);
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
