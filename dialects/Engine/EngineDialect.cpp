//===- EngineDialect.cpp - the engine plan --------------------------------===//

#include "dialects/Engine/EngineDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace prec::engine;

#include "dialects/Engine/EngineDialect.cpp.inc"
#include "dialects/Engine/EngineEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Engine/EngineAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Engine/EngineOps.cpp.inc"

void EngineDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Engine/EngineAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Engine/EngineOps.cpp.inc"
      >();
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

AttentionOp::Sizes AttentionOp::getMatrixSizes() {
  if (std::optional<ArrayRef<int64_t>> sizes = getSizes())
    return {(*sizes)[0], (*sizes)[1], (*sizes)[2], (*sizes)[3], (*sizes)[4]};
  ArrayRef<int64_t> query = shapeOf(getQuery());
  return {query[0], query[1], shapeOf(getKeys())[2], query[2],
          shapeOf(getValues())[2]};
}

/// Element strides of (batch, head, row, column): `strides`, or those of
/// a contiguous [N, rows, columns].
static SmallVector<int64_t, 4>
getLayout(std::optional<ArrayRef<int64_t>> strides, int64_t heads, int64_t rows,
          int64_t columns) {
  if (strides)
    return SmallVector<int64_t, 4>(*strides);
  return {heads * rows * columns, rows * columns, columns, 1};
}

SmallVector<int64_t, 4> AttentionOp::getQueryLayout() {
  Sizes sizes = getMatrixSizes();
  return getLayout(getQueryStrides(), getHeads(), sizes.sq, sizes.d);
}
SmallVector<int64_t, 4> AttentionOp::getKeysLayout() {
  Sizes sizes = getMatrixSizes();
  return getLayout(getKeysStrides(), getHeads(), sizes.d, sizes.sk);
}
SmallVector<int64_t, 4> AttentionOp::getValuesLayout() {
  Sizes sizes = getMatrixSizes();
  return getLayout(getValuesStrides(), getHeads(), sizes.sk, sizes.dv);
}
SmallVector<int64_t, 4> AttentionOp::getResultLayout() {
  Sizes sizes = getMatrixSizes();
  return getLayout(getResultStrides(), getHeads(), sizes.sq, sizes.dv);
}

/// Whether the offsets that indices of `sizes` reach by `strides` are all
/// distinct: sorted by stride, each stride passes what the smaller reach.
static bool isOneToOne(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  SmallVector<std::pair<int64_t, int64_t>, 4> parts;
  for (auto [size, stride] : llvm::zip_equal(sizes, strides))
    if (size > 1)
      parts.push_back({stride, size});
  llvm::sort(parts);
  int64_t reach = 0;
  for (auto [stride, size] : parts) {
    if (stride <= reach)
      return false;
    reach += (size - 1) * stride;
  }
  return true;
}

/// Checks one operand (or the result) of an attention: unstrided, it has
/// the matrices' shape; strided, its rows hold contiguous columns (or, for
/// keys, either way round), every element the strides reach is in it, and
/// the result's elements each have a place of their own.
static LogicalResult
verifyOperandLayout(AttentionOp op, StringRef name, Value value,
                    std::optional<ArrayRef<int64_t>> strides,
                    ArrayRef<int64_t> matrixShape, int64_t headsRead) {
  ArrayRef<int64_t> shape = shapeOf(value);
  if (!strides) {
    if (shape != matrixShape)
      return op.emitOpError("has inconsistent shapes: query [N, Sq, D], keys "
                            "[N, D, Sk], values [N, Sk, Dv], result "
                            "[N, Sq, Dv]; ")
             << name << " is [" << llvm::make_range(shape.begin(), shape.end())
             << "]";
    return success();
  }
  std::string whose = (name + (name.ends_with("s") ? "'" : "'s")).str();
  if (strides->size() != 4 ||
      !cast<RankedTensorType>(value.getType()).hasStaticShape())
    return op.emitOpError() << "needs 4 strides (batch, head, row, column) for "
                            << name << ", stored with a static shape";
  if (llvm::any_of(*strides, [](int64_t s) { return s < 0; }))
    return op.emitOpError() << "has a negative stride for " << name;
  bool keys = name == "keys";
  int64_t rowStride = (*strides)[2], columnStride = (*strides)[3];
  if (columnStride != 1 && !(keys && rowStride == 1))
    return op.emitOpError()
           << "needs " << whose << (keys ? " rows or columns" : " columns")
           << " stored contiguously";
  int64_t batch = matrixShape[0] / static_cast<int64_t>(op.getHeads());
  int64_t reach =
      (batch - 1) * (*strides)[0] + (headsRead - 1) * (*strides)[1] +
      (matrixShape[1] - 1) * rowStride + (matrixShape[2] - 1) * columnStride;
  if (reach >= ShapedType::getNumElements(shape))
    return op.emitOpError()
           << "reads " << name << " past its end through its strides";
  if (name == "result" &&
      !isOneToOne({batch, headsRead, matrixShape[1], matrixShape[2]}, *strides))
    return op.emitOpError("writes two elements of the result to one place");
  return success();
}

