//===- CudaEmitter.cpp - a legalized module as a CUDA engine --------------===//

#include "codegen/CudaEmitter.h"

#include "codegen/ArenaAllocator.h"
#include "codegen/BatchAnalysis.h"
#include "codegen/RowGroups.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"
#include "lowering/Pipelines.h"
#include "passes/OpNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <functional>
#include <numeric>

using namespace mlir;

namespace prec {

static std::string &engineOutputPath() {
  static std::string path;
  return path;
}

void setCudaEngineOutputPath(llvm::StringRef path) {
  engineOutputPath() = path.str();
}

namespace {

/// How an element type is stored and named on the device.
struct DeviceType {
  const char *cType;     // C type of an element
  const char *dtype;     // manifest / header name
  const char *toFloat;   // expression turning `x` into float
  const char *fromFloat; // expression turning float `x` into the type
  const char *cudaType;  // cudaDataType for cuBLASLt, or null
  int64_t bytes;
};

std::optional<DeviceType> getDeviceType(Type type) {
  if (type.isF32())
    return DeviceType{"float", "f32", "(x)", "(x)", "CUDA_R_32F", 4};
  if (type.isF16())
    return DeviceType{"__half",          "f16",
                      "__half2float(x)", "__float2half_rn(x)",
                      "CUDA_R_16F",      2};
  if (type.isBF16())
    return DeviceType{"__nv_bfloat16",       "bf16",
                      "__bfloat162float(x)", "__float2bfloat16_rn(x)",
                      "CUDA_R_16BF",         2};
  if (isa<Float8E4M3FNType>(type))
    return DeviceType{"__nv_fp8_e4m3",    "f8e4m3",         "float(x)",
                      "__nv_fp8_e4m3(x)", "CUDA_R_8F_E4M3", 1};
  if (isa<Float8E5M2Type>(type))
    return DeviceType{"__nv_fp8_e5m2",    "f8e5m2",         "float(x)",
                      "__nv_fp8_e5m2(x)", "CUDA_R_8F_E5M2", 1};
  if (type.isInteger(1))
    return DeviceType{"uint8_t",      "i1",
                      "((float)(x))", "((uint8_t)((x) != 0.0f))",
                      nullptr,        1};
  if (type.isInteger(8))
    return DeviceType{"int8_t",    "i8", "((float)(x))", "prec_saturate_i8(x)",
                      "CUDA_R_8I", 1};
  if (type.isInteger(32))
    return DeviceType{"int32_t",      "i32",
                      "((float)(x))", "prec_saturate_i32(x)",
                      "CUDA_R_32I",   4};
  return std::nullopt;
}

std::string substitute(llvm::StringRef pattern, llvm::StringRef value) {
  std::string result = pattern.str();
  size_t at = result.find('x');
  // Patterns hold one `x` standing for the operand.
  while (at != std::string::npos) {
    bool standalone = (at == 0 || !isalnum(result[at - 1])) &&
                      (at + 1 == result.size() || !isalnum(result[at + 1]));
    if (standalone) {
      result.replace(at, 1, value.str());
      at = result.find('x', at + value.size());
    } else {
      at = result.find('x', at + 1);
    }
  }
  return result;
}

/// A device buffer: an engine input or output binding, a weight, or an
/// activation in the arena.
/// Elements each thread of an elementwise or im2col kernel moves.
static constexpr int64_t elementwiseUnroll = 4;

/// Index spaces below this size (with room for a block's overrun) are
/// computed in 32 bits.
static constexpr int64_t narrowIndexLimit = (int64_t(1) << 31) - (1 << 20);

/// `kernels` with 32-bit indices: `long long` becomes `int` and integer
/// literals lose their `LL`. Kernels are written with 64-bit indices, but the
/// GPU emulates 64-bit division, which im2col and broadcast offsets do by
/// non-power-of-two extents (ResNet-50 b64 f16: 5.71 -> 5.21 ms).
static std::string narrowIndices(llvm::StringRef kernels) {
  std::string narrow;
  narrow.reserve(kernels.size());
  auto isIdentifierChar = [](char c) { return isalnum(c) || c == '_'; };
  for (size_t i = 0; i < kernels.size();) {
    bool atBoundary = i == 0 || !isIdentifierChar(kernels[i - 1]);
    if (atBoundary && kernels.substr(i).starts_with("long long") &&
        (i + 9 == kernels.size() || !isIdentifierChar(kernels[i + 9]))) {
      narrow += "int";
      i += 9;
      continue;
    }
    if (atBoundary && isdigit(kernels[i])) {
      size_t end = i;
      while (end < kernels.size() && isdigit(kernels[end]))
        ++end;
      narrow += kernels.slice(i, end);
      if (kernels.substr(end).starts_with("LL") &&
          (end + 2 == kernels.size() || !isIdentifierChar(kernels[end + 2])))
        end += 2;
      i = end;
      continue;
    }
    narrow += kernels[i++];
  }
  return narrow;
}

struct Buffer {
  enum class Kind { Input, Output, Weight, Activation } kind;
  int64_t offset = 0; // into the weights block or the arena; input index
  int64_t bytes = 0;
  std::string cType;
};

class CudaEmitter {
public:
  CudaEmitter(func::FuncOp function, llvm::StringRef stem,
              const CudaEngineOptions &options)
      : function(function), stem(stem.str()), options(options) {}

  LogicalResult emit(llvm::raw_ostream &cu, llvm::StringRef directory);

private:
  LogicalResult emitOp(Operation *op);
  LogicalResult analyzeBatch();
  /// The largest index space any kernel computes over.
  int64_t largestIndexSpace = 0;
  LogicalResult assignBuffer(Value value);
  void planBufferReleases();
  LogicalResult planGemmEpilogues();
  bool isFusedIntoUser(Operation *op) const;
  bool isGemmEpilogue(Operation *op) const;
  /// The op whose kernel computes `op`'s result (itself unless fused).
  Operation *getKernelOp(Operation *op) const;
  void releaseBuffersAfter(Operation *op);
  LogicalResult addWeight(Value value, ElementsAttr values);
  std::string pointer(Value value);
  std::string kernelName(Operation *op);
  void launch(Operation *op, const std::string &kernel, int64_t count,
              ArrayRef<Value> inputs, Value output,
              int64_t elementsPerThread = 1);
  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitMatmul(tosa::MatMulOp op);
  LogicalResult emitReduce(Operation *op, bool isMax);
  LogicalResult emitTranspose(tosa::TransposeOp op);
  int addGemmState();
  void emitCopyKernel(Operation *op, llvm::StringRef offsets);
  LogicalResult emitSlice(tosa::SliceOp op);
  LogicalResult emitConcat(tosa::ConcatOp op);
  LogicalResult emitTile(tosa::TileOp op);
  LogicalResult emitGather(tosa::GatherOp op);
  LogicalResult emitConv(Operation *op, bool depthwise);
  LogicalResult emitConvGemm(tosa::Conv2DOp op);
  LogicalResult emitCudnnConv(tosa::Conv2DOp op, Value destination);
  bool prefersCudnn(int64_t rows, int64_t channels, int64_t depth) const;
  LogicalResult emitPool(Operation *op, bool isMax);
  LogicalResult emitRowGroup(const RowGroup &group);
  LogicalResult unsupported(Operation *op, const llvm::Twine &why);

  static ArrayRef<int64_t> shapeOf(Value value) {
    return cast<RankedTensorType>(value.getType()).getShape();
  }
  static int64_t countOf(Value value) {
    ArrayRef<int64_t> shape = shapeOf(value);
    return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }
  static DeviceType typeOf(Value value) {
    return *getDeviceType(getElementTypeOrSelf(value.getType()));
  }

  bool isBatched(Value value) const {
    return batchAnalysis && batchAnalysis->isBatched(value);
  }
  /// How many of `count` elements (at the largest batch) of `value` there
  /// are when the engine runs: fewer at a smaller batch.
  std::string runtimeCount(Value value, int64_t count) const;
  /// A kernel's bound on its index space over `value`: a literal, or
  /// `extent`, a
  /// parameter (countParameter), when it scales with the batch.
  std::string kernelBound(Value value, int64_t count) const {
    return isBatched(value) ? "extent" : std::to_string(count) + "LL";
  }
  /// The blocks of `perBlock` elements covering `count` elements of `value`
  /// (at the largest batch) when the engine runs.
  std::string blocksFor(Value value, int64_t count, int64_t perBlock) const;
  std::string countParameter(Value value) const {
    return isBatched(value) ? ", long long extent" : "";
  }

  func::FuncOp function;
  std::string stem;
  CudaEngineOptions options;
  /// Set for an engine with a dynamic batch (the module is at its largest).
  std::optional<BatchRange> batchRange;
  std::optional<BatchAnalysis> batchAnalysis;
  /// Per GEMM, run when the batch changes: its layouts' batch-dependent
  /// sizes, then its algorithm for them.
  std::string resizeCode;
  llvm::DenseMap<Value, Buffer> buffers;
  /// GEMMs with an epilogue (bias, ReLU, conversion), keyed by the op at
  /// which they run: the last op of the epilogue.
  llvm::DenseMap<Operation *, Operation *> gemmAt;
  /// The GEMM, its other epilogue ops and a bias's widening it reads
  /// through, mapped to the op at which that GEMM runs.
  llvm::DenseMap<Operation *, Operation *> performedBy;
  /// Weights stored transposed for the GEMMs that read them (as B, op T).
  llvm::DenseSet<Value> transposedWeights;
  std::vector<RowGroup> rowGroups;
  llvm::DenseMap<Operation *, const RowGroup *> rowGroupOf;
  /// Values computed straight into an output binding (its index).
  llvm::DenseMap<Value, int64_t> outputBindings;
  std::vector<char> weights;
  std::vector<std::pair<int64_t, int64_t>> weightEntries; // offset, bytes
  ArenaAllocator arena;
  /// The activation buffers whose last reader is the kernel of an op.
  llvm::DenseMap<Operation *, llvm::SmallVector<Value>> releasesAfter;
  int64_t workspaceBytes = 0;
  int kernelCount = 0;
  std::string kernels;     // __global__ functions
  std::string createCode;  // per-engine set-up (cuBLASLt descriptors)
  std::string releaseCode; // what create set up, destroyed
  std::string runCode;     // launches, in order
  std::string stateFields;
  bool hasGemms = false;
  bool usesCudnn = false;
  llvm::json::Array opRecords;
};

LogicalResult CudaEmitter::unsupported(Operation *op, const llvm::Twine &why) {
  return op->emitError() << "the CUDA emitter cannot generate '"
                         << op->getName() << "': " << why;
}

LogicalResult CudaEmitter::addWeight(Value value, ElementsAttr values) {
  DeviceType type = typeOf(value);
  int64_t bytes = countOf(value) * type.bytes;
  std::vector<char> data(bytes);
  // A GEMM that needs its B operand transposed (i8, f8) reads a weight
  // [batch, K, N] stored as [batch, N, K].
  auto store = [&]() {
    if (!transposedWeights.contains(value))
      return data;
    ArrayRef<int64_t> shape = shapeOf(value);
    int64_t k = shape[1], n = shape[2];
    std::vector<char> transposed(bytes);
    for (int64_t b = 0; b < shape[0]; ++b)
      for (int64_t row = 0; row < k; ++row)
        for (int64_t column = 0; column < n; ++column)
          std::memcpy(transposed.data() +
                          ((b * n + column) * k + row) * type.bytes,
                      data.data() + ((b * k + row) * n + column) * type.bytes,
                      type.bytes);
    return transposed;
  };
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(values)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || int64_t(blob->getData().size()) != bytes)
      return value.getDefiningOp()->emitError()
             << "weight blob has no data of " << bytes << " bytes";
    std::memcpy(data.data(), blob->getData().data(), bytes);
  } else if (auto dense = dyn_cast<DenseElementsAttr>(values)) {
    int64_t index = 0;
    Type element = dense.getElementType();
    for (int64_t i = 0, e = countOf(value); i < e; ++i) {
      APInt bits = isa<FloatType>(element)
                       ? dense.getValues<APFloat>()[dense.isSplat() ? 0 : i]
                             .bitcastToAPInt()
                       : dense.getValues<APInt>()[dense.isSplat() ? 0 : i];
      uint64_t raw =
          element.isInteger(1) ? bits.getZExtValue() & 1 : bits.getZExtValue();
      std::memcpy(data.data() + index, &raw, type.bytes);
      index += type.bytes;
    }
  } else {
    return value.getDefiningOp()->emitError()
           << "constant of an unsupported kind";
  }
  data = store();
  int64_t offset = (weights.size() + 255) / 256 * 256;
  weights.resize(offset);
  weights.insert(weights.end(), data.begin(), data.end());
  weightEntries.emplace_back(offset, bytes);
  buffers[value] = Buffer{Buffer::Kind::Weight, offset, bytes, type.cType};
  return success();
}

LogicalResult CudaEmitter::assignBuffer(Value value) {
  auto tensorType = dyn_cast<RankedTensorType>(value.getType());
  if (!tensorType || !tensorType.hasStaticShape())
    return value.getDefiningOp()->emitError()
           << "the CUDA emitter needs statically shaped tensors";
  std::optional<DeviceType> type = getDeviceType(tensorType.getElementType());
  if (!type)
    return value.getDefiningOp()->emitError()
           << "the CUDA emitter cannot store " << tensorType.getElementType();
  int64_t bytes = countOf(value) * type->bytes;
  // A result the function returns is written straight into its binding.
  if (auto it = outputBindings.find(value); it != outputBindings.end()) {
    buffers[value] =
        Buffer{Buffer::Kind::Output, it->second, bytes, type->cType};
    return success();
  }
  buffers[value] = Buffer{Buffer::Kind::Activation, arena.allocate(bytes),
                          bytes, type->cType};
  return success();
}

std::string CudaEmitter::pointer(Value value) {
  const Buffer &buffer = buffers.lookup(value);
  std::string base;
  switch (buffer.kind) {
  case Buffer::Kind::Input:
  case Buffer::Kind::Output:
    base = llvm::formatv("bindings[{0}]", buffer.offset);
    break;
  case Buffer::Kind::Weight:
    base = llvm::formatv("(e->weights + {0})", buffer.offset);
    break;
  case Buffer::Kind::Activation:
    base = llvm::formatv("(e->arena + {0})", buffer.offset);
    break;
  }
  return llvm::formatv("(({0} *){1})", buffer.cType, base);
}

std::string CudaEmitter::kernelName(Operation *op) {
  std::string name = "k" + std::to_string(kernelCount++) + "_";
  for (char c : op->getName().stripDialect())
    name += isalnum(c) ? c : '_';
  return name;
}

