//===- AttentionEmission.cpp - engine.attention as one kernel -------------===//
//
// Prints the launch of runtime/AttentionKernel.cuh's kernel for an
// engine.attention, with the functor that turns a dot product and a mask
// value into a logit as the program rounded them.
//
//===----------------------------------------------------------------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InterleavedRange.h"

namespace prec::cuda {

const char *const attentionKernel =
#include "codegen/AttentionKernel.inc"
    ;

namespace {

/// The most blocks a CUDA grid has along y.
constexpr int64_t kMaxGridY = 65535;

/// The logit of `scores` with the op's scale (`scaled(x, scale)`, left out
/// where the scale is 1) and mask (`masked(x)`, left out without a mask),
/// in the op's order.
std::string composeLogit(
    engine::AttentionOp op, const std::string &scores,
    llvm::function_ref<std::string(const std::string &, const std::string &)>
        scaled,
    llvm::function_ref<std::string(const std::string &)> masked) {
  double value = op.getScale().convertToDouble();
  auto scale = [&](const std::string &x) {
    return value == 1.0 ? x : scaled(x, getFloatLiteral(float(value)));
  };
  auto mask = [&](const std::string &x) {
    return op.getMask() ? masked(x) : x;
  };
  return op.getMaskFirst() ? scale(mask(scores)) : mask(scale(scores));
}

/// The scores of dot product `s`: multiplied by the dequantization factor
/// where the op's matmuls are quantized, rounding to f32.
std::string getScores(engine::AttentionOp op, StringRef s) {
  engine::AttentionQuantizationAttr quantization = op.getQuantizationAttr();
  if (!quantization)
    return s.str();
  return "__fmul_rn(" + s.str() + ", " +
         getFloatLiteral(quantization.getScores().getValue().convertToFloat()) +
         ")";
}

/// The logit of dot product `s` and mask value `m`: each part rounded to
/// its type.
std::string getLogitExpression(engine::AttentionOp op) {
  return composeLogit(
      op, roundedTo(op.getScoreType(), getScores(op, "s")),
      [&](const std::string &x, const std::string &scale) {
        return roundedTo(op.getScaledType(), "(" + x + ") * " + scale);
      },
      [&](const std::string &x) {
        return roundedTo(op.getMaskedType(), "(" + x + ") + m");
      });
}

/// The 16-bit type every part of `op` rounds to, and its mask holds, if
/// there is one and the scale is exact in it: then a pair of logits is
/// computed in packed 16-bit arithmetic, bit for bit what rounding each
/// step's f32 result computes (f32 holds the exact product of two such
/// values, and rounding their f32 sum once more gives the rounded exact sum;
/// bench/gpu/check_packed_logits.cu checks it). The multiply is
/// `__hmul2_rn`, which the compiler may not fuse with the add.
std::optional<Type> getPackedLogitType(engine::AttentionOp op) {
  Type type = op.getScoreType();
  if (!type.isF16() && !type.isBF16())
    return std::nullopt;
  if (op.getScale().convertToDouble() != 1.0) {
    llvm::APFloat scale = op.getScale();
    bool losesInfo = false;
    scale.convert(cast<FloatType>(type).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (op.getScaledType() != type || losesInfo)
      return std::nullopt;
  }
  if (op.getMask() &&
      (op.getMaskedType() != type || elementOf(op.getMask()) != type))
    return std::nullopt;
  return type;
}

/// The logits of dot products `s` (float2) with mask values `m` (a pair of
/// the mask's type), as the tensor-core kernel takes them.
std::string getPairLogitExpression(engine::AttentionOp op) {
  std::optional<Type> packed = getPackedLogitType(op);
  if (!packed)
    return "make_float2((*this)(s.x, prec_to_float(m.x)), "
           "(*this)(s.y, prec_to_float(m.y)))";
  std::string pair =
      llvm::formatv("prec_pair<{0}>", getDeviceType(*packed)->cType).str();
  std::string scores = op.getQuantizationAttr()
                           ? "make_float2(" + getScores(op, "s.x") + ", " +
                                 getScores(op, "s.y") + ")"
                           : std::string("s");
  std::string logit = composeLogit(
      op, pair + "::round(" + scores + ")",
      [&](const std::string &x, const std::string &scale) {
        return "__hmul2_rn(" + x + ", " + pair + "::splat(" + scale + "))";
      },
      [&](const std::string &x) { return "__hadd2(" + x + ", m)"; });
  return pair + "::to_float(" + logit + ")";
}

/// The functor `<name>_logit` of the attention kernels: a logit from a dot
/// product and a mask value, and a pair of them from a pair.
std::string getLogitFunctor(engine::AttentionOp op, StringRef name,
                            StringRef layer, StringRef maskType) {
  return llvm::formatv(
      "// engine.attention {0}\nstruct {1}_logit {{\n"
      "  __device__ float operator()(float s, float m) const {{ return {2}; "
      "}\n"
      "  __device__ float2 operator()(float2 s, prec_pair<{3}>::type m) const "
      "{{\n    return {4};\n  }\n};\n\n",
      layer, name, getLogitExpression(op), maskType,
      getPairLogitExpression(op));
}

/// The functor `name`_result through which a quantized result
/// (result_scale) is stored: f8(f32(round_U(o)) * scale), rounding as the
/// program's casts and multiply did.
std::string getResultFunctor(engine::AttentionOp op, StringRef name,
                             const DeviceType &out) {
  std::string scaled =
      "__fmul_rn(" + roundedTo(*op.getUnscaledType(), "x") + ", " +
      getFloatLiteral(float(op.getResultScale()->convertToDouble())) + ")";
  return llvm::formatv(
      "struct {0}_result {{\n  static constexpr bool PAIRS = false;\n"
      "  __device__ {1} operator()(float x) const {{ return {2}; }\n};\n\n",
      name, out.cType, substitute(out.fromFloat, scaled));
}

/// The tensor-core kernel's trailing template argument and kernel argument
/// for a quantized attention: prec_attention_i8 or prec_attention_f8 of the
/// op's type (normalized or not), with its factors.
std::pair<std::string, std::string>
getQuantizationArguments(engine::AttentionOp op) {
  engine::AttentionQuantizationAttr quantization = op.getQuantizationAttr();
  StringRef staged = getDeviceType(elementOf(op.getQuery()))->cType;
  std::string type =
      isa<IntegerType>(quantization.getType())
          ? llvm::formatv("prec_attention_i8<{0}>", staged).str()
          : llvm::formatv("prec_attention_f8<{0}, {1}{2}>",
                          getDeviceType(quantization.getType())->cType, staged,
                          quantization.getNormalized() ? ", true" : "")
                .str();
  auto literal = [](FloatAttr factor) {
    return getFloatLiteral(factor.getValue().convertToFloat());
  };
  std::string value = llvm::formatv(
      "{0}{{{1}, {2}, {3}, {4}, {5}}", type, literal(quantization.getQuery()),
      literal(quantization.getKeys()), literal(quantization.getValues()),
      literal(quantization.getProbabilities()),
      literal(quantization.getResult()));
  return {type, value};
}

/// The staging policy type and value of an attention whose query or keys
/// are scaled (prec_attention_scaled), a missing factor being 1.
std::pair<std::string, std::string> getScaleArguments(engine::AttentionOp op) {
  Type element = elementOf(op.getQuery());
  auto literal = [&](std::optional<APFloat> factor) {
    return getHalfLiteral(factor.value_or(APFloat(1.0)), element);
  };
  std::string type =
      llvm::formatv("prec_attention_scaled<{0}>", getDeviceType(element)->cType)
          .str();
  std::string value =
      llvm::formatv("{0}{{{1}, {2}}", type, literal(op.getQueryFactor()),
                    literal(op.getKeysFactor()));
  return {type, value};
}

/// The report's record of what each part of `op` computes in.
llvm::json::Object getAttentionRecord(engine::AttentionOp op, StringRef layer) {
  auto elementName = [](Value value) { return getTypeName(elementOf(value)); };
  llvm::json::Object parts{{"scores", getTypeName(op.getScoreType())},
                           {"scaled", getTypeName(op.getScaledType())},
                           {"masked", getTypeName(op.getMaskedType())},
                           {"softmax", "f32"},
                           {"probabilities", elementName(op.getValues())}};
  // Query and keys multiplied by constants, rounded to their type.
  if (op.getQueryFactor())
    parts["scaled_query"] = elementName(op.getQuery());
  if (op.getKeysFactor())
    parts["scaled_keys"] = elementName(op.getKeys());
  // A quantized result: the output's rounding before its scale.
  if (std::optional<Type> unscaled = op.getUnscaledType())
    parts["unscaled_result"] = getTypeName(*unscaled);
  // Quantized matmuls: Q, K, V and the probabilities in their i8 or f8 type.
  std::string compute = elementName(op.getQuery());
  if (engine::AttentionQuantizationAttr quantization =
          op.getQuantizationAttr()) {
    compute = getTypeName(quantization.getType());
    parts["probabilities"] = compute;
  }
  return llvm::json::Object{{"name", layer.str()},
                            {"op", "engine.attention"},
                            {"compute", compute},
                            {"accumulate", "f32"},
                            {"storage", elementName(op.getResult())},
                            {"parts", std::move(parts)}};
}

/// Row-major strides of the mask over [B, H, Sq, Sk], 0 where it
/// broadcasts.
SmallVector<int64_t> getMaskStrides(Value mask) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
  SmallVector<int64_t> strides = computeStrides(shape);
  for (auto [stride, size] : llvm::zip_equal(strides, shape))
    if (size == 1)
      stride = 0;
  return strides;
}

/// How the tensor-core kernel reads `mask` (a prec_mask_read) where its
/// first element is aligned for a pair: a pair of keys as one value where
/// keys are adjacent, Sk is even and every row starts at an even element,
/// from a single row where every query shares it; else element by element.
StringRef getMaskRead(Value mask, int64_t sk) {
  if (!mask)
    return "PREC_NO_MASK";
  SmallVector<int64_t> strides = getMaskStrides(mask);
  bool evenRows = llvm::all_of(ArrayRef(strides).take_front(3),
                               [](int64_t stride) { return stride % 2 == 0; });
  if (strides[3] != 1 || sk % 2 != 0 || !evenRows)
    return "PREC_MASK_ELEMENTS";
  return strides[2] == 0 ? "PREC_MASK_ROW_PAIRS" : "PREC_MASK_PAIRS";
}

} // namespace

/// For an attention that skips masked keys: which tiles of keys its mask
/// leaves to each block of queries, and where it adds +0 throughout,
/// worked out once per run into a buffer the engine allocates at create
/// (one byte a tile and block, for each batch and head the mask has of its
/// own), once for attentions that share the mask. Returns that buffer.
std::string CudaEmitter::emitKeptTiles(engine::AttentionOp op,
                                       StringRef maskType, StringRef index) {
  Value mask = op.getMask();
  ArrayRef<int64_t> shape = shapeOf(mask);
  engine::AttentionOp::Sizes sizes = op.getMatrixSizes();
  int64_t sq = sizes.sq, sk = sizes.sk;
  int64_t rows = *op.getQueryRows(), keys = engine::AttentionOp::kKeysPerTile;
  std::string &buffer = keptTilesOfMask[{mask, rows, sq, sk}];
  if (!buffer.empty())
    return buffer;
  int64_t slices = shape[0] * shape[1];
  int64_t blocks = llvm::divideCeil(sq, rows),
          tiles = llvm::divideCeil(sk, keys);
  SmallVector<int64_t> strides = getMaskStrides(mask);
  buffer = llvm::formatv("e->kept_tiles{0}", kernelCount++).str();
  stateFields += "  unsigned char *" + buffer.substr(3) + " = nullptr;\n";
  createCode += llvm::formatv("    PREC_CHECK(cudaMalloc(&{0}, {1}));\n",
                              buffer, slices * blocks * tiles);
  releaseCode += "  cudaFree(" + buffer + ");\n";
  runCode += launchCall(
      llvm::formatv("prec_attention_kept_tiles<{0}, {1}, {2}, {3}>", rows, keys,
                    maskType, index)
          .str(),
      llvm::formatv("dim3({0}, {1}, {2})", tiles, blocks, slices).str(), "128",
      "0",
      llvm::formatv("{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}",
                    pointer(mask), sq, sk, strides[0], strides[1], strides[2],
                    strides[3], shape[1], buffer)
          .str());
  return buffer;
}

LogicalResult CudaEmitter::emitAttention(engine::AttentionOp op) {
  if (failed(assignBuffer(op.getResult())))
    return failure();
  hasAttention = true;
  auto [n, sq, sk, d, dv] = op.getMatrixSizes();
  std::string name = kernelName(op);
  std::string layer = getLayerName(op).str();
  Value mask = op.getMask();
  const char *maskType = mask ? typeOf(mask).cType : "float";
  kernels += getLogitFunctor(op, name, layer, maskType);
  // The kernels' trailing template argument, where the result is scaled.
  std::string resultArgument;
  if (op.getResultScale()) {
    kernels += getResultFunctor(op, name, typeOf(op.getResult()));
    resultArgument = ", " + name + "_result";
  }

  SmallVector<int64_t> strides =
      mask ? getMaskStrides(mask) : SmallVector<int64_t>(4, 0);
  std::string index = indexSpelling.type().str();
  // N, the batch times the heads: the grid runs a column of blocks per matrix.
  std::string matrices = runtimeCount(op.getResult(), n);
  auto braced = [](ArrayRef<int64_t> values) {
    std::string list;
    llvm::raw_string_ostream(list) << "{" << llvm::interleaved(values) << "}";
    return list;
  };
  std::string args = llvm::formatv(
      "prec_attention_args<{0}, {1}, {2}, {3}, {4}>{{{5}, {6}, {7}, {8}, {9}, "
      "({4})({10}), {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, "
      "{20}, {21}}",
      typeOf(op.getQuery()).cType, typeOf(op.getValues()).cType, maskType,
      typeOf(op.getResult()).cType, index, pointer(op.getQuery()),
      pointer(op.getKeys()), pointer(op.getValues()),
      mask ? pointer(mask) : "nullptr", pointer(op.getResult()), matrices, sq,
      sk, d, dv, op.getHeads(), braced(strides), braced(op.getQueryLayout()),
      braced(op.getKeysLayout()), braced(op.getValuesLayout()),
      braced(op.getResultLayout()), op.getKvGroup());
  std::string where = layer.empty() ? "" : " '" + layer + "'";
  const char *zeroNanRows = op.getZeroNanRows() ? "true" : "false";
  // The tiled kernels' shared memory exceeds the default 48 KB at large
  // head sizes: the engine's create raises their limit. With two kernels,
  // the run launches the first where `condition` holds, else the second.
  auto launchTiled = [&](ArrayRef<std::string> kernels, StringRef bytes,
                         StringRef grid, int64_t threads, StringRef on,
                         StringRef extraArgument = "",
                         StringRef condition = "") {
    for (const std::string &kernel : kernels)
      createCode +=
          llvm::formatv("    PREC_CHECK(cudaFuncSetAttribute({0}, "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize, {1}));\n",
                        kernel, bytes);
    runCode += llvm::formatv("  // engine.attention{0}, on {1}\n", where, on);
    auto launch = [&](StringRef kernel) {
      return launchCall(kernel, grid, std::to_string(threads), bytes,
                        args + ", " + name + "_logit()" + extraArgument.str());
    };
    if (kernels.size() == 1) {
      runCode += launch(kernels[0]);
      return;
    }
    runCode += llvm::formatv("  if ({0})\n  {1}  else\n  {2}", condition,
                             launch(kernels[0]), launch(kernels[1]));
  };
  const char *queryType = typeOf(op.getQuery()).cType;
  const char *valueType = typeOf(op.getValues()).cType;
  const char *outType = typeOf(op.getResult()).cType;
  if (op.getKernel() == engine::AttentionKernel::TensorCores) {
    // Tiles of 16 query rows a warp of 4 takes.
    int64_t tiles = *op.getQueryRows() / 64;
    // A column of blocks of rows per matrix: the kernel starts them row
    // block by row block across matrices.
    int64_t rowBlocks = llvm::divideCeil(sq, *op.getQueryRows());
    if (rowBlocks > kMaxGridY)
      return op.emitOpError() << "needs " << rowBlocks
                              << " blocks of query rows, more than a CUDA "
                                 "grid's "
                              << kMaxGridY;
    std::string keptTiles = "nullptr";
    if (op.getSkipMaskedKeys())
      keptTiles = emitKeptTiles(op, maskType, index);
    const char *keyRows = op.hasKeyRows() ? "true" : "false";
    std::string quantizationArgument = ", prec_attention_unquantized()";
    if (op.getQuantizationAttr() || op.getQueryFactor() || op.getKeysFactor()) {
      auto [type, value] = op.getQuantizationAttr()
                               ? getQuantizationArguments(op)
                               : getScaleArguments(op);
      if (resultArgument.empty())
        resultArgument =
            llvm::formatv(", prec_result<{0}>", typeOf(op.getResult()).cType);
      resultArgument += ", " + type;
      quantizationArgument = ", " + value;
    }
    auto kernel = [&](StringRef maskRead) {
      return llvm::formatv("prec_attention_mma<{0}, {1}, {2}, {3}, {4}, {5}, "
                           "{6}, {7}_logit, {8}, {9}, {10}, {11}{12}>",
                           tiles, d, dv, zeroNanRows,
                           op.getSkipMaskedKeys() ? "true" : "false", keyRows,
                           maskRead, name, queryType, maskType, outType, index,
                           resultArgument)
          .str();
    };
    // Pairs of mask values load as one where the mask's first element is
    // aligned for them, which only the run knows.
    StringRef maskRead = getMaskRead(mask, sk);
    SmallVector<std::string, 2> kernels = {kernel(maskRead)};
    std::string aligned;
    if (maskRead.ends_with("PAIRS")) {
      kernels.push_back(kernel("PREC_MASK_ELEMENTS"));
      aligned = llvm::formatv("reinterpret_cast<uintptr_t>({0}) % (2 * "
                              "sizeof({1})) == 0",
                              pointer(mask), maskType);
    }
    launchTiled(
        kernels,
        llvm::formatv("prec_attention_tiles<{0}, {1}, {2}, {3}, {4}>::BYTES",
                      tiles, d, dv, queryType, keyRows)
            .str(),
        llvm::formatv("dim3((unsigned)({0}), {1})", matrices, rowBlocks).str(),
        128, "tensor cores", ", " + keptTiles + quantizationArgument, aligned);
  } else if (op.getKernel() == engine::AttentionKernel::CudaCores) {
    launchTiled(
        {llvm::formatv("prec_attention_cuda_cores<{0}, {1}, {2}, "
                       "{3}_logit, {4}, {5}, {6}, {7}, {8}{9}>",
                       d, dv, zeroNanRows, name, queryType, valueType, maskType,
                       outType, index, resultArgument)
             .str()},
        llvm::formatv("prec_attention_cuda_tiles<{0}, {1}>::BYTES", d, dv)
            .str(),
        llvm::formatv("dim3({0}, (unsigned)({1}))", llvm::divideCeil(sq, 64),
                      matrices)
            .str(),
        256, "CUDA-core tiles");
  } else {
    runCode += llvm::formatv("  // engine.attention{0}\n", where);
    runCode += launchCall(
        llvm::formatv("prec_attention<{0}, {1}, {2}_logit, {3}, {4}, {5}, {6}, "
                      "{7}{8}>",
                      (dv + 31) / 32, zeroNanRows, name, queryType, valueType,
                      maskType, outType, index, resultArgument)
            .str(),
        llvm::formatv("dim3({0}, (unsigned)({1}))", (sq + 3) / 4, matrices)
            .str(),
        "128", std::to_string(4 * d * sizeof(float)),
        args + ", " + name + "_logit()");
  }

  opRecords.push_back(getAttentionRecord(op, layer));
  return success();
}

} // namespace prec::cuda