/// A quantized attention runs on tensor cores, in i8 or an f8 type, with
/// finite, nonzero f32 factors.
static LogicalResult verifyQuantization(AttentionOp op) {
  AttentionQuantizationAttr quantization = op.getQuantizationAttr();
  if (!quantization)
    return success();
  Type type = quantization.getType();
  if (!AttentionOp::isQuantizationType(type))
    return op.emitOpError("quantizes only to i8, f8E4M3FN or f8E5M2, not ")
           << type;
  if (type.isSignlessInteger(8) && !quantization.getNormalized())
    return op.emitOpError("quantizes i8 probabilities only normalized");
  if (op.getKernel() != AttentionKernel::TensorCores)
    return op.emitOpError("quantizes only on tensor cores");
  for (FloatAttr factor :
       {quantization.getQuery(), quantization.getKeys(),
        quantization.getValues(), quantization.getProbabilities(),
        quantization.getScores(), quantization.getResult()})
    if (!factor || !factor.getType().isF32() ||
        !factor.getValue().isFiniteNonZero())
      return op.emitOpError("needs finite, nonzero f32 quantization factors");
  return success();
}

/// query_factor and keys_factor: values of the query's element type, on
/// tensor cores, not with quantization.
static LogicalResult verifyOperandFactors(AttentionOp op) {
  Type element = getElementTypeOrSelf(op.getQuery().getType());
  for (std::optional<APFloat> factor :
       {op.getQueryFactor(), op.getKeysFactor()}) {
    if (!factor)
      continue;
    if (op.getKernel() != AttentionKernel::TensorCores ||
        op.getQuantizationAttr())
      return op.emitOpError("scales its query and keys only on tensor "
                            "cores, without quantization");
    APFloat narrowed = *factor;
    bool losesInfo = true;
    if (auto type = dyn_cast<FloatType>(element))
      narrowed.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                       &losesInfo);
    if (!factor->isFinite() || losesInfo)
      return op.emitOpError("needs query and keys factors that are finite "
                            "values of ")
             << element;
  }
  return success();
}