std::string CudaEmitter::runtimeCount(Value value, int64_t count) const {
  if (!isBatched(value))
    return std::to_string(count) + "LL";
  return llvm::formatv("{0}LL * e->batch", count / batchRange->max);
}

std::string CudaEmitter::blocksFor(Value value, int64_t count,
                                   int64_t perBlock) const {
  if (!isBatched(value))
    return std::to_string((count + perBlock - 1) / perBlock);
  if (perBlock == 1)
    return "(int)(" + runtimeCount(value, count) + ")";
  return llvm::formatv("(int)(({0} + {1}) / {2})", runtimeCount(value, count),
                       perBlock - 1, perBlock);
}

void CudaEmitter::launch(Operation *op, const std::string &kernel,
                         int64_t count, ArrayRef<Value> inputs, Value output,
                         int64_t elementsPerThread) {
  std::string layer = getLayerName(op);
  runCode += llvm::formatv("  // {0}{1}\n", op->getName(),
                           layer.empty() ? "" : " '" + layer + "'");
  int64_t perBlock = 256 * elementsPerThread;
  runCode += llvm::formatv("  {0}<<<{1}, 256, 0, stream>>>(", kernel,
                           blocksFor(output, count, perBlock));
  for (Value input : inputs)
    runCode += pointer(input) + ", ";
  runCode += pointer(output);
  if (isBatched(output))
    runCode += ", " + runtimeCount(output, count);
  runCode += ");\n";
}

/// `coordinate * stride` terms turning an output index into the offset of an
/// operand of shape `operand` broadcast to `result`.
std::string broadcastOffsets(ArrayRef<int64_t> result,
                             ArrayRef<ArrayRef<int64_t>> operands) {
  // An operand of the result's shape is read at `i`, one of a single element
  // at 0; only the others need the coordinates.
  std::string code;
  SmallVector<size_t> broadcast;
  for (auto [n, shape] : llvm::enumerate(operands)) {
    bool single = llvm::all_of(shape, [](int64_t d) { return d == 1; });
    code += llvm::formatv("    long long o{0} = {1};\n", n,
                          shape == result ? "i" : "0");
    if (shape != result && !single)
      broadcast.push_back(n);
  }
  if (broadcast.empty())
    return code;
  code += "    long long rem = i;\n";
  SmallVector<int64_t> strides(operands.size(), 1);
  auto isRead = [&](int64_t d) {
    return llvm::any_of(broadcast,
                        [&](size_t n) { return operands[n][d] != 1; });
  };
  for (int64_t d = int64_t(result.size()) - 1; d >= 0; --d) {
    // A unit dimension has coordinate 0: nothing to add.
    if (result[d] == 1)
      continue;
    bool outerRead = false;
    for (int64_t outer = 0; outer < d; ++outer)
      outerRead |= result[outer] != 1 && isRead(outer);
    if (!isRead(d)) {
      if (!outerRead)
        break;
      code += llvm::formatv("    rem /= {0}LL;\n", result[d]);
      continue;
    }
    code += llvm::formatv("    {{ long long c = rem % {0}LL;", result[d]);
    for (size_t n : broadcast) {
      if (operands[n][d] != 1)
        code += llvm::formatv(" o{0} += c * {1}LL;", n, strides[n]);
      strides[n] *= operands[n][d];
    }
    code += outerRead ? llvm::formatv(" rem /= {0}LL; }\n", result[d]).str()
                      : std::string(" }\n");
  }
  return code;
}

/// A float literal for a constant whose elements are all one value, so that
/// kernels need not load it (the GELU's 0.5, LayerNorm's epsilon).
static std::optional<std::string> getSplatLiteral(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isa<tosa::ConstOp, arith::ConstantOp>(def))
    return std::nullopt;
  auto values = dyn_cast<DenseElementsAttr>(
      def->getAttr(isa<tosa::ConstOp>(def) ? "values" : "value"));
  if (!values || !values.isSplat() || !isa<FloatType>(values.getElementType()))
    return std::nullopt;
  APFloat element = values.getSplatValue<APFloat>();
  bool losesInfo = false;
  element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  float number = element.convertToFloat();
  if (std::isnan(number))
    return std::string("NAN");
  if (std::isinf(number))
    return std::string(number < 0 ? "-INFINITY" : "INFINITY");
  // Hexadecimal: exact, whatever the value.
  char text[64];
  std::snprintf(text, sizeof(text), "%af", double(number));
  return std::string(text);
}

/// The data operands of an elementwise op (not tosa.mul's shift nor
/// negate's zero points).
static SmallVector<Value> dataOperands(Operation *op) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      operands.push_back(operand);
  if (isa<tosa::MulOp>(op))
    operands.resize(2);
  if (isa<tosa::NegateOp>(op))
    operands.resize(1);
  return operands;
}

/// The float expression an elementwise op computes, with $0, $1, $2 for its
/// data operands (as floats); empty for ops that are not elementwise.
static std::string elementwiseExpression(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::string>(op)
      // Rounded intrinsics: nvcc never contracts them into FMAs, so fused
      // kernels round after every op as the CPU path does.
      .Case<tosa::AddOp>([](auto) { return "__fadd_rn($0, $1)"; })
      .Case<tosa::SubOp>([](auto) { return "__fsub_rn($0, $1)"; })
      .Case<tosa::MulOp>([](auto) { return "__fmul_rn($0, $1)"; })
      .Case<arith::DivFOp>([](auto) { return "__fdiv_rn($0, $1)"; })
      .Case<tosa::MaximumOp>([](auto) { return "fmaxf($0, $1)"; })
      .Case<tosa::MinimumOp>([](auto) { return "fminf($0, $1)"; })
      .Case<tosa::PowOp>([](auto) { return "powf($0, $1)"; })
      .Case<tosa::AbsOp>([](auto) { return "fabsf($0)"; })
      .Case<tosa::NegateOp>([](auto) { return "-$0"; })
      .Case<tosa::ExpOp>([](auto) { return "expf($0)"; })
      .Case<tosa::LogOp>([](auto) { return "logf($0)"; })
      .Case<tosa::TanhOp>([](auto) { return "tanhf($0)"; })
      .Case<tosa::SigmoidOp>([](auto) { return "1.0f / (1.0f + expf(-$0))"; })
      .Case<tosa::ErfOp>([](auto) { return "erff($0)"; })
      .Case<tosa::ReciprocalOp>([](auto) { return "1.0f / $0"; })
      .Case<tosa::RsqrtOp>([](auto) { return "1.0f / sqrtf($0)"; })
      .Case<math::SqrtOp>([](auto) { return "sqrtf($0)"; })
      .Case<tosa::FloorOp>([](auto) { return "floorf($0)"; })
      .Case<tosa::CeilOp>([](auto) { return "ceilf($0)"; })
      .Case<tosa::SelectOp>([](auto) { return "$0 != 0.0f ? $1 : $2"; })
      .Case<tosa::GreaterEqualOp>([](auto) { return "$0 >= $1"; })
      .Case<tosa::GreaterOp>([](auto) { return "$0 > $1"; })
      .Case<tosa::EqualOp>([](auto) { return "$0 == $1"; })
      .Case<tosa::CastOp, precision::CastOp>([](auto) { return "$0"; })
      .Case<tosa::ClampOp>([](tosa::ClampOp clamp) {
        auto bound = [](Attribute attr) {
          double value = isa<FloatAttr>(attr)
                             ? cast<FloatAttr>(attr).getValueAsDouble()
                             : double(cast<IntegerAttr>(attr).getInt());
          if (std::isinf(value))
            return std::string(value < 0 ? "-INFINITY" : "INFINITY");
          return llvm::formatv("{0:e}f", value).str();
        };
        return llvm::formatv("fminf(fmaxf($0, {0}), {1})",
                             bound(clamp.getMinValAttr()),
                             bound(clamp.getMaxValAttr()))
            .str();
      })
      .Default([](Operation *) { return std::string(); });
}

/// The value whose buffer `value` uses: reshapes and identities alias their
/// input's.
static Value getStorageRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tosa::ReshapeOp, tosa::IdentityOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// What cuBLASLt computes after a matmul's product (its epilogue), and the
/// ops of the program that this covers.
struct MatmulEpilogue {
  Operation *scale = nullptr;        // multiplies by a constant: alpha
  std::string alpha;                 // that constant, a float literal
  Operation *biasAdd = nullptr;      // adds a row bias in the accumulator type
  Value bias;                        // that bias, in the D type, as read
  Operation *biasWidening = nullptr; // the bias's widening, looked through
  Operation *cast = nullptr;         // converts the accumulator to the D type
  Value result;                      // what the GEMM writes
};

/// The epilogue of `op`, in cuBLASLt's order D = alpha * (A B) + bias: a
/// multiply by a constant (a dequantization scale), a bias added in the
/// accumulator type (prec-fuse-bias puts it there) and a conversion to
/// f16/bf16 (cuBLASLt's D type). Only an f32 accumulator scales and adds
/// (cuBLASLt does both in f32). The bias is read in the D type: an f16 bias
/// widened for the f32 add is read before its widening, which is exact.
static MatmulEpilogue getMatmulEpilogue(tosa::MatMulOp op) {
  MatmulEpilogue epilogue;
  auto singleUser = [](Value value) -> Operation * {
    return value.hasOneUse() ? *value.user_begin() : nullptr;
  };
  bool f32Accumulator = getElementTypeOrSelf(op.getType()).isF32();
  Value value = op.getResult();
  if (auto mul = dyn_cast_or_null<tosa::MulOp>(singleUser(value));
      mul && f32Accumulator && mul.getType() == op.getType()) {
    Value other = mul.getInput1() == value ? mul.getInput2() : mul.getInput1();
    if (std::optional<std::string> literal = getSplatLiteral(other)) {
      epilogue.scale = mul;
      epilogue.alpha = *literal;
      value = mul.getResult();
    }
  }
  auto add = dyn_cast_or_null<tosa::AddOp>(singleUser(value));
  if (add && (add.getType() != op.getType() || !f32Accumulator))
    add = nullptr;
  auto conversion =
      dyn_cast_or_null<tosa::CastOp>(singleUser(add ? add.getResult() : value));
  if (conversion && (!conversion->hasAttr(
                         precision::PrecisionDialect::getEpilogueAttrName()) ||
                     !(getElementTypeOrSelf(conversion.getType()).isF16() ||
                       getElementTypeOrSelf(conversion.getType()).isBF16())))
    conversion = nullptr;
  Type dType =
      getElementTypeOrSelf(conversion ? conversion.getType() : op.getType());
  if (add) {
    Value bias = add.getInput1() == value ? add.getInput2() : add.getInput1();
    auto biasType = cast<RankedTensorType>(bias.getType());
    ArrayRef<int64_t> shape = biasType.getShape();
    bool isRowVector =
        shape.back() ==
            cast<RankedTensorType>(op.getType()).getShape().back() &&
        llvm::all_of(shape.drop_back(), [](int64_t d) { return d == 1; });
    auto widening = bias.getDefiningOp<tosa::CastOp>();
    if (widening && biasType.getElementType() != dType &&
        getElementTypeOrSelf(widening.getInput().getType()) == dType)
      bias = widening.getInput();
    else
      widening = nullptr;
    if (isRowVector && getElementTypeOrSelf(bias.getType()) == dType) {
      epilogue.biasAdd = add;
      epilogue.bias = bias;
      epilogue.biasWidening = widening;
      value = add.getResult();
    }
  }
  // The conversion is the epilogue's only when nothing between needs a
  // kernel.
  if (conversion && (epilogue.biasAdd || !add)) {
    epilogue.cast = conversion;
    value = conversion.getResult();
  }
  epilogue.result = value;
  return epilogue;
}

/// The tensor whose transpose (batch kept, the two others swapped) is
/// `op`'s B operand: cuBLASLt reads it as it is with op T.
static Value getTransposedB(tosa::MatMulOp op) {
  auto transpose = op.getB().getDefiningOp<tosa::TransposeOp>();
  if (!transpose || transpose.getPerms() != ArrayRef<int32_t>{0, 2, 1})
    return nullptr;
  return transpose.getInput1();
}

/// Whether cuBLASLt multiplies `op`'s inputs only with A transposed (the TN
/// layout): its integer and 8-bit float GEMMs.
static bool needsTransposedB(tosa::MatMulOp op) {
  Type input = getElementTypeOrSelf(op.getA().getType());
  return input.isInteger(8) || isa<Float8E4M3FNType, Float8E5M2Type>(input);
}

/// Whether a convolution is emitted as im2col and a cuBLASLt GEMM (the
/// others run a direct kernel): float inputs and weights of one type, an
/// accumulator cuBLASLt has, and a bias in the storage type that is known
/// when the engine is created (its pointer goes into the GEMM descriptor).
static bool isConvGemm(tosa::Conv2DOp op) {
  Type accType = op.getAccType();
  Type inputType = getElementTypeOrSelf(op.getInput().getType());
  bool hasAccumulator =
      accType.isF32() || (accType.isF16() && inputType.isF16());
  return hasAccumulator && getDeviceType(inputType) &&
         getDeviceType(inputType)->cudaType && isa<FloatType>(inputType) &&
         getElementTypeOrSelf(op.getWeight().getType()) == inputType &&
         getElementTypeOrSelf(op.getBias().getType()) ==
             getElementTypeOrSelf(op.getType()) &&
         !isa<BlockArgument>(getStorageRoot(op.getBias()));
}

/// The ReLU (a clamp to [0, +inf) or to the end of f32) applied to a
/// convolution's only result, which cuBLASLt's RELU_BIAS epilogue can do.
static Operation *getReluEpilogue(tosa::Conv2DOp op) {
  if (!isConvGemm(op) || !op.getResult().hasOneUse())
    return nullptr;
  auto clamp = dyn_cast<tosa::ClampOp>(*op.getResult().user_begin());
  if (!clamp || clamp.getType() != op.getType())
    return nullptr;
  auto low = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto high = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  if (!low || !high || low.getValueAsDouble() != 0.0)
    return nullptr;
  double top = high.getValueAsDouble();
  return std::isinf(top) || top >= std::numeric_limits<float>::max()
             ? clamp.getOperation()
             : nullptr;
}

