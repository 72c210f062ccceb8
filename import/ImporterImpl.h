//===- ImporterImpl.h - the class shared by the op families ---*- C++ -*-===//
//
// The importer is one class: the model reader, graph values, attributes and
// building blocks live in OnnxImporter.cpp, the handlers of each op family
// in ops/, and OpTable.cpp maps op types to them. Internal to import/.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_IMPORT_IMPORTERIMPL_H
#define PREC_IMPORT_IMPORTERIMPL_H

#include "import/OnnxImporter.h"

#include "import/Elements.h"
#include "import/Folding.h"
#include "import/TensorReader.h"

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
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

namespace prec::onnx_import {

using namespace mlir;

class Importer {
public:
  Importer(MLIRContext *context, llvm::StringRef modelPath,
           const OnnxImportOptions &options)
      : context(context), builder(context), modelPath(modelPath.str()),
        options(options), location(UnknownLoc::get(context)) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

private:
  // The steps of run.
  LogicalResult checkVersions(const onnx::ModelProto &model);
  LogicalResult readInitializers(const onnx::GraphProto &graph);
  LogicalResult collectInputs(const onnx::GraphProto &graph,
                              SmallVectorImpl<Type> &types,
                              SmallVectorImpl<std::string> &names);
  FailureOr<Type> getInputType(const onnx::ValueInfoProto &info);
  func::FuncOp createMain(ArrayRef<Type> inputTypes,
                          ArrayRef<std::string> inputNames);
  LogicalResult importNodes(const onnx::GraphProto &graph);
  LogicalResult returnOutputs(func::FuncOp function,
                              const onnx::GraphProto &graph);
  LogicalResult cancelLayoutTransposes(ModuleOp module);

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

  // Tensors known at import time: input `index`'s data, decoded for
  // reading, or as held.
  std::optional<KnownTensor> getKnown(int index);
  ElementsAttr getKnownElements(int index);
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
  Value materializeKnown(ElementsAttr elements);

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
  static ArrayRef<int64_t> shapeOf(ElementsAttr elements) {
    return cast<RankedTensorType>(elements.getType()).getShape();
  }
  static Type elementOf(Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  }
  RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
  /// An op of type OpTy at the current node, by its typed builder.
  template <typename OpTy, typename... Args> Value build(Args &&...args) {
    return OpTy::create(builder, location, std::forward<Args>(args)...);
  }
  Value constShape(ArrayRef<int64_t> values);
  Value constant(ElementsAttr elements);
  Value constant(ArrayRef<int64_t> shape, Type element, ArrayRef<double> data);
  Value scalar(Type element, double value, int64_t rank);
  Value zeroPoint(Type element) { return constant({1}, element, {0.0}); }
  Value reshape(Value value, ArrayRef<int64_t> shape);
  Value transpose(Value value, ArrayRef<int32_t> permutation);
  Value toRank(Value value, int64_t rank);
  FailureOr<std::pair<Value, Value>> broadcastPair(Value a, Value b);
  /// OpTy on operands of equal rank that broadcast; comparisons give
  /// booleans, the others `element`.
  template <typename OpTy> Value binary(Value a, Value b, Type element) {
    if (llvm::is_one_of<OpTy, tosa::EqualOp, tosa::GreaterOp,
                        tosa::GreaterEqualOp>::value)
      element = builder.getI1Type();
    RankedTensorType type =
        tensorOf(*broadcastShapes(shapeOf(a), shapeOf(b)), element);
    if constexpr (std::is_same_v<OpTy, tosa::MulOp>)
      return build<OpTy>(type, a, b, constant({1}, builder.getI8Type(), {0.0}));
    else
      return build<OpTy>(type, a, b);
  }
  template <typename OpTy> Value unary(Value x) {
    if constexpr (std::is_same_v<OpTy, tosa::NegateOp>)
      return build<OpTy>(x.getType(), x, zeroPoint(elementOf(x)),
                         zeroPoint(elementOf(x)));
    else
      return build<OpTy>(x.getType(), x);
  }
  /// OpTy (a TOSA reduction) over each of `axes`, which are kept.
  template <typename OpTy> Value reduce(Value value, ArrayRef<int64_t> axes) {
    for (int64_t axis : axes) {
      SmallVector<int64_t> shape(shapeOf(value));
      shape[axis] = 1;
      value = build<OpTy>(tensorOf(shape, elementOf(value)), value,
                          builder.getI32IntegerAttr(axis));
    }
    return value;
  }
  Value mul(Value a, Value b);
  Value clampValue(Value value, double lo, double hi);
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

  // Op handlers, found by op type in one table (OpTable.cpp).
  struct OpHandler {
    using Handle = std::function<LogicalResult(Importer &, llvm::StringRef)>;
    int64_t sinceOpset;
    Handle handle;
  };
  static const llvm::StringMap<OpHandler> &getOpTable();
  LogicalResult importNode(const onnx::NodeProto &node);
  LogicalResult importDropout();
  LogicalResult importIdentity();
  FailureOr<bool> foldKnown();
  template <typename OpTy> static OpHandler::Handle binaryHandler(bool swapped);
  template <typename OpTy> static OpHandler::Handle unaryHandler();
  /// Inputs 0 and 1 of one element type, brought to one rank; swapped
  /// for Less(a, b) as Greater(b, a).
  FailureOr<std::pair<Value, Value>> binaryOperands(bool swapped);
  LogicalResult importDiv();
  LogicalResult importSqrt();
  LogicalResult importIsNaN();
  LogicalResult importSign();
  LogicalResult importMatMul();
  LogicalResult importGemm();
  LogicalResult importConv(bool transposed);
  /// A convolution's group and window, for two spatial dimensions.
  struct ConvWindow {
    int64_t group = 1;
    std::vector<int64_t> strides, dilations, pads, outputPadding;
  };
  FailureOr<ConvWindow> readConvWindow(int64_t spatialRank, bool transposed);
  FailureOr<Value> convolve2d(Value x, ElementsAttr weights, ConvWindow window,
                              bool transposed);
  FailureOr<ElementsAttr> convBias(int64_t outChannels, Type element);
  FailureOr<Value> transposedConvolve(Value nhwc, ElementsAttr weights,
                                      ElementsAttr bias,
                                      const ConvWindow &window);
  FailureOr<Value> forwardConvolve(Value nhwc, ElementsAttr weights,
                                   ElementsAttr bias, ConvWindow window);
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
  FailureOr<Value> knownRowOffsets(const KnownTensor &indices,
                                   ArrayRef<int64_t> indexed,
                                   std::vector<double> rows);
  FailureOr<Value> runtimeRowOffsets(Value indices, ArrayRef<int64_t> indexed,
                                     ArrayRef<double> batchRows);
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
  /// Reshapes built, by their input and shape: readers of one value in one
  /// shape (the Q, K and V Linears of one activation) share one.
  std::map<std::pair<const void *, std::vector<int64_t>>, Value> reshapes;
  /// Tensors known at import, each held once as its constant's data.
  llvm::StringMap<ElementsAttr> known;
};

} // namespace prec::onnx_import

#endif // PREC_IMPORT_IMPORTERIMPL_H