LogicalResult AttentionOp::verify() {
  bool strided = getQueryStrides() || getKeysStrides() || getValuesStrides() ||
                 getResultStrides();
  if (getSizes()
          ? getSizes()->size() != 5 ||
                llvm::any_of(*getSizes(), [](int64_t s) { return s < 1; })
          : strided)
    return emitOpError("needs sizes [N, Sq, Sk, D, Dv], each at least 1, with "
                       "strided operands");
  if (!getSizes() &&
      llvm::any_of(ValueRange{getQuery(), getKeys(), getValues(), getResult()},
                   [](Value v) { return shapeOf(v).size() != 3; }))
    return emitOpError("needs rank-3 query [N, Sq, D], keys [N, D, Sk], "
                       "values [N, Sk, Dv] and result [N, Sq, Dv]");
  auto [n, sq, sk, d, dv] = getMatrixSizes();
  // The attribute is signless; a value past INT64_MAX reads as negative.
  auto heads = static_cast<int64_t>(getHeads());
  if (heads < 1 || (!ShapedType::isDynamic(n) && n % heads != 0))
    return emitOpError("needs heads (")
           << heads << ") to divide N (" << n << ")";
  auto group = static_cast<int64_t>(getKvGroup());
  if (group < 1 || heads % group != 0)
    return emitOpError("needs kv_group (")
           << group << ") to divide heads (" << heads << ")";
  if (group > 1 && (!getKeysStrides() || !getValuesStrides()))
    return emitOpError("needs strided keys and values to share them "
                       "between heads");
  if (failed(verifyOperandLayout(*this, "query", getQuery(), getQueryStrides(),
                                 {n, sq, d}, heads)) ||
      failed(verifyOperandLayout(*this, "keys", getKeys(), getKeysStrides(),
                                 {n, d, sk}, heads / group)) ||
      failed(verifyOperandLayout(*this, "values", getValues(),
                                 getValuesStrides(), {n, sk, dv},
                                 heads / group)) ||
      failed(verifyOperandLayout(*this, "result", getResult(),
                                 getResultStrides(), {n, sq, dv}, heads)))
    return failure();
  if (Value mask = getMask()) {
    ArrayRef<int64_t> shape = shapeOf(mask);
    int64_t batch = ShapedType::isDynamic(n) ? n : n / heads;
    int64_t expected[] = {batch, heads, sq, sk};
    if (shape.size() != 4 ||
        llvm::any_of(llvm::seq<size_t>(0, 4), [&](size_t i) {
          return shape[i] != 1 && shape[i] != expected[i];
        }))
      return emitOpError("needs a mask that broadcasts to [")
             << expected[0] << ", " << expected[1] << ", " << sq << ", " << sk
             << "]";
  } else if (getMaskFirst()) {
    return emitOpError("has mask_first without a mask");
  }
  Type element = getElementTypeOrSelf(getQuery().getType());
  Type resultElement = getElementTypeOrSelf(getResult().getType());
  if (getResultScale().has_value() != bool(getUnscaledType()))
    return emitOpError("needs result_scale and unscaled_type together");
  if (std::optional<APFloat> scale = getResultScale();
      scale && !scale->isFiniteNonZero())
    return emitOpError("needs a finite, nonzero result_scale");
  if (failed(verifyQuantization(*this)) || failed(verifyOperandFactors(*this)))
    return failure();
  if (getUnscaledType()) {
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(resultElement))
      return emitOpError("scales its result only into f8E4M3FN or f8E5M2, "
                         "not ")
             << resultElement;
    resultElement = *getUnscaledType();
  }
  for (Type type :
       {element, getElementTypeOrSelf(getKeys().getType()),
        getElementTypeOrSelf(getValues().getType()), resultElement,
        getMask() ? getElementTypeOrSelf(getMask().getType()) : element,
        getScoreType(), getScaledType(), getMaskedType()})
    if (!isComputeType(type))
      return emitOpError("computes in f32, f16 or bf16, not ") << type;
  if (getElementTypeOrSelf(getKeys().getType()) != element)
    return emitOpError("needs query and keys of one element type");
  if (getKernel() == AttentionKernel::TensorCores &&
      !fitsTensorCores(element, getElementTypeOrSelf(getValues().getType()), d,
                       dv))
    return emitOpError("cannot run on tensor cores: needs f16 or bf16 "
                       "query, keys and values, and head sizes that are "
                       "multiples of 16 up to 128");
  if (getKernel() == AttentionKernel::CudaCores && !fitsCudaCoreTiles(d, dv))
    return emitOpError("cannot run on tiled CUDA cores: needs a head size "
                       "up to 128 and a value head size that is a multiple "
                       "of 16 up to 128");
  std::optional<uint64_t> queryRows = getQueryRows();
  if (getKernel() == AttentionKernel::TensorCores &&
      (!queryRows || (*queryRows != 64 && *queryRows != 128)))
    return emitOpError("needs query_rows of 64 or 128 on tensor cores");
  if (getKernel() != AttentionKernel::TensorCores && queryRows)
    return emitOpError("takes query_rows only on tensor cores");
  if (getSkipMaskedKeys() &&
      !canSkipMaskedKeys(getKernel(), getMask(), getMaskFirst(),
                         getScale().convertToDouble()))
    return emitOpError("skips masked keys only on tensor cores, with a mask "
                       "of static shape that is not scaled");
  return success();
}

/// engine.epilogue: a matmul's steps (scale, bias, convert) or a
/// convolution's ReLU.
static LogicalResult verifyEpilogue(Operation *op, StringRef name,
                                    Attribute value) {
  auto epilogue = dyn_cast<EpilogueAttr>(value);
  if (!epilogue)
    return op->emitError() << "'" << name
                           << "' must be a #engine.epilogue, got " << value;
  StringRef opName = op->getName().getStringRef();
  if (opName == "tosa.matmul" &&
      !bitEnumContainsAny(epilogue.getValue(), Epilogue::Relu))
    return success();
  if (opName == "tosa.conv2d" && epilogue.getValue() == Epilogue::Relu)
    return success();
  return op->emitError() << "'" << name
                         << "' is scale, bias and convert on a tosa.matmul, or "
                            "relu on a tosa.conv2d, not "
                         << value << " on '" << op->getName() << "'";
}