LogicalResult CudaEmitter::planGemmEpilogues() {
  Block &body = function.getBody().front();
  // A GEMM runs where the last op of its epilogue is: every operand of the
  // epilogue (a bias) exists by then.
  auto fuse = [&](Operation *gemm, ArrayRef<Operation *> epilogueOps) {
    Operation *last = epilogueOps.back();
    gemmAt[last] = gemm;
    performedBy[gemm] = last;
    for (Operation *covered : epilogueOps.drop_back())
      performedBy[covered] = last;
  };
  llvm::SetVector<Operation *> biasWidenings, transposesRead;
  for (Operation &op : body) {
    if (auto conv = dyn_cast<tosa::Conv2DOp>(op))
      if (Operation *relu = getReluEpilogue(conv))
        fuse(conv, {relu});
    auto matmul = dyn_cast<tosa::MatMulOp>(op);
    if (!matmul)
      continue;
    MatmulEpilogue epilogue = getMatmulEpilogue(matmul);
    SmallVector<Operation *> epilogueOps;
    for (Operation *covered : {epilogue.scale, epilogue.biasAdd, epilogue.cast})
      if (covered)
        epilogueOps.push_back(covered);
    if (!epilogueOps.empty())
      fuse(matmul, epilogueOps);
    if (epilogue.biasWidening)
      biasWidenings.insert(epilogue.biasWidening);
    if (getTransposedB(matmul))
      transposesRead.insert(matmul.getB().getDefiningOp());
    else if (needsTransposedB(matmul) &&
             isa_and_nonnull<tosa::ConstOp>(matmul.getB().getDefiningOp()))
      transposedWeights.insert(matmul.getB());
  }
  // A weight read transposed by one GEMM is read so by all of them.
  for (Value weight : transposedWeights)
    for (Operation *user : weight.getUsers())
      if (auto matmul = dyn_cast<tosa::MatMulOp>(user);
          !matmul || matmul.getB() != weight || !needsTransposedB(matmul))
        return user->emitError()
               << "the CUDA emitter stores this weight transposed for an i8 "
                  "or f8 GEMM, and this op reads it too";
  // A transpose or a bias's widening that only GEMMs read (with op T, or
  // unwidened) needs no kernel; it is read by the last of them.
  auto readOnlyByGemms = [&](Operation *producer,
                             llvm::function_ref<bool(Operation *)> reads) {
    Operation *lastKernel = nullptr;
    for (Operation *user : producer->getResult(0).getUsers()) {
      if (!reads(user))
        return;
      Operation *kernel = performedBy.lookup(user);
      kernel = kernel ? kernel : user;
      if (!lastKernel || lastKernel->isBeforeInBlock(kernel))
        lastKernel = kernel;
    }
    if (lastKernel)
      performedBy[producer] = lastKernel;
  };
  for (Operation *transpose : transposesRead)
    readOnlyByGemms(transpose, [&](Operation *user) {
      auto matmul = dyn_cast<tosa::MatMulOp>(user);
      return matmul && matmul.getB() == transpose->getResult(0);
    });
  for (Operation *widening : biasWidenings)
    readOnlyByGemms(widening, [&](Operation *user) {
      return isa<tosa::AddOp>(user) && performedBy.count(user);
    });
  return success();
}

bool CudaEmitter::isGemmEpilogue(Operation *op) const {
  return performedBy.count(op) || gemmAt.count(op);
}

/// Whether `op` can be computed inside its only user's kernel: both are
/// elementwise over the same shape, so one thread per element computes
/// both, rounding the inner result to its type as its own kernel would.
bool CudaEmitter::isFusedIntoUser(Operation *op) const {
  if (elementwiseExpression(op).empty() || op->getNumResults() != 1 ||
      !op->getResult(0).hasOneUse())
    return false;
  Operation *user = *op->getResult(0).user_begin();
  // Computed by a GEMM's epilogue or a row kernel instead.
  if (isGemmEpilogue(op) || isGemmEpilogue(user) || rowGroupOf.count(op) ||
      rowGroupOf.count(user))
    return false;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return user->getBlock() == op->getBlock() &&
         !elementwiseExpression(user).empty() &&
         llvm::is_contained(dataOperands(user), op->getResult(0)) &&
         cast<RankedTensorType>(user->getResult(0).getType()).getShape() ==
             type.getShape();
}

Operation *CudaEmitter::getKernelOp(Operation *op) const {
  // An op fused into its user is computed, reading its operands, by the
  // kernel of the last op of its chain.
  while (isFusedIntoUser(op))
    op = *op->getResult(0).user_begin();
  if (Operation *gemm = performedBy.lookup(op))
    return gemm;
  if (const RowGroup *group = rowGroupOf.lookup(op))
    return group->ops.back();
  return op;
}

void CudaEmitter::planBufferReleases() {
  Block &body = function.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (auto [index, op] : llvm::enumerate(body))
    position[&op] = index;
  llvm::MapVector<Value, Operation *> lastReader;
  for (Operation &op : body) {
    Operation *kernel = getKernelOp(&op);
    for (Value operand : op.getOperands()) {
      Operation *&reader = lastReader[getStorageRoot(operand)];
      if (!reader || position[kernel] > position[reader])
        reader = kernel;
    }
    // A buffer nothing reads is released once written.
    for (Value result : op.getResults())
      if (getStorageRoot(result) == result)
        lastReader.try_emplace(result, &op);
  }
  for (auto [value, reader] : lastReader)
    releasesAfter[reader].push_back(value);
}

void CudaEmitter::releaseBuffersAfter(Operation *op) {
  for (Value value : releasesAfter.lookup(op)) {
    auto buffer = buffers.find(value);
    if (buffer != buffers.end() &&
        buffer->second.kind == Buffer::Kind::Activation)
      arena.release(buffer->second.offset);
  }
}

LogicalResult CudaEmitter::emitElementwise(Operation *op) {
  if (elementwiseExpression(op).empty())
    return unsupported(op, "no kernel for this op yet");
  Value result = op->getResult(0);
  // The values the fused expression reads from memory, each once.
  SmallVector<Value> inputs;
  SmallVector<std::string> fusedNames;
  std::function<std::string(Value)> valueExpression =
      [&](Value value) -> std::string {
    Operation *def = value.getDefiningOp();
    if (def && isFusedIntoUser(def)) {
      std::string expression = elementwiseExpression(def);
      for (auto [index, operand] : llvm::enumerate(dataOperands(def))) {
        std::string placeholder = "$" + std::to_string(index);
        std::string operandExpression = "(" + valueExpression(operand) + ")";
        for (size_t at = expression.find(placeholder); at != std::string::npos;
             at = expression.find(placeholder, at + operandExpression.size()))
          expression.replace(at, placeholder.size(), operandExpression);
      }
      fusedNames.push_back(
          (def->getName().getStringRef() + " " + getLayerName(def)).str());
      DeviceType type = typeOf(value);
      if (getElementTypeOrSelf(value.getType()).isF32())
        return expression;
      return substitute(type.toFloat,
                        "(" + substitute(type.fromFloat, expression) + ")");
    }
    if (std::optional<std::string> literal = getSplatLiteral(value))
      return *literal;
    auto it = llvm::find(inputs, value);
    size_t index = it - inputs.begin();
    if (it == inputs.end())
      inputs.push_back(value);
    return "a" + std::to_string(index);
  };
  // Build the root's expression (with fused producers inlined).
  std::string expression = elementwiseExpression(op);
  for (auto [index, operand] : llvm::enumerate(dataOperands(op))) {
    std::string placeholder = "$" + std::to_string(index);
    std::string operandExpression = "(" + valueExpression(operand) + ")";
    for (size_t at = expression.find(placeholder); at != std::string::npos;
         at = expression.find(placeholder, at + operandExpression.size()))
      expression.replace(at, placeholder.size(), operandExpression);
  }

  std::string name = kernelName(op);
  DeviceType out = typeOf(result);
  std::string signature;
  for (auto [index, input] : llvm::enumerate(inputs))
    signature += llvm::formatv("const {0} *__restrict__ in{1}, ",
                               typeOf(input).cType, index);
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value input : inputs)
    shapes.push_back(shapeOf(input));
  int64_t count = countOf(result);
  for (const std::string &fused : fusedNames)
    kernels += "// fused: " + fused + "\n";
  kernels += llvm::formatv("// {0} {1}\n__global__ void {2}({3}{4} "
                           "*__restrict__ out{5}) {{\n",
                           op->getName(), getLayerName(op), name, signature,
                           out.cType, countParameter(result));
  // Each thread loads its elementwiseUnroll elements (256 apart, so warps
  // stay coalesced) before computing any: one element per thread leaves too
  // few loads in flight to reach the memory bandwidth.
  std::string loads, values;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    loads += llvm::formatv("  float v{0}[{1}];\n", index, elementwiseUnroll);
    values += llvm::formatv("    float a{0} = v{0}[k];\n", index);
  }
  kernels += loads;
  // The last block overruns the elements unless they fill every block.
  bool overruns = isBatched(result) || count % (256 * elementwiseUnroll) != 0;
  std::string bound = kernelBound(result, count);
  kernels += llvm::formatv(
      "  const long long base = blockIdx.x * {0}LL + threadIdx.x;\n"
      "#pragma unroll\n"
      "  for (int k = 0; k < {1}; ++k) {{\n"
      "    long long i = base + k * 256LL;\n{2}",
      256 * elementwiseUnroll, elementwiseUnroll,
      overruns ? llvm::formatv("    if (i >= {0}) break;\n", bound).str()
               : std::string());
  kernels += broadcastOffsets(shapeOf(result), shapes);
  for (auto [index, input] : llvm::enumerate(inputs))
    kernels +=
        llvm::formatv("    v{0}[k] = {1};\n", index,
                      substitute(typeOf(input).toFloat,
                                 llvm::formatv("in{0}[o{0}]", index).str()));
  kernels += llvm::formatv("  }\n"
                           "#pragma unroll\n"
                           "  for (int k = 0; k < {0}; ++k) {{\n"
                           "    long long i = base + k * 256LL;\n{1}",
                           elementwiseUnroll,
                           overruns ? llvm::formatv("    if (i >= {0}) "
                                                    "return;\n",
                                                    bound)
                                          .str()
                                    : std::string());
  kernels += values;
  kernels += "    float r = " + expression + ";\n";
  kernels += "    out[i] = " + substitute(out.fromFloat, "r") + ";\n  }\n}\n\n";
  launch(op, name, count, inputs, result, elementwiseUnroll);
  return success();
}

/// Declares a cuBLASLt matmul's descriptor, layouts and algorithm in the
/// engine, released when it is destroyed (or its creation fails); returns
/// their index.
int CudaEmitter::addGemmState() {
  hasGemms = true;
  int index = kernelCount++;
  stateFields += llvm::formatv(
      "  cublasLtMatmulDesc_t desc{0} = nullptr; cublasLtMatrixLayout_t la{0} "
      "= nullptr, lb{0} = nullptr, lc{0} = nullptr; cublasLtMatmulAlgo_t "
      "algo{0};\n",
      index);
  releaseCode +=
      llvm::formatv("  if (e->desc{0}) cublasLtMatmulDescDestroy(e->desc{0});\n"
                    "  if (e->la{0}) cublasLtMatrixLayoutDestroy(e->la{0});\n"
                    "  if (e->lb{0}) cublasLtMatrixLayoutDestroy(e->lb{0});\n"
                    "  if (e->lc{0}) cublasLtMatrixLayoutDestroy(e->lc{0});\n",
                    index);
  return index;
}

LogicalResult CudaEmitter::emitMatmul(tosa::MatMulOp op) {
  ArrayRef<int64_t> a = shapeOf(op.getA()), b = shapeOf(op.getB());
  int64_t batch = a[0], m = a[1], k = a[2], n = b[2];
  Type inputType = getElementTypeOrSelf(op.getA().getType());
  Type otherType = getElementTypeOrSelf(op.getB().getType());
  Type resultType = getElementTypeOrSelf(op.getType());
  DeviceType in = typeOf(op.getA()), other = typeOf(op.getB()),
             out = typeOf(op.getResult());
  // The result type is the accumulator (prec-materialize makes it so);
  // integer GEMMs are symmetric (zero points 0) and accumulate in i32, 8-bit
  // float ones in f32, at least one operand E4M3.
  const char *compute = nullptr, *scale = nullptr;
  bool isF8 = isa<Float8E4M3FNType, Float8E5M2Type>(inputType);
  if (inputType.isInteger(8)) {
    auto isZero = [](Value zeroPoint) {
      std::optional<std::string> literal = getSplatLiteral(zeroPoint);
      auto constant = zeroPoint.getDefiningOp<tosa::ConstOp>();
      auto values = constant ? dyn_cast<DenseElementsAttr>(constant.getValues())
                             : DenseElementsAttr();
      return !literal && values && values.isSplat() &&
             values.getSplatValue<APInt>().isZero();
    };
    if (!otherType.isInteger(8) || !resultType.isInteger(32) ||
        !isZero(op.getAZp()) || !isZero(op.getBZp()))
      return unsupported(op, "an i8 GEMM needs i8 operands with zero points "
                             "0 and an i32 result");
    compute = "CUBLAS_COMPUTE_32I";
    scale = "CUDA_R_32I";
  } else if (isF8) {
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(otherType) ||
        (isa<Float8E5M2Type>(inputType) && isa<Float8E5M2Type>(otherType)) ||
        !resultType.isF32())
      return unsupported(op, "an f8 GEMM needs an E4M3 operand, the other "
                             "E4M3 or E5M2, and an f32 accumulator");
    compute = "CUBLAS_COMPUTE_32F";
    scale = "CUDA_R_32F";
  } else if (!in.cudaType || !isa<FloatType>(inputType)) {
    return unsupported(op, "its operand type has no cuBLASLt GEMM");
  } else if (resultType.isF32()) {
    compute = "CUBLAS_COMPUTE_32F";
    scale = "CUDA_R_32F";
  } else if (resultType.isF16() && inputType.isF16()) {
    compute = "CUBLAS_COMPUTE_16F";
    scale = "CUDA_R_16F";
  } else {
    return unsupported(op, "cuBLASLt has no " + llvm::Twine(out.dtype) +
                               " accumulation for these inputs");
  }
  // cuBLASLt's A is our B: read as it is (op N), or, when B is a transpose
  // or a weight stored transposed, from the [batch, N, K] tensor with op T.
  Value bSource = op.getB();
  bool transposeB = false;
  if (Value source = getTransposedB(op)) {
    bSource = source;
    transposeB = true;
  } else if (transposedWeights.contains(op.getB())) {
    transposeB = true;
  }
  if (needsTransposedB(op) && !transposeB)
    return unsupported(op, "cuBLASLt's i8 and f8 GEMMs need B transposed: a "
                           "tosa.transpose (perms 0, 2, 1) of a [batch, N, "
                           "K] tensor, or a constant");
  // The epilogue adds the bias and writes the storage type (cuBLASLt's D
  // type) when the program converts the accumulator.
  MatmulEpilogue epilogue = getMatmulEpilogue(op);
  Value destination = epilogue.result;
  if (failed(assignBuffer(destination)))
    return failure();
  out = typeOf(destination);
  int index = addGemmState();
  std::string setEpilogue;
  if (epilogue.biasAdd)
    setEpilogue = llvm::formatv(
        "  {{\n    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;\n"
        "    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, "
        "CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));\n  }\n",
        index);
  if (transposeB)
    setEpilogue += llvm::formatv(
        "  {{\n    cublasOperation_t transpose = CUBLAS_OP_T;\n"
        "    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, "
        "CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));\n  }\n",
        index);
  // Row-major C = A B is column-major C^T = B^T A^T: cuBLASLt's A is our B
  // (N x K column-major: [K, N] row-major, or [N, K] row-major with op T).
  createCode += llvm::formatv(
      R"(  PREC_CHECK_BLAS(cublasLtMatmulDescCreate(&e->desc{0}, {1}, {2}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->la{0}, {10}, {11}, {12}, {11}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lb{0}, {3}, {5}, {6}, {5}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lc{0}, {7}, {4}, {6}, {4}));
  prec_set_batch(e->la{0}, {8}, {5}LL * {4}LL);
  prec_set_batch(e->lb{0}, {8}, {6}LL * {5}LL);
  prec_set_batch(e->lc{0}, {8}, {6}LL * {4}LL);
{9})",
      index, compute, scale, in.cudaType, n, k, m, out.cudaType, batch,
      setEpilogue, other.cudaType, transposeB ? k : n, transposeB ? n : k);
  // At a dynamic batch, the batch count (attention) or the rows of A (a
  // linear layer) follow the engine's batch; the algorithm is chosen again
  // for each batch the engine is set to.
  std::string pick = llvm::formatv(
      "  if (int s_ = prec_pick_algo(e, e->desc{0}, e->la{0}, e->lb{0}, "
      "e->lc{0}, &e->algo{0})) return s_;\n",
      index);
  if (std::optional<int64_t> dim = batchAnalysis
                                       ? batchAnalysis->getBatchDim(op.getA())
                                       : std::nullopt) {
    if (*dim == 0)
      resizeCode += llvm::formatv(
          "  prec_set_batch(e->la{0}, (int)({1}LL * b), {2}LL * {3}LL);\n"
          "  prec_set_batch(e->lb{0}, (int)({1}LL * b), {4}LL * {2}LL);\n"
          "  prec_set_batch(e->lc{0}, (int)({1}LL * b), {4}LL * {3}LL);\n",
          index, batch / batchRange->max, k, n, m);
    else
      resizeCode += llvm::formatv("  prec_set_columns(e->lb{0}, {1}LL * b);\n"
                                  "  prec_set_columns(e->lc{0}, {1}LL * b);\n",
                                  index, m / batchRange->max);
    resizeCode += pick;
  } else {
    createCode += pick;
  }
  // alpha and beta in the scale type; a constant the product is multiplied
  // by (a dequantization scale) is alpha.
  std::string one = resultType.isInteger(32) ? "e->int_one"
                    : resultType.isF16()     ? "e->half_one"
                                             : "e->float_one";
  std::string zero = resultType.isInteger(32) ? "e->int_zero"
                     : resultType.isF16()     ? "e->half_zero"
                                              : "e->float_zero";
  if (epilogue.scale) {
    stateFields +=
        llvm::formatv("  float alpha{0} = {1};\n", index, epilogue.alpha);
    one = llvm::formatv("e->alpha{0}", index);
  }
  std::string layer = getLayerName(op);
  std::string notes;
  if (transposeB)
    notes += ", B transposed";
  if (epilogue.scale)
    notes += ", alpha " + epilogue.alpha;
  if (epilogue.biasAdd)
    notes += ", bias epilogue";
  runCode += llvm::formatv("  // tosa.matmul{0}: {1}x{2}x{3}, batch {4}{5}\n",
                           layer.empty() ? "" : " '" + layer + "'", m, n, k,
                           batch, notes);
  // The bias may be a binding: its pointer is known only when the engine runs.
  if (epilogue.biasAdd)
    runCode += llvm::formatv(
        "  {{ const void *bias = {1}; "
        "PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, "
        "CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias))); }\n",
        index, pointer(epilogue.bias));
  runCode += llvm::formatv(
      "  PREC_CHECK_BLAS(cublasLtMatmul(e->lt, e->desc{0}, &{1}, {2}, "
      "e->la{0}, {3}, e->lb{0}, &{4}, {5}, e->lc{0}, {5}, e->lc{0}, "
      "&e->algo{0}, e->workspace, PREC_WORKSPACE, stream));\n",
      index, one, pointer(bSource), pointer(op.getA()), zero,
      pointer(destination));
  workspaceBytes = 32 << 20;
  return success();
}

LogicalResult CudaEmitter::emitReduce(Operation *op, bool isMax) {
  Value input = op->getOperand(0), result = op->getResult(0);
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  ArrayRef<int64_t> shape = shapeOf(input);
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  int64_t count = countOf(result);
  DeviceType in = typeOf(input), out = typeOf(result);
  std::string name = kernelName(op);
  // Rows along the innermost axis, summed in f32 (or maxed, which is exact
  // in any order): a block per row, threads striding it, a tree at the end.
  // Only the summation order differs from the CPU path.
  bool f32Result = getElementTypeOrSelf(result.getType()).isF32();
  if (inner == 1 && (isMax || f32Result)) {
    kernels += llvm::formatv(
        "// {0} {1}\n__global__ void {2}(const {3} *__restrict__ in0, {4} "
        "*__restrict__ out) {{\n"
        "  __shared__ float partial[256];\n"
        "  const {3} *row = in0 + blockIdx.x * {5}LL;\n"
        "  float acc = {6};\n"
        "  for (long long j = threadIdx.x; j < {5}LL; j += 256) {{\n"
        "    float x = {7};\n    acc = {8};\n  }\n"
        "  partial[threadIdx.x] = acc;\n  __syncthreads();\n"
        "  for (int step = 128; step > 0; step /= 2) {{\n"
        "    if (threadIdx.x < step) {{ float x = partial[threadIdx.x + "
        "step]; acc = partial[threadIdx.x]; partial[threadIdx.x] = {8}; }\n"
        "    __syncthreads();\n  }\n"
        "  if (threadIdx.x == 0) {{ float r = partial[0]; out[blockIdx.x] = "
        "{9}; }\n}\n\n",
        op->getName(), getLayerName(op), name, in.cType, out.cType, shape[axis],
        isMax ? "-INFINITY" : "0.0f", substitute(in.toFloat, "row[j]"),
        isMax ? "fmaxf(acc, x)" : "__fadd_rn(acc, x)",
        substitute(out.fromFloat, "r"));
    std::string layer = getLayerName(op);
    runCode += llvm::formatv("  // {0}{1}\n", op->getName(),
                             layer.empty() ? "" : " '" + layer + "'");
    runCode += llvm::formatv("  {0}<<<{1}, 256, 0, stream>>>({2}, {3});\n",
                             name, blocksFor(result, count, 1), pointer(input),
                             pointer(result));
    return success();
  }
  // Each step rounds to the result type, as a reduction in that type does.
  kernels += llvm::formatv(
      R"(// {0} {1}
__global__ void {2}(const {3} *__restrict__ in0, {4} *__restrict__ out{12}) {{
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= {5}) return;
  long long outer = i / {6}LL, inner = i % {6}LL;
  const {3} *p = in0 + outer * {7}LL * {6}LL + inner;
  float acc = {8};
  for (long long j = 0; j < {7}LL; ++j) {{
    float x = {9};
    acc = {10};
  }
  out[i] = {11};
}

)",
      op->getName(), getLayerName(op), name, in.cType, out.cType,
      kernelBound(result, count), inner, shape[axis],
      isMax ? "-INFINITY" : "0.0f",
      substitute(in.toFloat, "p[j * " + std::to_string(inner) + "LL]"),
      substitute(out.toFloat,
                 "(" +
                     substitute(out.fromFloat,
                                isMax ? "fmaxf(acc, x)" : "__fadd_rn(acc, x)") +
                     ")"),
      substitute(out.fromFloat, "acc"), countParameter(result));
  launch(op, name, count, {input}, result);
  return success();
}

LogicalResult CudaEmitter::emitTranspose(tosa::TransposeOp op) {
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  ArrayRef<int32_t> perms = op.getPerms();
  SmallVector<int64_t> inStrides = computeStrides(shapeOf(op.getInput1()));
  std::string offsets = "  long long rem = i, o0 = 0;\n";
  for (int64_t d = int64_t(out.size()) - 1; d >= 0; --d)
    if (out[d] != 1)
      offsets += llvm::formatv("  {{ long long c = rem % {0}LL; rem /= {0}LL; "
                               "o0 += c * {1}LL; }\n",
                               out[d], inStrides[perms[d]]);
  emitCopyKernel(op, offsets);
  return success();
}

/// A kernel copying `in0[o0]` to `out[i]` for every output element `i`,
/// with `offsets` computing `o0` from `i`.
void CudaEmitter::emitCopyKernel(Operation *op, llvm::StringRef offsets) {
  Value input = op->getOperand(0), result = op->getResult(0);
  std::string name = kernelName(op);
  kernels += llvm::formatv(
      "// {0} {1}\n__global__ void {2}(const {3} *__restrict__ in0, "
      "{3} *__restrict__ out{6}) {{\n  long long i = blockIdx.x * (long "
      "long)blockDim.x + threadIdx.x;\n  if (i >= {4}) return;\n{5}  out[i] "
      "= in0[o0];\n}\n\n",
      op->getName(), getLayerName(op), name, typeOf(result).cType,
      kernelBound(result, countOf(result)), offsets, countParameter(result));
  launch(op, name, countOf(result), {input}, result);
}

/// A copy kernel whose source offset for output coordinate `c` along
/// dimension d is `sourceCoordinate(d, "c")`.
static std::string copyBody(
    ArrayRef<int64_t> out, ArrayRef<int64_t> in,
    llvm::function_ref<std::string(int64_t, std::string)> sourceCoordinate) {
  SmallVector<int64_t> inStrides = computeStrides(in);
  std::string body = "  long long rem = i, o0 = 0;\n";
  for (int64_t d = int64_t(out.size()) - 1; d >= 0; --d) {
    if (out[d] == 1) {
      body += llvm::formatv("  o0 += ({0}) * {1}LL;\n",
                            sourceCoordinate(d, "0LL"), inStrides[d]);
      continue;
    }
    body += llvm::formatv(
        "  {{ long long c = rem % {0}LL; rem /= {0}LL; o0 += ({1}) * {2}LL; "
        "}\n",
        out[d], sourceCoordinate(d, "c"), inStrides[d]);
  }
  return body;
}

LogicalResult CudaEmitter::emitSlice(tosa::SliceOp op) {
  SmallVector<int64_t> start;
  if (!tosa::getConstShapeValues(op.getStart().getDefiningOp(), start))
    return unsupported(op, "its start is not a constant shape");
  emitCopyKernel(op, copyBody(shapeOf(op.getResult()), shapeOf(op.getInput1()),
                              [&](int64_t d, std::string c) {
                                return c + " + " + std::to_string(start[d]) +
                                       "LL";
                              }));
  return success();
}

LogicalResult CudaEmitter::emitTile(tosa::TileOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getInput1());
  emitCopyKernel(
      op, copyBody(shapeOf(op.getResult()), in, [&](int64_t d, std::string c) {
        return c + " % " + std::to_string(in[d]) + "LL";
      }));
  return success();
}

LogicalResult CudaEmitter::emitConcat(tosa::ConcatOp op) {
  int64_t axis = op.getAxis();
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  SmallVector<int64_t> outStrides = computeStrides(out);
  int64_t offset = 0;
  DeviceType type = typeOf(op.getResult());
  for (Value input : op.getInput1()) {
    ArrayRef<int64_t> in = shapeOf(input);
    // One thread per input element, written at its place in the output.
    std::string body = "  long long rem = i, o0 = 0;\n";
    for (int64_t d = int64_t(in.size()) - 1; d >= 0; --d) {
      int64_t shift = d == axis ? offset : 0;
      if (in[d] == 1)
        body += llvm::formatv("  o0 += {0}LL * {1}LL;\n", shift, outStrides[d]);
      else
        body += llvm::formatv("  {{ long long c = rem % {0}LL; rem /= {0}LL; "
                              "o0 += (c + {1}LL) * {2}LL; }\n",
                              in[d], shift, outStrides[d]);
    }
    std::string name = kernelName(op);
    kernels += llvm::formatv(
        "// tosa.concat {0}\n__global__ void {1}(const {2} *__restrict__ in0, "
        "{2} *__restrict__ out{5}) {{\n  long long i = blockIdx.x * (long "
        "long)blockDim.x + threadIdx.x;\n  if (i >= {3}) return;\n{4}  "
        "out[o0] = in0[i];\n}\n\n",
        getLayerName(op), name, type.cType, kernelBound(input, countOf(input)),
        body, countParameter(input));
    launch(op, name, countOf(input), {input}, op.getResult());
    offset += in[axis];
  }
  return success();
}

LogicalResult CudaEmitter::emitGather(tosa::GatherOp op) {
  ArrayRef<int64_t> values = shapeOf(op.getValues());
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  DeviceType type = typeOf(op.getResult());
  DeviceType index = typeOf(op.getIndices());
  std::string name = kernelName(op);
  // out[n, w, c] = values[n, indices[n, w], c].
  kernels += llvm::formatv(
      R"(// tosa.gather {0}
__global__ void {1}(const {2} *__restrict__ in0, const {3} *__restrict__ in1, {2} *__restrict__ out{8}) {{
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= {4}) return;
  long long c = i % {5}LL, w = (i / {5}LL) % {6}LL, n = i / ({5}LL * {6}LL);
  long long k = in1[n * {6}LL + w];
  out[i] = in0[(n * {7}LL + k) * {5}LL + c];
}

)",
      getLayerName(op), name, type.cType, index.cType,
      kernelBound(op.getResult(), countOf(op.getResult())), out[2], out[1],
      values[1], countParameter(op.getResult()));
  launch(op, name, countOf(op.getResult()), {op.getValues(), op.getIndices()},
         op.getResult());
  return success();
}

/// The accumulation step `acc + term` in the accumulate type `accType`:
/// f32 accumulates in float; a 16-bit accumulator rounds every step.
static std::string accumulateStep(Type accType, llvm::StringRef term) {
  std::string sum = ("__fadd_rn(acc, " + term + ")").str();
  if (accType.isF32())
    return sum;
  DeviceType type = *getDeviceType(accType);
  return substitute(type.toFloat, "(" + substitute(type.fromFloat, sum) + ")");
}