/// engine.stored_transposed: a unit attribute of a rank-3 tosa.const;
/// engine.padded_depth: at least the elements of a row of a tosa.const.
static LogicalResult verifyWeightLayout(Operation *op, StringRef name,
                                        Attribute value) {
  auto type = op->getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                  : RankedTensorType();
  if (op->getName().getStringRef() != "tosa.const" || !type ||
      !type.hasStaticShape() || type.getRank() < 2 ||
      type.getNumElements() == 0)
    return op->emitError() << "'" << name
                           << "' belongs on a statically shaped, non-empty "
                              "tosa.const of rank 2 or more";
  if (name == EngineDialect::StoredTransposedAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) || type.getRank() != 3)
      return op->emitError() << "'" << name
                             << "' is a unit attribute of a [batch, K, N] "
                                "constant";
    return success();
  }
  auto depth = dyn_cast<IntegerAttr>(value);
  int64_t rowElements = type.getNumElements() / type.getDimSize(0);
  if (!depth || !depth.getType().isInteger(64) || depth.getInt() < rowElements)
    return op->emitError() << "'" << name << "' must be an i64 of at least "
                           << rowElements << " (a row's elements), got "
                           << value;
  return success();
}

LogicalResult EngineDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == ConvAlgorithmAttrHelper::getNameStr()) {
    if (!isa<ConvAlgorithmAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a #engine.conv_algorithm, got "
             << attr.getValue();
    if (op->getName().getStringRef() != "tosa.conv2d")
      return op->emitError()
             << "'" << name << "' belongs on a tosa.conv2d, not on '"
             << op->getName() << "'";
    return success();
  }
  if (name == KernelAttrHelper::getNameStr()) {
    auto kernel = dyn_cast<KernelAttr>(attr.getValue());
    if (!kernel)
      return op->emitError()
             << "'" << name << "' must be a #engine.kernel, got "
             << attr.getValue();
    if (kernel.getIndex() < 0)
      return op->emitError() << "'" << name << "' has a negative index";
    return success();
  }
  if (name == EpilogueAttrHelper::getNameStr())
    return verifyEpilogue(op, name, attr.getValue());
  if (name == BatchedInputsAttrHelper::getNameStr()) {
    if (!isa<DenseI64ArrayAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "func.func")
      return op->emitError() << "'" << name
                             << "' must be array<i64: argument indices> on a "
                                "func.func";
    return success();
  }
  if (name == ReadThroughAttrHelper::getNameStr()) {
    StringRef opName = op->getName().getStringRef();
    if (!isa<UnitAttr>(attr.getValue()) ||
        (opName != "tosa.transpose" && opName != "tosa.cast" &&
         opName != "tosa.slice"))
      return op->emitError() << "'" << name
                             << "' is a unit attribute of a tosa.transpose, "
                                "tosa.cast or tosa.slice";
    return success();
  }
  if (name == MetLowerBoundAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "tosa.clamp" ||
        !isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
      return op->emitError()
             << "'" << name << "' is a unit attribute of a float tosa.clamp";
    return success();
  }
  if (name == StoredTransposedAttrHelper::getNameStr() ||
      name == PaddedDepthAttrHelper::getNameStr())
    return verifyWeightLayout(op, name, attr.getValue());
  if (name == BlockThreadsAttrHelper::getNameStr()) {
    auto threads = dyn_cast<IntegerAttr>(attr.getValue());
    if (!threads || !threads.getType().isInteger(64) || threads.getInt() < 32 ||
        threads.getInt() > 1024 || threads.getInt() % 32 != 0)
      return op->emitError()
             << "'" << name << "' must be whole warps, 32 to 1024 (i64), got "
             << attr.getValue();
    return success();
  }
  if (name == VectorBytesAttrHelper::getNameStr()) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    // Copy ops and the last ops of elementwise and row kernels take it: ops
    // with one tensor result.
    if (!bytes || !bytes.getType().isInteger(64) ||
        !llvm::is_contained({4, 8, 16}, bytes.getInt()) ||
        op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return op->emitError() << "'" << name
                             << "' must be 4, 8 or 16 (i64) on an op with "
                                "one tensor result";
    return success();
  }
  if (name == IndexBitwidthAttrHelper::getNameStr()) {
    auto bits = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bits || !bits.getType().isInteger(64) ||
        (bits.getInt() != 32 && bits.getInt() != 64) ||
        op->getName().getStringRef() != "func.func")
      return op->emitError()
             << "'" << name << "' must be 32 or 64 (i64) on a func.func";
    return success();
  }
  if (name == ArenaOffsetAttrHelper::getNameStr() ||
      name == BatchDimAttrHelper::getNameStr() ||
      name == ColumnsOffsetAttrHelper::getNameStr() ||
      name == ArenaBytesAttrHelper::getNameStr()) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || !bytes.getType().isInteger(64) || bytes.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative i64, got "
             << attr.getValue();
    if ((name == ArenaBytesAttrHelper::getNameStr()) !=
        (op->getName().getStringRef() == "func.func"))
      return op->emitError()
             << "'" << name << "' does not belong on '" << op->getName() << "'";
    return success();
  }
  return op->emitError() << "unknown engine attribute '" << name << "'";
}