LogicalResult CudaEmitter::emitConv(Operation *op, bool depthwise) {
  Value input = op->getOperand(0), weight = op->getOperand(1),
        bias = op->getOperand(2), result = op->getResult(0);
  ArrayRef<int64_t> in = shapeOf(input), w = shapeOf(weight),
                    out = shapeOf(result);
  ArrayRef<int64_t> pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
  ArrayRef<int64_t> stride = op->getAttrOfType<DenseI64ArrayAttr>("stride");
  ArrayRef<int64_t> dilation = op->getAttrOfType<DenseI64ArrayAttr>("dilation");
  Type accType = op->getAttrOfType<TypeAttr>("acc_type").getValue();
  if (!getDeviceType(accType) || !isa<FloatType>(accType))
    return unsupported(op, "only float accumulation is emitted");
  DeviceType x = typeOf(input), k = typeOf(weight), b = typeOf(bias),
             o = typeOf(result);
  int64_t kh = depthwise ? w[0] : w[1], kw = depthwise ? w[1] : w[2];
  int64_t channels = in[3];
  int64_t multiplier = depthwise ? w[3] : 1;
  std::string window = llvm::formatv(
      "  for (int y = 0; y < {0}; ++y) for (int z = 0; z < {1}; ++z) {{\n"
      "    long long iy = oh * {2}LL - {3}LL + y * {4}LL, ix = ow * {5}LL - "
      "{6}LL + z * {7}LL;\n"
      "    if (iy < 0 || iy >= {8}LL || ix < 0 || ix >= {9}LL) continue;\n",
      kh, kw, stride[0], pad[0], dilation[0], stride[1], pad[2], dilation[1],
      in[1], in[2]);
  std::string inputAt = llvm::formatv("((n * {0}LL + iy) * {1}LL + ix) * {2}LL",
                                      in[1], in[2], channels);
  std::string loop;
  if (depthwise) {
    // HWCM weights: output channel oc is input channel c, multiplier m.
    loop = llvm::formatv("  long long c = oc / {0}LL, m = oc % {0}LL;\n",
                         multiplier);
    loop += window;
    loop +=
        "    float xv = " + substitute(x.toFloat, "in0[" + inputAt + " + c]") +
        ";\n";
    loop += "    float wv = " +
            substitute(k.toFloat,
                       llvm::formatv("in1[((y * {0}LL + z) * {1}LL + c) * "
                                     "{2}LL + m]",
                                     kw, channels, multiplier)
                           .str()) +
            ";\n";
    loop += "    acc = " + accumulateStep(accType, "__fmul_rn(xv, wv)") +
            ";\n  }\n";
  } else {
    // OHWI weights.
    loop = window;
    loop += llvm::formatv("    const {0} *xp = in0 + {1};\n", x.cType, inputAt);
    loop += llvm::formatv(
        "    const {0} *wp = in1 + ((oc * {1}LL + y) * {2}LL + z) * {3}LL;\n",
        k.cType, kh, kw, channels);
    loop += llvm::formatv("    for (long long c = 0; c < {0}LL; ++c) {{\n",
                          channels);
    loop += "      float xv = " + substitute(x.toFloat, "xp[c]") +
            "; float wv = " + substitute(k.toFloat, "wp[c]") + ";\n";
    loop += "      acc = " + accumulateStep(accType, "__fmul_rn(xv, wv)") +
            ";\n    }\n  }\n";
  }
  std::string name = kernelName(op);
  kernels += llvm::formatv(
      "// {0} {1}\n__global__ void {2}(const {3} *__restrict__ in0, const "
      "{4} *__restrict__ in1, const {5} *__restrict__ in2, {6} "
      "*__restrict__ out{11}) {{\n"
      "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
      "  if (i >= {7}) return;\n"
      "  long long oc = i % {8}LL, ow = (i / {8}LL) % {9}LL, oh = (i / "
      "({8}LL * {9}LL)) % {10}LL, n = i / ({8}LL * {9}LL * {10}LL);\n"
      "  float acc = 0.0f;\n",
      op->getName(), getLayerName(op), name, x.cType, k.cType, b.cType, o.cType,
      kernelBound(result, countOf(result)), out[3], out[2], out[1],
      countParameter(result));
  kernels += loop;
  kernels += "  float r = acc + " + substitute(b.toFloat, "in2[oc]") + ";\n";
  kernels += "  out[i] = " + substitute(o.fromFloat, "r") + ";\n}\n\n";
  launch(op, name, countOf(result), {input, weight, bias}, result);
  return success();
}

/// A convolution as a GEMM: an im2col kernel lays every output position's
/// receptive field out as a row, and cuBLASLt multiplies those rows by the
/// OHWI weights, adding the bias in its accumulator (the BIAS epilogue) and
/// writing the storage type, as the convolution itself would.
LogicalResult CudaEmitter::emitConvGemm(tosa::Conv2DOp op) {
  Value input = op.getInput(), weight = op.getWeight(), bias = op.getBias(),
        result = op.getResult();
  ArrayRef<int64_t> in = shapeOf(input), w = shapeOf(weight),
                    out = shapeOf(result);
  ArrayRef<int64_t> pad = op.getPad(), stride = op.getStride(),
                    dilation = op.getDilation();
  Type accType = op.getAccType();
  Type inputType = getElementTypeOrSelf(input.getType());
  DeviceType x = typeOf(input), o = typeOf(result);
  if (!isConvGemm(op))
    return emitConv(op, /*depthwise=*/false);
  const char *compute =
      accType.isF32() ? "CUBLAS_COMPUTE_32F" : "CUBLAS_COMPUTE_16F";
  const char *scale = accType.isF32() ? "CUDA_R_32F" : "CUDA_R_16F";
  // A ReLU after the convolution is applied in the epilogue, writing the
  // clamp's buffer (ReLU and rounding to the storage type commute).
  Value destination = result;
  const char *epilogueKind = "CUBLASLT_EPILOGUE_BIAS";
  if (Operation *relu = getReluEpilogue(op)) {
    destination = relu->getResult(0);
    if (failed(assignBuffer(destination)))
      return failure();
    epilogueKind = "CUBLASLT_EPILOGUE_RELU_BIAS";
  }
  int64_t rows = out[0] * out[1] * out[2]; // output positions
  int64_t depth = w[1] * w[2] * w[3];      // KH * KW * C
  int64_t channels = out[3];

  // A 1x1 convolution with unit strides and no padding reads its NHWC input
  // as the rows x C matrix directly; any other goes through im2col into a
  // rows x (KH * KW * C) buffer in the arena.
  std::string layer = getLayerName(op);
  const char *epilogueName = destination == result ? "bias" : "bias + ReLU";
  bool pointwise = w[1] == 1 && w[2] == 1 && stride[0] == 1 && stride[1] == 1 &&
                   llvm::all_of(pad, [](int64_t p) { return p == 0; });
  // cuDNN pads both ends of a dimension alike: padding the end like the
  // start must give the same output (TOSA trims end padding no window
  // reaches).
  auto outputWithStartPadding = [&](int64_t d) {
    return (in[1 + d] + 2 * pad[2 * d] - dilation[d] * (w[1 + d] - 1) - 1) /
               stride[d] +
           1;
  };
  bool symmetricPads = outputWithStartPadding(0) == out[1] &&
                       outputWithStartPadding(1) == out[2];
  if (!pointwise && symmetricPads && prefersCudnn(rows, channels, depth))
    return emitCudnnConv(op, destination);
  std::string columns;
  std::optional<int64_t> columnsOffset;
  if (pointwise) {
    columns = pointer(input);
    runCode += llvm::formatv(
        "  // tosa.conv2d{0}: 1x1, a GEMM {1}x{2}x{3} on the input with the "
        "{4} epilogue\n",
        layer.empty() ? "" : " '" + layer + "'", rows, channels, depth,
        epilogueName);
  } else {
    columnsOffset = arena.allocate(rows * depth * x.bytes);
    largestIndexSpace = std::max(largestIndexSpace, rows * depth);
    columns =
        llvm::formatv("(({0} *)(e->arena + {1}))", x.cType, *columnsOffset);
    std::string name = kernelName(op);
    kernels += llvm::formatv(
        "// im2col for tosa.conv2d {0}\n__global__ void {1}(const {2} "
        "*__restrict__ in0, {2} *__restrict__ out{19}) {{\n"
        "  {2} v[{17}];\n"
        "  const long long base = blockIdx.x * {18}LL + threadIdx.x;\n"
        "#pragma unroll\n"
        "  for (int u = 0; u < {17}; ++u) {{\n"
        "    long long i = base + u * 256LL;\n"
        "    if (i >= {3}) break;\n"
        "    long long k = i % {4}LL, p = i / {4}LL;\n"
        "    long long c = k % {5}LL, z = (k / {5}LL) % {6}LL, y = k / ({5}LL "
        "* {6}LL);\n"
        "    long long ow = p % {7}LL, oh = (p / {7}LL) % {8}LL, n = p / "
        "({7}LL * {8}LL);\n"
        "    long long iy = oh * {9}LL - {10}LL + y * {11}LL, ix = ow * {12}LL "
        "- {13}LL + z * {14}LL;\n"
        "    bool inside = iy >= 0 && iy < {15}LL && ix >= 0 && ix < {16}LL;\n"
        "    v[u] = inside ? in0[((n * {15}LL + iy) * {16}LL + ix) * {5}LL + "
        "c] : ({2})0.0f;\n"
        "  }\n"
        "#pragma unroll\n"
        "  for (int u = 0; u < {17}; ++u) {{\n"
        "    long long i = base + u * 256LL;\n"
        "    if (i >= {3}) return;\n"
        "    out[i] = v[u];\n"
        "  }\n}\n\n",
        layer, name, x.cType, kernelBound(result, rows * depth), depth, in[3],
        w[2], out[2], out[1], stride[0], pad[0], dilation[0], stride[1], pad[2],
        dilation[1], in[1], in[2], elementwiseUnroll, 256 * elementwiseUnroll,
        countParameter(result));
    runCode += llvm::formatv("  // tosa.conv2d{0}: im2col, then a GEMM "
                             "{1}x{2}x{3} with the {4} epilogue\n",
                             layer.empty() ? "" : " '" + layer + "'", rows,
                             channels, depth, epilogueName);
    int64_t perBlock = 256 * elementwiseUnroll;
    runCode += llvm::formatv(
        "  {0}<<<{1}, 256, 0, stream>>>({2}, {3}{4});\n", name,
        blocksFor(result, rows * depth, perBlock), pointer(input), columns,
        isBatched(result) ? ", " + runtimeCount(result, rows * depth)
                          : std::string());
  }

  // D (row-major rows x channels) is column-major channels x rows:
  // D = op(W) * columns^T with W (OHWI, row-major O x depth) transposed.
  int index = addGemmState();
  createCode += llvm::formatv(
      R"(  PREC_CHECK_BLAS(cublasLtMatmulDescCreate(&e->desc{0}, {1}, {2}));
  {{
    cublasOperation_t transpose = CUBLAS_OP_T;
    cublasLtEpilogue_t epilogue = {8};
    const void *bias = {9};
    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));
    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  }
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->la{0}, {3}, {4}, {5}, {4}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lb{0}, {3}, {4}, {6}, {4}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lc{0}, {7}, {5}, {6}, {5}));
)",
      index, compute, scale, x.cudaType, depth, channels, rows, o.cudaType,
      epilogueKind, pointer(bias));
  // At a dynamic batch, the output positions (the GEMM's columns) follow the
  // engine's batch, and the algorithm is chosen again for each.
  std::string pick = llvm::formatv(
      "  if (int s_ = prec_pick_algo(e, e->desc{0}, e->la{0}, e->lb{0}, "
      "e->lc{0}, &e->algo{0})) return s_;\n",
      index);
  if (isBatched(result))
    resizeCode += llvm::formatv("  prec_set_columns(e->lb{0}, {1}LL * b);\n"
                                "  prec_set_columns(e->lc{0}, {1}LL * b);\n",
                                index, rows / batchRange->max)
                      .str() +
                  pick;
  else
    createCode += pick;
  bool halfScale = accType.isF16();
  runCode += llvm::formatv(
      "  PREC_CHECK_BLAS(cublasLtMatmul(e->lt, e->desc{0}, &{1}, {2}, "
      "e->la{0}, {3}, e->lb{0}, &{4}, {5}, e->lc{0}, {5}, e->lc{0}, "
      "&e->algo{0}, e->workspace, PREC_WORKSPACE, stream));\n",
      index, halfScale ? "e->half_one" : "e->float_one", pointer(weight),
      columns, halfScale ? "e->half_zero" : "e->float_zero",
      pointer(destination));
  workspaceBytes = 32 << 20;
  // The columns are dead once the GEMM has read them.
  if (columnsOffset)
    arena.release(*columnsOffset);
  return success();
}

/// Each cuDNN call costs tens of microseconds on the host (cuDNN 9 builds
/// its legacy calls on its graph API), which a small convolution cannot
/// hide; a large one gains from not writing im2col columns. On an H200,
/// ResNet-50 f16 at batch 64 (convolutions of 1.8 to 15 GFLOP) ran in
/// 2.63 ms through cuDNN against 5.00 ms with im2col, and ResNet-18 at batch
/// 1 (0.1 to 0.2 GFLOP) in 1.12 ms against 0.27 to 0.46 ms.
static constexpr double cudnnMinimumFlops = 1e9;

/// Whether a convolution whose GEMM is rows x channels x depth (at the
/// optimum batch) runs through cuDNN.
bool CudaEmitter::prefersCudnn(int64_t rows, int64_t channels,
                               int64_t depth) const {
  switch (options.convolutions) {
  case CudaEngineOptions::Convolutions::Cudnn:
    return true;
  case CudaEngineOptions::Convolutions::Im2col:
    return false;
  case CudaEngineOptions::Convolutions::Auto:
    break;
  }
  double flops = 2.0 * rows * channels * depth;
  if (batchRange)
    flops = flops / batchRange->max * batchRange->opt;
  return flops >= cudnnMinimumFlops;
}

/// A convolution through cuDNN (its implicit-GEMM and other algorithms, the
/// fastest found when the engine is created) with the bias, and a ReLU
/// when `destination` is the ReLU's, applied in the same call: the
/// accumulator plus the bias is rounded once, as the im2col GEMM does.
LogicalResult CudaEmitter::emitCudnnConv(tosa::Conv2DOp op, Value destination) {
  Value input = op.getInput(), weight = op.getWeight(), bias = op.getBias(),
        result = op.getResult();
  ArrayRef<int64_t> in = shapeOf(input), w = shapeOf(weight),
                    out = shapeOf(result);
  ArrayRef<int64_t> pad = op.getPad(), stride = op.getStride(),
                    dilation = op.getDilation();
  auto dataType = [](Type type) {
    return type.isF16()    ? "CUDNN_DATA_HALF"
           : type.isBF16() ? "CUDNN_DATA_BFLOAT16"
                           : "CUDNN_DATA_FLOAT";
  };
  Type element = getElementTypeOrSelf(input.getType());
  bool relu = destination != result;
  usesCudnn = true;
  int index = kernelCount++;
  stateFields += llvm::formatv(
      "  cudnnTensorDescriptor_t cx{0} = nullptr, cy{0} = nullptr, cb{0} = "
      "nullptr; cudnnFilterDescriptor_t cw{0} = nullptr; "
      "cudnnConvolutionDescriptor_t cc{0} = nullptr; "
      "cudnnActivationDescriptor_t ca{0} = nullptr; cudnnConvolutionFwdAlgo_t "
      "calgo{0};\n",
      index);
  releaseCode += llvm::formatv(
      "  if (e->cx{0}) cudnnDestroyTensorDescriptor(e->cx{0});\n"
      "  if (e->cy{0}) cudnnDestroyTensorDescriptor(e->cy{0});\n"
      "  if (e->cb{0}) cudnnDestroyTensorDescriptor(e->cb{0});\n"
      "  if (e->cw{0}) cudnnDestroyFilterDescriptor(e->cw{0});\n"
      "  if (e->cc{0}) cudnnDestroyConvolutionDescriptor(e->cc{0});\n"
      "  if (e->ca{0}) cudnnDestroyActivationDescriptor(e->ca{0});\n",
      index);
  // An identity activation runs only with the implicit precomputed GEMM;
  // with a ReLU, the fastest algorithm cuDNN measures whose workspace fits
  // (at a dynamic batch: the one allocated for the largest).
  auto chooseAlgorithm = [&](llvm::StringRef limit) {
    if (!relu)
      return llvm::formatv(
                 "  e->calgo{0} = "
                 "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;\n",
                 index)
          .str();
    return llvm::formatv("  if (int s_ = prec_find_conv_algo(e->dnn, e->cx{0}, "
                         "e->cw{0}, e->cc{0}, e->cy{0}, {1}, &e->calgo{0})) "
                         "return s_;\n",
                         index, limit)
        .str();
  };
  createCode += llvm::formatv(
      R"(  if (!e->dnn) PREC_CHECK_DNN(cudnnCreate(&e->dnn));
  PREC_CHECK_DNN(cudnnCreateTensorDescriptor(&e->cx{0}));
  PREC_CHECK_DNN(cudnnSetTensor4dDescriptor(e->cx{0}, CUDNN_TENSOR_NHWC, {1}, {2}, {3}, {4}, {5}));
  PREC_CHECK_DNN(cudnnCreateTensorDescriptor(&e->cy{0}));
  PREC_CHECK_DNN(cudnnSetTensor4dDescriptor(e->cy{0}, CUDNN_TENSOR_NHWC, {1}, {6}, {7}, {8}, {9}));
  PREC_CHECK_DNN(cudnnCreateTensorDescriptor(&e->cb{0}));
  PREC_CHECK_DNN(cudnnSetTensor4dDescriptor(e->cb{0}, CUDNN_TENSOR_NHWC, {1}, 1, {7}, 1, 1));
  PREC_CHECK_DNN(cudnnCreateFilterDescriptor(&e->cw{0}));
  PREC_CHECK_DNN(cudnnSetFilter4dDescriptor(e->cw{0}, {1}, CUDNN_TENSOR_NHWC, {7}, {3}, {10}, {11}));
  PREC_CHECK_DNN(cudnnCreateConvolutionDescriptor(&e->cc{0}));
  PREC_CHECK_DNN(cudnnSetConvolution2dDescriptor(e->cc{0}, {12}, {13}, {14}, {15}, {16}, {17}, CUDNN_CROSS_CORRELATION, {18}));
  PREC_CHECK_DNN(cudnnSetConvolutionMathType(e->cc{0}, {21}));
  PREC_CHECK_DNN(cudnnCreateActivationDescriptor(&e->ca{0}));
  PREC_CHECK_DNN(cudnnSetActivationDescriptor(e->ca{0}, {19}, CUDNN_PROPAGATE_NAN, 0.0));
{20}  {{
    size_t bytes = 0;
    PREC_CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(e->dnn, e->cx{0}, e->cw{0}, e->cc{0}, e->cy{0}, e->calgo{0}, &bytes));
    if (bytes > e->dnn_workspace_bytes) e->dnn_workspace_bytes = bytes;
  }
)",
      index, dataType(element), in[0], in[3], in[1], in[2], out[0], out[3],
      out[1], out[2], w[1], w[2], pad[0], pad[2], stride[0], stride[1],
      dilation[0], dilation[1],
      dataType(op.getAccType()), // the accumulator
      relu ? "CUDNN_ACTIVATION_RELU" : "CUDNN_ACTIVATION_IDENTITY",
      chooseAlgorithm("PREC_DNN_WORKSPACE_LIMIT"),
      // f32 stays f32: tensor cores would round its operands to TF32.
      element.isF32() ? "CUDNN_FMA_MATH" : "CUDNN_TENSOR_OP_MATH");
  // At a dynamic batch, N follows the engine's batch and the algorithm is
  // chosen again within the workspace allocated for the largest.
  if (isBatched(result))
    resizeCode += llvm::formatv(
        R"(  PREC_CHECK_DNN(cudnnSetTensor4dDescriptor(e->cx{0}, CUDNN_TENSOR_NHWC, {1}, (int)({2}LL * b), {3}, {4}, {5}));
  PREC_CHECK_DNN(cudnnSetTensor4dDescriptor(e->cy{0}, CUDNN_TENSOR_NHWC, {1}, (int)({6}LL * b), {7}, {8}, {9}));
{10}  {{
    size_t bytes = 0;
    PREC_CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(e->dnn, e->cx{0}, e->cw{0}, e->cc{0}, e->cy{0}, e->calgo{0}, &bytes));
    if (bytes > e->dnn_workspace_bytes) return 40101;
  }
)",
        index, dataType(element), in[0] / batchRange->max, in[3], in[1], in[2],
        out[0] / batchRange->max, out[3], out[1], out[2],
        chooseAlgorithm("e->dnn_workspace_bytes"));
  std::string layer = getLayerName(op);
  runCode += llvm::formatv("  // tosa.conv2d{0}: {1}x{2}, cuDNN with the {3} "
                           "in the same call\n",
                           layer.empty() ? "" : " '" + layer + "'", w[1], w[2],
                           relu ? "bias and ReLU" : "bias");
  // y = act(conv(x) + 0 * z + bias), z being y.
  runCode += llvm::formatv(
      "  PREC_CHECK_DNN(cudnnConvolutionBiasActivationForward(e->dnn, "
      "&e->float_one, e->cx{0}, {1}, e->cw{0}, {2}, e->cc{0}, e->calgo{0}, "
      "e->dnn_workspace, e->dnn_workspace_bytes, &e->float_zero, e->cy{0}, "
      "{3}, e->cb{0}, {4}, e->ca{0}, e->cy{0}, {3}));\n",
      index, pointer(input), pointer(weight), pointer(destination),
      pointer(bias));
  return success();
}

LogicalResult CudaEmitter::emitPool(Operation *op, bool isMax) {
  Value input = op->getOperand(0), result = op->getResult(0);
  ArrayRef<int64_t> in = shapeOf(input), out = shapeOf(result);
  ArrayRef<int64_t> kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel");
  ArrayRef<int64_t> stride = op->getAttrOfType<DenseI64ArrayAttr>("stride");
  ArrayRef<int64_t> pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
  DeviceType x = typeOf(input), o = typeOf(result);
  std::string name = kernelName(op);
  // Padding takes no part: max over, and average of, the elements inside.
  kernels += llvm::formatv(
      "// {0} {1}\n__global__ void {2}(const {3} *__restrict__ in0, {4} "
      "*__restrict__ out{18}) {{\n"
      "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
      "  if (i >= {5}) return;\n"
      "  long long c = i % {6}LL, ow = (i / {6}LL) % {7}LL, oh = (i / ({6}LL "
      "* {7}LL)) % {8}LL, n = i / ({6}LL * {7}LL * {8}LL);\n"
      "  float acc = {9};\n  int count = 0;\n"
      "  for (int y = 0; y < {10}; ++y) for (int z = 0; z < {11}; ++z) {{\n"
      "    long long iy = oh * {12}LL - {13}LL + y, ix = ow * {14}LL - {15}LL "
      "+ z;\n"
      "    if (iy < 0 || iy >= {16}LL || ix < 0 || ix >= {17}LL) continue;\n",
      op->getName(), getLayerName(op), name, x.cType, o.cType,
      kernelBound(result, countOf(result)), out[3], out[2], out[1],
      isMax ? "-INFINITY" : "0.0f", kernel[0], kernel[1], stride[0], pad[0],
      stride[1], pad[2], in[1], in[2], countParameter(result));
  kernels += "    float v = " +
             substitute(x.toFloat,
                        llvm::formatv("in0[((n * {0}LL + iy) * {1}LL + ix) * "
                                      "{2}LL + c]",
                                      in[1], in[2], in[3])
                            .str()) +
             ";\n";
  kernels += std::string("    acc = ") +
             (isMax ? "fmaxf(acc, v)" : "__fadd_rn(acc, v)") +
             ";\n    ++count;\n  }\n";
  kernels += std::string("  float r = ") +
             (isMax ? "acc" : "__fdiv_rn(acc, (float)count)") +
             ";\n  out[i] = " + substitute(o.fromFloat, "r") + ";\n}\n\n";
  launch(op, name, countOf(result), {input}, result);
  return success();
}

/// Combines every thread's `v` of a row kernel's block: a shuffle tree in
/// each warp, then the warps' partials in order. Every thread gets the result.
static constexpr const char *rowReduceHelper =
    R"(template <bool IsMax>
__device__ __forceinline__ float prec_row_reduce(float v, float *partial) {
  for (int offset = 16; offset > 0; offset /= 2) {
    float w = __shfl_xor_sync(0xffffffffu, v, offset);
    v = IsMax ? fmaxf(v, w) : __fadd_rn(v, w);
  }
  const int warps = blockDim.x / 32;
  if (warps == 1) return v;
  __syncthreads(); // the previous reduction has read its partials
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = partial[0];
  for (int w = 1; w < warps; ++w) v = IsMax ? fmaxf(v, partial[w]) : __fadd_rn(v, partial[w]);
  return v;
}

)";

/// A row group as one kernel: a block per row, each thread holding row
/// elements threadIdx.x + e * threads in registers. Every op rounds to its
/// type as its own kernel would; only the summation order of a reduction
/// differs from the CPU path, as in emitReduce.
LogicalResult CudaEmitter::emitRowGroup(const RowGroup &group) {
  const int64_t width = group.width;
  const int threads = width >= 2048  ? 256
                      : width >= 512 ? 128
                      : width >= 128 ? 64
                                     : 32;
  const int64_t perThread = (width + threads - 1) / threads;
  // Element e of a thread is inside the row unless the threads overrun it.
  const bool overruns = width % threads != 0;
  // A loop over a thread's elements of the row running `statements`, which
  // see the element's index in the row as j.
  auto overRow = [&](const std::string &statements) {
    return llvm::formatv("#pragma unroll\n"
                         "  for (int e = 0; e < {0}; ++e) {{\n"
                         "    [[maybe_unused]] const long long j = "
                         "threadIdx.x + e * {1};\n"
                         "{2}{3}  }\n",
                         perThread, threads,
                         overruns ? llvm::formatv("    if (j >= {0}LL) "
                                                  "break;\n",
                                                  width)
                                        .str()
                                  : std::string(),
                         statements)
        .str();
  };
  auto inGroup = [&](Operation *op) {
    return op && rowGroupOf.lookup(op) == &group;
  };
  // Reshapes inside the group alias the value they reshape.
  auto rootOf = [&](Value value) {
    while (auto reshape = value.getDefiningOp<tosa::ReshapeOp>()) {
      if (!inGroup(reshape))
        break;
      value = reshape.getInput1();
    }
    return value;
  };
  std::function<bool(Value)> isReadAfter = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return !inGroup(user) ||
             (isa<tosa::ReshapeOp>(user) && isReadAfter(user->getResult(0)));
    });
  };
  auto isFull = [&](Value value) {
    return getRowValueKind(value, group.rows, width) == RowValueKind::Full;
  };

  llvm::DenseMap<Value, std::string> registers;
  SmallVector<Value> inputs, outputs;
  std::string body, layers;
  for (Operation *op : group.ops) {
    if (isa<tosa::ReshapeOp>(op))
      continue;
    layers += llvm::formatv("//   {0} {1}\n", op->getName(), getLayerName(op));
    Value result = op->getResult(0);
    bool full = isFull(result);
    std::string name = (full ? "f" : "s") + std::to_string(registers.size());
    registers[result] = name;
    if (isReadAfter(result))
      outputs.push_back(result);
    if (isa<tosa::ReduceSumOp, tosa::ReduceMaxOp>(op)) {
      bool isMax = isa<tosa::ReduceMaxOp>(op);
      // A row computed before the group is loaded into registers first.
      Value reduced = rootOf(op->getOperand(0));
      if (!registers.count(reduced)) {
        std::string loaded = "f" + std::to_string(registers.size());
        registers[reduced] = loaded;
        size_t input = inputs.size();
        inputs.push_back(reduced);
        body += llvm::formatv("  float {0}[{1}];\n", loaded, perThread);
        body += overRow(llvm::formatv(
            "    {0}[e] = {1};\n", loaded,
            substitute(
                typeOf(reduced).toFloat,
                llvm::formatv("in{0}[row * {1}LL + j]", input, width).str())));
      }
      body += llvm::formatv("  float {0}_acc = {1};\n", name,
                            isMax ? "-INFINITY" : "0.0f");
      body += overRow(
          llvm::formatv(isMax ? "    {0}_acc = fmaxf({0}_acc, {1}[e]);\n"
                              : "    {0}_acc = __fadd_rn({0}_acc, {1}[e]);\n",
                        name, registers.lookup(reduced)));
      body += llvm::formatv(
          "  const float {0} = prec_row_reduce<{1}>({0}_acc, partial);\n", name,
          isMax ? "true" : "false");
      continue;
    }
    // Operands: registers of the group, or loads of values computed before.
    std::string expression = elementwiseExpression(op);
    SmallVector<ArrayRef<int64_t>> loadedShapes;
    std::string loads;
    for (auto [index, operand] : llvm::enumerate(dataOperands(op))) {
      Value root = rootOf(operand);
      std::string operandExpression;
      if (std::string reg = registers.lookup(root); !reg.empty()) {
        operandExpression = isFull(root) ? reg + "[e]" : reg;
      } else if (std::optional<std::string> literal =
                     getSplatLiteral(operand)) {
        operandExpression = *literal;
      } else {
        auto it = llvm::find(inputs, operand);
        size_t input = it - inputs.begin();
        if (it == inputs.end())
          inputs.push_back(operand);
        // Rows, per-row values and vectors along the row are read directly;
        // other broadcasts through the coordinates.
        ArrayRef<int64_t> shape = shapeOf(operand);
        std::string offset;
        if (isFull(operand))
          offset = llvm::formatv("row * {0}LL + j", width);
        else if (getRowValueKind(operand, group.rows, width) ==
                 RowValueKind::PerRow)
          offset = "row";
        else if (llvm::all_of(shape.drop_back(),
                              [](int64_t d) { return d == 1; }))
          offset = shape.back() == 1 ? "0" : "j";
        else
          offset = "o" + std::to_string(loadedShapes.size());
        if (offset.front() == 'o')
          loadedShapes.push_back(shape);
        operandExpression =
            substitute(typeOf(operand).toFloat,
                       llvm::formatv("in{0}[{1}]", input, offset).str());
      }
      std::string placeholder = "$" + std::to_string(index);
      operandExpression = "(" + operandExpression + ")";
      for (size_t at = expression.find(placeholder); at != std::string::npos;
           at = expression.find(placeholder, at + operandExpression.size()))
        expression.replace(at, placeholder.size(), operandExpression);
    }
    if (!loadedShapes.empty())
      loads = (full ? "    long long i = row * " + std::to_string(width) +
                          "LL + j;\n"
                    : std::string("    long long i = row;\n")) +
              broadcastOffsets(shapeOf(result), loadedShapes);
    if (!getElementTypeOrSelf(result.getType()).isF32())
      expression = substitute(
          typeOf(result).toFloat,
          "(" + substitute(typeOf(result).fromFloat, expression) + ")");
    if (full)
      body += llvm::formatv("  float {0}[{1}];\n", name, perThread).str() +
              overRow(llvm::formatv("{0}    {1}[e] = {2};\n", loads, name,
                                    expression));
    else
      body += llvm::formatv("  float {0};\n  {{\n{1}    {0} = {2};\n  }\n",
                            name, loads, expression);
  }

  // The values read after the group get buffers; so do the reshapes of them
  // that the group covers.
  for (Value output : outputs)
    if (failed(assignBuffer(output)))
      return failure();
  for (Operation *op : group.ops)
    if (isa<tosa::ReshapeOp>(op))
      if (auto it = buffers.find(rootOf(op->getResult(0))); it != buffers.end())
        buffers[op->getResult(0)] = it->second;

  std::string name = kernelName(group.ops.back());
  std::string signature;
  for (auto [index, input] : llvm::enumerate(inputs))
    signature += llvm::formatv("const {0} *__restrict__ in{1}, ",
                               typeOf(input).cType, index);
  for (auto [index, output] : llvm::enumerate(outputs))
    signature += llvm::formatv("{0}{1} *__restrict__ out{2}", index ? ", " : "",
                               typeOf(output).cType, index);
  std::string writes;
  for (auto [index, output] : llvm::enumerate(outputs)) {
    std::string reg = registers.lookup(output);
    if (isFull(output))
      writes += overRow(
          llvm::formatv("    out{0}[row * {1}LL + j] = {2};\n", index, width,
                        substitute(typeOf(output).fromFloat, reg + "[e]")));
    else
      writes += llvm::formatv("  if (threadIdx.x == 0) out{0}[row] = {1};\n",
                              index, substitute(typeOf(output).fromFloat, reg));
  }
  kernels += llvm::formatv(
      "// row kernel: {0} rows of {1}, a block of {2} threads per row, for\n"
      "{3}__global__ void {4}({5}) {{\n"
      "  __shared__ float partial[8];\n"
      "  const long long row = blockIdx.x;\n{6}{7}}\n\n",
      group.rows, width, threads, layers, name, signature, body, writes);
  std::string layer = getLayerName(group.ops.back());
  runCode += llvm::formatv("  // row kernel ending at {0}{1}\n",
                           group.ops.back()->getName(),
                           layer.empty() ? "" : " '" + layer + "'");
  runCode += llvm::formatv(
      "  {0}<<<{1}, {2}, 0, stream>>>(", name,
      blocksFor(group.ops.back()->getResult(0), group.rows, 1), threads);
  SmallVector<std::string> arguments;
  for (Value value : llvm::concat<Value>(inputs, outputs))
    arguments.push_back(pointer(value));
  runCode += llvm::join(arguments, ", ") + ");\n";
  return success();
}

LogicalResult CudaEmitter::emitOp(Operation *op) {
  if (auto assignment = op->getAttrOfType<precision::AssignmentAttr>(
          precision::PrecisionDialect::getAssignmentAttrName())) {
    auto typeName = [](Type type) {
      std::string text;
      llvm::raw_string_ostream(text) << type;
      return text;
    };
    opRecords.push_back(
        llvm::json::Object{{"name", getLayerName(op)},
                           {"op", op->getName().getStringRef()},
                           {"compute", typeName(assignment.getCompute())},
                           {"accumulate", typeName(assignment.getAccumulate())},
                           {"storage", typeName(assignment.getStorage())}});
  }
  if (isa<tosa::ConstShapeOp>(op))
    return success();
  if (auto constant = dyn_cast<tosa::ConstOp>(op))
    return addWeight(constant.getResult(), constant.getValues());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto values = dyn_cast<ElementsAttr>(constant.getValue());
    if (!values)
      return unsupported(op, "only tensor constants are emitted");
    return addWeight(constant.getResult(), values);
  }
  // Reshapes and identities alias their input's buffer.
  if (isa<tosa::ReshapeOp, tosa::IdentityOp>(op)) {
    buffers[op->getResult(0)] = buffers.lookup(op->getOperand(0));
    return success();
  }
  if (op->getNumResults() != 1)
    return unsupported(op, "ops with several results are not emitted");
  if (Operation *gemm = gemmAt.lookup(op)) {
    if (auto matmul = dyn_cast<tosa::MatMulOp>(gemm))
      return emitMatmul(matmul);
    return emitConvGemm(cast<tosa::Conv2DOp>(gemm));
  }
  // Computed by a GEMM's epilogue, a row kernel or its user's kernel.
  if (performedBy.count(op) || isFusedIntoUser(op))
    return success();
  if (const RowGroup *group = rowGroupOf.lookup(op))
    return op == group->ops.back() ? emitRowGroup(*group) : success();
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op))
    return emitMatmul(matmul);
  if (failed(assignBuffer(op->getResult(0))))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tosa::ReduceSumOp>([&](auto) { return emitReduce(op, false); })
      .Case<tosa::ReduceMaxOp>([&](auto) { return emitReduce(op, true); })
      .Case<tosa::TransposeOp>([&](auto t) { return emitTranspose(t); })
      .Case<tosa::SliceOp>([&](auto s) { return emitSlice(s); })
      .Case<tosa::ConcatOp>([&](auto c) { return emitConcat(c); })
      .Case<tosa::TileOp>([&](auto t) { return emitTile(t); })
      .Case<tosa::GatherOp>([&](auto g) { return emitGather(g); })
      .Case<tosa::Conv2DOp>([&](auto conv) { return emitConvGemm(conv); })
      .Case<tosa::DepthwiseConv2DOp>([&](auto) { return emitConv(op, true); })
      .Case<tosa::MaxPool2dOp>([&](auto) { return emitPool(op, true); })
      .Case<tosa::AvgPool2dOp>([&](auto) { return emitPool(op, false); })
      .Default([&](Operation *) { return emitElementwise(op); });
}

static constexpr const char *matmulHelpers =
    R"([[maybe_unused]] static void prec_set_batch(cublasLtMatrixLayout_t layout, int batch, long long stride) {{
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch));
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride));
}

[[maybe_unused]] static void prec_set_columns(cublasLtMatrixLayout_t layout, long long columns) {{
  uint64_t value = (uint64_t)columns;
  cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_COLS, &value, sizeof(value));
}

static int prec_pick_algo({0}_engine *e, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a,
                          cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, cublasLtMatmulAlgo_t *algo) {{
  cublasLtMatmulPreference_t preference;
  if (cublasLtMatmulPreferenceCreate(&preference) != CUBLAS_STATUS_SUCCESS) return 20001;
  size_t workspace = PREC_WORKSPACE;
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace));
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(e->lt, desc, a, b, c, c, preference, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  if (found == 0) return 20002;
  *algo = result.algo;
  return 0;
}

)";

LogicalResult CudaEmitter::analyzeBatch() {
  SmallVector<unsigned> batchedInputs;
  for (BlockArgument argument : function.getArguments()) {
    std::string name = getBindingName(argument);
    bool batched = options.batchInputs.empty()
                       ? shapeOf(argument).front() == options.batch->max
                       : llvm::is_contained(options.batchInputs, name);
    if (batched)
      batchedInputs.push_back(argument.getArgNumber());
  }
  for (const std::string &name : options.batchInputs)
    if (llvm::none_of(function.getArguments(), [&](BlockArgument argument) {
          return getBindingName(argument) == name;
        }))
      return function.emitError()
             << "--batch-inputs names '" << name << "', which is not an input";
  if (batchedInputs.empty())
    return function.emitError()
           << "dynamic batch: no input has the largest batch, "
           << options.batch->max << ", as its dimension 0";
  FailureOr<BatchAnalysis> analysis = BatchAnalysis::run(
      function, batchedInputs, options.batch->max,
      [](Operation *op) { return !elementwiseExpression(op).empty(); });
  if (failed(analysis))
    return failure();
  batchAnalysis = std::move(*analysis);
  batchRange = options.batch;
  return success();
}

LogicalResult CudaEmitter::emit(llvm::raw_ostream &cu,
                                llvm::StringRef directory) {
  // Bindings: inputs then outputs, in signature order.
  llvm::json::Array bindingRecords;
  std::string bindingTable;
  auto isBindable = [](Type type) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    return tensorType && tensorType.hasStaticShape() &&
           getDeviceType(tensorType.getElementType());
  };
  if (!llvm::all_of(function.getArgumentTypes(), isBindable) ||
      !llvm::all_of(function.getResultTypes(), isBindable))
    return function.emitError()
           << "the CUDA emitter needs statically shaped tensor bindings";
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  if (options.batch && failed(analyzeBatch()))
    return failure();

  auto addBinding = [&](const std::string &name, Value value, bool isInput) {
    auto tensorType = cast<RankedTensorType>(value.getType());
    DeviceType device = *getDeviceType(tensorType.getElementType());
    llvm::json::Array shape;
    std::string dims;
    for (int64_t dim : tensorType.getShape()) {
      shape.push_back(dim);
      dims += std::to_string(dim) + ", ";
    }
    llvm::json::Object record{{"name", name},
                              {"input", isInput},
                              {"dtype", device.dtype},
                              {"shape", std::move(shape)}};
    if (batchRange)
      record["batched"] = isBatched(value);
    bindingRecords.push_back(std::move(record));
    bindingTable += llvm::formatv(
        "  {{\"{0}\", {1}, \"{2}\", {3}, {{{4}}},\n", name, isInput ? 1 : 0,
        device.dtype, tensorType.getRank(), dims.empty() ? "0" : dims);
  };
  for (BlockArgument argument : function.getArguments()) {
    buffers[argument] = Buffer{Buffer::Kind::Input, argument.getArgNumber(), 0,
                               typeOf(argument).cType};
    addBinding(getBindingName(argument), argument, true);
  }
  for (auto [index, operand] : llvm::enumerate(ret.getOperands()))
    addBinding(getResultName(function, index), operand, false);

  // Results produced here (through reshapes that only alias them) are
  // written into their output bindings; others are copied there at the end.
  for (auto [index, operand] : llvm::enumerate(ret.getOperands())) {
    Value value = operand;
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<tosa::ReshapeOp, tosa::IdentityOp>(def) ||
          !def->getOperand(0).hasOneUse())
        break;
      value = def->getOperand(0);
    }
    Operation *def = value.getDefiningOp();
    if (def && !isa<tosa::ConstOp, arith::ConstantOp>(def) &&
        llvm::count(ret.getOperands(), operand) == 1 &&
        !outputBindings.count(value))
      outputBindings[value] = function.getNumArguments() + index;
  }

  if (failed(planGemmEpilogues()))
    return failure();
  rowGroups = planRowGroups(
      function.getBody().front(), /*maxWidth=*/8192,
      [](Operation *op) { return !elementwiseExpression(op).empty(); },
      // Sums in f32 (or max): other sums round every step, in order.
      [](Operation *op) {
        return isa<tosa::ReduceMaxOp>(op) ||
               getElementTypeOrSelf(op->getResult(0).getType()).isF32();
      },
      [&](Operation *op) { return isGemmEpilogue(op); });
  for (const RowGroup &group : rowGroups)
    for (Operation *op : group.ops)
      rowGroupOf[op] = &group;
  planBufferReleases();
  function.walk([&](Operation *op) {
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (auto type = dyn_cast<RankedTensorType>(value.getType());
          type && type.hasStaticShape())
        largestIndexSpace = std::max(largestIndexSpace, type.getNumElements());
  });
  for (Operation &op : function.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
        const Buffer &buffer = buffers.lookup(value);
        if (buffer.kind == Buffer::Kind::Output &&
            buffer.offset == int64_t(function.getNumArguments() + index))
          continue;
        runCode += llvm::formatv(
            "  PREC_CHECK(cudaMemcpyAsync(bindings[{0}], {1}, {2} * {3}, "
            "cudaMemcpyDeviceToDevice, stream));\n",
            function.getNumArguments() + index, pointer(value),
            runtimeCount(value, countOf(value)), typeOf(value).bytes);
      }
      continue;
    }
    if (failed(emitOp(&op)))
      return failure();
    releaseBuffersAfter(&op);
  }

  int numBindings = function.getNumArguments() + function.getNumResults();
  std::string prefix = stem;
  // cuDNN: one handle and one workspace (the largest any convolution's
  // algorithm needs), both made when the engine is created.
  std::string cudnnPreamble;
  if (usesCudnn) {
    cudnnPreamble = R"(#include <cudnn.h>

#define PREC_CHECK_DNN(call) do { cudnnStatus_t s_ = (call); if (s_ != CUDNN_STATUS_SUCCESS) return 40000 + (int)s_; } while (0)
#define PREC_DNN_WORKSPACE_LIMIT ((size_t)256 << 20)

// The fastest algorithm cuDNN measures for a convolution whose workspace
// needs at most `limit` bytes.
static int prec_find_conv_algo(cudnnHandle_t dnn, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                               cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t y, size_t limit,
                               cudnnConvolutionFwdAlgo_t *algo) {
  cudnnConvolutionFwdAlgoPerf_t found[8];
  int count = 0;
  PREC_CHECK_DNN(cudnnFindConvolutionForwardAlgorithm(dnn, x, w, c, y, 8, &count, found));
  for (int i = 0; i < count; ++i)
    if (found[i].status == CUDNN_STATUS_SUCCESS && found[i].memory <= limit) {
      *algo = found[i].algo;
      return 0;
    }
  return 40100;
}

)";
    stateFields += "  cudnnHandle_t dnn = nullptr;\n  void *dnn_workspace = "
                   "nullptr;\n  size_t dnn_workspace_bytes = 0;\n";
    createCode += "    if (e->dnn_workspace_bytes) "
                  "PREC_CHECK(cudaMalloc(&e->dnn_workspace, "
                  "e->dnn_workspace_bytes));\n";
    releaseCode += "  cudaFree(e->dnn_workspace);\n"
                   "  if (e->dnn) cudnnDestroy(e->dnn);\n";
    runCode = "  PREC_CHECK_DNN(cudnnSetStream(e->dnn, stream));\n" + runCode;
  }
  // A dynamic batch: the engine keeps the batch it runs at (the optimum
  // until set otherwise) and resizes its GEMMs when that changes.
  std::string batchCode;
  if (batchRange) {
    stateFields += llvm::formatv("  int batch = {0}, configured_batch = 0;\n",
                                 batchRange->opt);
    batchCode = llvm::formatv(
        R"(static int {0}_resize({0}_engine *e) {{
  [[maybe_unused]] const long long b = e->batch;
{1}  e->configured_batch = e->batch;
  return 0;
}

extern "C" void {0}_batch_range(int *min, int *opt, int *max) {{
  *min = {2}; *opt = {3}; *max = {4};
}

extern "C" int {0}_set_batch({0}_engine *e, int batch) {{
  if (batch < {2} || batch > {4}) return 30005;
  e->batch = batch;
  return 0;
}

)",
        prefix, resizeCode, batchRange->min, batchRange->opt, batchRange->max);
    createCode +=
        llvm::formatv("    if (int s_ = {0}_resize(e)) return s_;\n", prefix);
    runCode = llvm::formatv("  if (e->configured_batch != e->batch) {{\n"
                            "    if (int s_ = {0}_resize(e)) return s_;\n"
                            "  }\n",
                            prefix)
                  .str() +
              runCode;
  }
  // The .cu file.
  cu << llvm::formatv(
      R"(// CUDA engine generated by prec from a legalized module.
// Kernels carry the op and layer they compute in a comment above them.
#include "{0}.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#define PREC_WORKSPACE ((size_t){1})
#define PREC_CHECK(call) do {{ cudaError_t s_ = (call); if (s_ != cudaSuccess) return (int)s_; } while (0)
#define PREC_CHECK_BLAS(call) do {{ cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) return 10000 + (int)s_; } while (0)

__device__ inline int8_t prec_saturate_i8(float x) {{
  float r = rintf(x);
  return (int8_t)fminf(fmaxf(r, -128.0f), 127.0f);
}
__device__ inline int32_t prec_saturate_i32(float x) {{
  return (int32_t)fminf(fmaxf(rintf(x), -2147483648.0f), 2147483520.0f);
}

{2})",
      stem, std::max<int64_t>(workspaceBytes, 1), cudnnPreamble);
  if (!rowGroups.empty())
    cu << rowReduceHelper;
  cu << (largestIndexSpace < narrowIndexLimit ? narrowIndices(kernels)
                                              : kernels);
  cu << llvm::formatv(
      R"(struct {0}_engine {{
  char *weights = nullptr;
  char *arena = nullptr;
  void *workspace = nullptr;
  cublasLtHandle_t lt = nullptr;
  float float_one = 1.0f, float_zero = 0.0f;
  int32_t int_one = 1, int_zero = 0;
  __half half_one = __float2half(1.0f), half_zero = __float2half(0.0f);
{1}};

{8}{10}extern "C" int {0}_create(const char *weights_path, {0}_engine **out) {{
  *out = nullptr;
  FILE *file = std::fopen(weights_path, "rb");
  if (!file) return 30001;
  char magic[8];
  unsigned long long bytes = 0;
  if (std::fread(magic, 1, 8, file) != 8 || std::memcmp(magic, "PRECWTS1", 8) != 0 ||
      std::fread(&bytes, sizeof(bytes), 1, file) != 1 || bytes != {2}ULL) {{
    std::fclose(file);
    return 30002;
  }
  char *host = (char *)std::malloc(bytes ? bytes : 1);
  if (bytes && std::fread(host, 1, bytes, file) != bytes) {{
    std::free(host);
    std::fclose(file);
    return 30003;
  }
  std::fclose(file);
  {0}_engine *e = new {0}_engine();
  int status = 0;
  if (cudaMalloc(&e->weights, bytes ? bytes : 1) != cudaSuccess ||
      cudaMemcpy(e->weights, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMalloc(&e->arena, {3}ULL) != cudaSuccess ||
      cudaMalloc(&e->workspace, PREC_WORKSPACE) != cudaSuccess ||
      cublasLtCreate(&e->lt) != CUBLAS_STATUS_SUCCESS)
    status = 30004;
  std::free(host);
  if (status == 0) status = [&]() -> int {{
{4}    return 0;
  }();
  if (status != 0) {{
{9}    cudaFree(e->weights); cudaFree(e->arena); cudaFree(e->workspace);
    if (e->lt) cublasLtDestroy(e->lt);
    delete e;
    return status;
  }
  *out = e;
  return 0;
}

extern "C" int {0}_run({0}_engine *e, void *const *bindings, cudaStream_t stream) {{
{5}  PREC_CHECK(cudaGetLastError());
  return 0;
}

extern "C" void {0}_destroy({0}_engine *e) {{
  if (!e) return;
{9}  cudaFree(e->weights);
  cudaFree(e->arena);
  cudaFree(e->workspace);
  cublasLtDestroy(e->lt);
  delete e;
}

struct {0}_binding {{ const char *name; int is_input; const char *dtype; int rank; long long shape[8]; };
static const {0}_binding {0}_bindings[] = {{
{6}};

extern "C" int {0}_num_bindings(void) {{ return {7}; }
extern "C" const char *{0}_binding_name(int i) {{ return {0}_bindings[i].name; }
extern "C" int {0}_binding_is_input(int i) {{ return {0}_bindings[i].is_input; }
extern "C" const char *{0}_binding_dtype(int i) {{ return {0}_bindings[i].dtype; }
extern "C" int {0}_binding_rank(int i) {{ return {0}_bindings[i].rank; }
extern "C" const long long *{0}_binding_shape(int i) {{ return {0}_bindings[i].shape; }
)",
      prefix, stateFields, weights.size(), std::max<int64_t>(arena.size(), 1),
      createCode, runCode, bindingTable, numBindings,
      // cuBLASLt helpers, where there are matmuls to call.
      hasGemms ? llvm::formatv(matmulHelpers, prefix).str() : std::string(),
      releaseCode, batchCode);

  // The header.
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, stem + ".h");
  std::error_code error;
  {
    llvm::raw_fd_ostream header(path, error);
    if (error)
      return function.emitError()
             << "cannot write '" << path << "': " << error.message();
    header << llvm::formatv(R"(/* C API of the prec engine '{0}'. */
#ifndef PREC_ENGINE_{1}_H
#define PREC_ENGINE_{1}_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {{
#endif

typedef struct {0}_engine {0}_engine;

/* Loads the weights file and allocates everything the engine needs;
   returns 0 or an error code. */
int {0}_create(const char *weights_path, {0}_engine **engine);
/* Runs on `stream`; bindings are device pointers, inputs then outputs, in
   the order of the binding queries below. No allocation happens here. */
int {0}_run({0}_engine *engine, void *const *bindings, cudaStream_t stream);
void {0}_destroy({0}_engine *engine);

int {0}_num_bindings(void);
const char *{0}_binding_name(int index);
int {0}_binding_is_input(int index);
const char *{0}_binding_dtype(int index);
int {0}_binding_rank(int index);
const long long *{0}_binding_shape(int index);
{2}
#ifdef __cplusplus
}
#endif

#endif
)",
                            prefix, llvm::StringRef(prefix).upper(),
                            batchRange ? llvm::formatv(R"(
/* Dynamic batch: binding shapes above are at the largest batch; the batched
   bindings (the manifest's "batched") hold `batch` samples when the engine
   runs. The batch starts at the optimum; GEMM algorithms are chosen again
   when it changes. set_batch returns non-zero outside [min, max]. */
void {0}_batch_range(int *min, int *opt, int *max);
int {0}_set_batch({0}_engine *engine, int batch);
)",
                                                       prefix)
                                             .str()
                                       : std::string());
  }

  // The weights file: magic, byte count, the weights block.
  path = directory;
  llvm::sys::path::append(path, stem + ".weights");
  {
    llvm::raw_fd_ostream file(path, error, llvm::sys::fs::OF_None);
    if (error)
      return function.emitError()
             << "cannot write '" << path << "': " << error.message();
    uint64_t bytes = weights.size();
    file.write("PRECWTS1", 8);
    file.write(reinterpret_cast<const char *>(&bytes), sizeof(bytes));
    file.write(weights.data(), weights.size());
  }

  // The manifest.
  path = directory;
  llvm::sys::path::append(path, stem + ".json");
  {
    llvm::raw_fd_ostream file(path, error);
    if (error)
      return function.emitError()
             << "cannot write '" << path << "': " << error.message();
    std::string target = "cpu";
    if (auto policy = function->getParentOfType<ModuleOp>()
                          ->getAttrOfType<precision::PolicyAttr>(
                              precision::PrecisionDialect::getPolicyAttrName()))
      target = policy.getTarget().str();
    llvm::json::Object manifest{
        {"engine", stem},
        {"target", target},
        {"bindings", std::move(bindingRecords)},
        {"batch", batchRange ? llvm::json::Value(
                                   llvm::json::Object{{"min", batchRange->min},
                                                      {"opt", batchRange->opt},
                                                      {"max", batchRange->max}})
                             : llvm::json::Value(nullptr)},
        {"ops", std::move(opRecords)},
        {"weights_bytes", int64_t(weights.size())},
        {"activation_bytes", arena.size()},
        {"workspace_bytes", workspaceBytes},
        {"libraries", usesCudnn ? llvm::json::Array{"cublasLt", "cudnn"}
                                : llvm::json::Array{"cublasLt"}}};
    file << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
         << "\n";
  }
  return success();
}

} // namespace

LogicalResult emitCudaEngine(ModuleOp module, llvm::raw_ostream &cuStream,
                             llvm::StringRef directory, llvm::StringRef stem,
                             const CudaEngineOptions &options) {
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  auto main = llvm::find_if(
      functions, [](func::FuncOp f) { return f.getName() == "main"; });
  func::FuncOp function = main != functions.end() ? *main
                          : functions.size() == 1 ? functions[0]
                                                  : func::FuncOp();
  if (!function)
    return module.emitError()
           << "the CUDA emitter needs a function @main (or a single function)";
  if (module.walk([](precision::RegionOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return module.emitError()
           << "precision.region must be legalized first: run prec-legalize";
  PassManager lowering(module.getContext());
  buildLowerToGpuPipeline(lowering);
  if (failed(lowering.run(module)))
    return failure();
  return CudaEmitter(function, stem, options).emit(cuStream, directory);
}

void registerCudaEmitTranslation() {
  static llvm::cl::opt<std::string> batch(
      "batch",
      llvm::cl::desc("--emit-cuda: a dynamic batch MIN:OPT:MAX; the module is "
                     "at MAX"));
  static llvm::cl::opt<std::string> convolutions(
      "conv",
      llvm::cl::desc("--emit-cuda: convolutions other than unit-stride 1x1 "
                     "ones as im2col + a cuBLASLt GEMM (im2col), through "
                     "cuDNN (cudnn), or cuDNN for those of 1 GFLOP or more "
                     "(auto)"),
      llvm::cl::init("auto"));
  static llvm::cl::list<std::string> batchInputs(
      "batch-inputs", llvm::cl::CommaSeparated,
      llvm::cl::desc("--emit-cuda: the inputs whose dimension 0 is the batch "
                     "(default: those of size MAX)"));
  TranslateFromMLIRRegistration registration(
      "emit-cuda",
      "Write a legalized module as a CUDA engine (.cu, .h, .weights, .json)",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError() << "expected a module";
        llvm::StringRef path = engineOutputPath();
        llvm::SmallString<256> directory;
        std::string stem = "engine";
        if (!path.empty() && path != "-") {
          directory = llvm::sys::path::parent_path(path);
          stem = llvm::sys::path::stem(path).str();
        }
        if (directory.empty())
          directory = ".";
        // The stem names C functions: keep it an identifier.
        for (char &c : stem)
          if (!isalnum(c))
            c = '_';
        if (stem.empty() || isdigit(stem[0]))
          stem = "engine_" + stem;
        CudaEngineOptions options;
        if (!batch.empty()) {
          std::string error;
          options.batch = parseBatchRange(batch, error);
          if (!options.batch)
            return module.emitError() << error;
        } else if (!batchInputs.empty()) {
          return module.emitError() << "--batch-inputs needs --batch";
        }
        options.batchInputs.assign(batchInputs.begin(), batchInputs.end());
        using Convolutions = CudaEngineOptions::Convolutions;
        if (convolutions == "im2col")
          options.convolutions = Convolutions::Im2col;
        else if (convolutions == "cudnn")
          options.convolutions = Convolutions::Cudnn;
        else if (convolutions != "auto")
          return module.emitError()
                 << "--conv must be auto, im2col or cudnn, not '"
                 << convolutions << "'";
        return emitCudaEngine(module, os, directory, stem, options);
      },
      [](DialectRegistry &registry) {
        registry
            .insert<func::FuncDialect, tosa::TosaDialect, arith::ArithDialect,
                    math::MathDialect, precision::PrecisionDialect>();
      });
}

} // namespace prec
