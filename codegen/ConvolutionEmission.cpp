//===- ConvolutionEmission.cpp - convolutions on cuBLASLt or cuDNN -------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Utils/Constants.h"
#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace prec::cuda {

const char *const implicitGemmConv =
#include "codegen/ImplicitGemmConv.inc"
    ;

FailureOr<engine::ConvAlgorithm>
CudaEmitter::getConvAlgorithm(tosa::Conv2DOp op) {
  if (engine::ConvAlgorithmAttr algorithm =
          getEngineDialect().getConvAlgorithmAttrHelper().getAttr(op))
    return algorithm.getValue();
  return planMissing(op, "engine.conv_algorithm",
                     "prec-choose-conv-algorithms");
}

/// The GEMM's B operand: a 1x1 unit-stride convolution's input as it is,
/// or the columns an im2col kernel (emitted here) lays out in the arena.
FailureOr<std::string>
CudaEmitter::emitConvColumns(tosa::Conv2DOp op, bool pointwise,
                             llvm::StringRef epilogueName) {
  const ConvGeometry geometry(op);
  const auto &[input, weight, bias, result, in, w, out, pad, stride, dilation] =
      geometry;
  DeviceType x = typeOf(input);
  int64_t rows = out[0] * out[1] * out[2];
  int64_t depth = w[1] * w[2] * w[3];
  int64_t gemmDepth = getConvGemmDepth(op);
  int64_t channels = out[3];
  std::string layer = getLayerName(op).str();
  std::string columns;
  if (pointwise) {
    columns = pointer(input);
    runCode += llvm::formatv(
        "  // tosa.conv2d{0}: 1x1, a GEMM {1}x{2}x{3} on the input with the "
        "{4} epilogue\n",
        layer.empty() ? "" : " '" + layer + "'", rows, channels, depth,
        epilogueName);
  } else {
    IntegerAttr columnsOffset = getEngineDialect()
                                    .getColumnsOffsetAttrHelper()
                                    .getAttr(op);
    if (!columnsOffset)
      return planMissing(op, "engine.columns_offset", "prec-plan-buffers");
    columns =
        llvm::formatv("(({0} *)(e->arena + {1}))", x.cType,
                      columnsOffset.getInt());
    std::string name = kernelName(op);
    auto lit = [&](int64_t value) { return indexSpelling.literal(value); };
    kernels += llvm::formatv(
        "// im2col for tosa.conv2d {0}\n__global__ void {1}(const {2} "
        "*__restrict__ in0, {2} *__restrict__ out{19}) {{\n"
        "  prec_kernel_start();\n"
        "  {2} v[{17}];\n"
        "  const {21} base = blockIdx.x * {18} + threadIdx.x;\n"
        "#pragma unroll\n"
        "  for (int u = 0; u < {17}; ++u) {{\n"
        "    {21} i = base + u * {22};\n"
        "    if (i >= {3}) break;\n"
        "    {21} k = i % {4}, p = i / {4};\n"
        "    {21} c = k % {5}, z = (k / {5}) % {6}, y = k / ({5} * {6});\n"
        "    {21} ow = p % {7}, oh = (p / {7}) % {8}, n = p / ({7} * {8});\n"
        "    {21} iy = oh * {9} - {10} + y * {11}, ix = ow * {12} - {13} + z "
        "* {14};\n"
        "    bool inside = {20}iy >= 0 && iy < {15} && ix >= 0 && ix < {16};\n"
        "    v[u] = inside ? in0[((n * {15} + iy) * {16} + ix) * {5} + c] : "
        "({2})0.0f;\n"
        "  }\n"
        "#pragma unroll\n"
        "  for (int u = 0; u < {17}; ++u) {{\n"
        "    {21} i = base + u * {22};\n"
        "    if (i >= {3}) return;\n"
        "    out[i] = v[u];\n"
        "  }\n}\n\n",
        layer, name, x.cType, kernelBound(result, rows * gemmDepth),
        lit(gemmDepth), lit(in[3]), lit(w[2]), lit(out[2]), lit(out[1]),
        lit(stride[0]), lit(pad[0]), lit(dilation[0]), lit(stride[1]),
        lit(pad[2]), lit(dilation[1]), lit(in[1]), lit(in[2]),
        elementwiseUnroll, lit(256 * elementwiseUnroll), countParameter(result),
        gemmDepth == depth ? std::string()
                           : llvm::formatv("k < {0} && ", lit(depth)).str(),
        indexSpelling.type(), lit(256));
    runCode += llvm::formatv("  // tosa.conv2d{0}: im2col, then a GEMM "
                             "{1}x{2}x{3} with the {4} epilogue\n",
                             layer.empty() ? "" : " '" + layer + "'", rows,
                             channels, gemmDepth, epilogueName);
    int64_t perBlock = 256 * elementwiseUnroll;
    runCode += launchCall(
        name, blocksFor(result, rows * gemmDepth, perBlock), "256", "0",
        pointer(input) + ", " + columns +
            (isBatched(result) ? ", " + runtimeCount(result, rows * gemmDepth)
                               : std::string()));
  }
  return columns;
}

/// A convolution as a GEMM: an im2col kernel lays every output position's
/// receptive field out as a row, and cuBLASLt multiplies those rows by the
/// OHWI weights, adding the bias in its accumulator (the BIAS epilogue) and
/// writing the storage type, as the convolution itself would.
LogicalResult CudaEmitter::emitConvGemm(tosa::Conv2DOp op) {
  const ConvGeometry geometry(op);
  const auto &[input, weight, bias, result, in, w, out, pad, stride, dilation] =
      geometry;
  Type accType = op.getAccType();
  DeviceType x = typeOf(input), o = typeOf(result);
  FailureOr<engine::ConvAlgorithm> algorithm = getConvAlgorithm(op);
  if (failed(algorithm))
    return failure();
  if (*algorithm == engine::ConvAlgorithm::Direct)
    return emitConv(op, /*depthwise=*/false);
  const char *compute = accType.isF32()   ? "CUBLAS_COMPUTE_32F"
                        : accType.isF16() ? "CUBLAS_COMPUTE_16F"
                                          : "CUBLAS_COMPUTE_32I";
  const char *scale = accType.isF32()   ? "CUDA_R_32F"
                      : accType.isF16() ? "CUDA_R_16F"
                                        : "CUDA_R_32I";
  std::string one = accType.isF32()   ? "e->float_one"
                    : accType.isF16() ? "e->half_one"
                                      : "e->int_one";
  std::string zero = accType.isF32()   ? "e->float_zero"
                     : accType.isF16() ? "e->half_zero"
                                       : "e->int_zero";
  // A ReLU after the convolution is applied in the epilogue, writing the
  // clamp's buffer (ReLU and rounding to the storage type commute). A
  // bias of zeros (a quantized convolution adds its bias after scaling) is
  // no epilogue at all: cuBLASLt's integer and 8-bit float GEMMs take few.
  Value destination = result;
  bool addsBias = !prec::isZeroConstant(bias);
  const char *epilogueKind =
      addsBias ? "CUBLASLT_EPILOGUE_BIAS" : "CUBLASLT_EPILOGUE_DEFAULT";
  FailureOr<Operation *> relu = getPlannedReluEpilogue(op);
  if (failed(relu))
    return failure();
  if (*relu) {
    destination = (*relu)->getResult(0);
    if (failed(assignBuffer(destination)))
      return failure();
    epilogueKind =
        addsBias ? "CUBLASLT_EPILOGUE_RELU_BIAS" : "CUBLASLT_EPILOGUE_RELU";
  }
  int64_t rows = out[0] * out[1] * out[2];  // output positions
  int64_t depth = w[1] * w[2] * w[3];       // KH * KW * C
  int64_t gemmDepth = getConvGemmDepth(op); // depth, padded for 8-bit types
  int64_t channels = out[3];
  if (gemmDepth != depth && getPaddedDepth(weight) != gemmDepth)
    return unsupported(op, "an 8-bit convolution whose KH * KW * C is not a "
                           "multiple of 16 needs constant weights, which are "
                           "stored padded");

  // A 1x1 convolution with unit strides and no padding (`gemm`) reads its
  // NHWC input as the rows x C matrix directly; `im2col` lays it out in a
  // rows x (KH * KW * C) buffer in the arena.
  std::string layer = getLayerName(op).str();
  const char *epilogueName = destination == result
                                 ? (addsBias ? "bias" : "default")
                                 : (addsBias ? "bias + ReLU" : "ReLU");
  if (*algorithm == engine::ConvAlgorithm::Cudnn)
    return emitCudnnConv(op, destination);
  if (*algorithm == engine::ConvAlgorithm::ImplicitGemm)
    return emitImplicitGemmConv(op);
  bool pointwise = *algorithm == engine::ConvAlgorithm::Gemm;
  FailureOr<std::string> columns = emitConvColumns(op, pointwise, epilogueName);
  if (failed(columns))
    return failure();

  // D (row-major rows x channels) is column-major channels x rows:
  // D = op(W) * columns^T with W (OHWI, row-major O x depth) transposed.
  int index = addGemmState();
  createCode += llvm::formatv(
      R"(  PREC_CHECK_BLAS(cublasLtMatmulDescCreate(&e->desc{0}, {1}, {2}));
  {{
    cublasOperation_t transpose = CUBLAS_OP_T;
    cublasLtEpilogue_t epilogue = {8};
    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));
    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
{9}  }
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->la{0}, {3}, {4}, {5}, {4}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lb{0}, {3}, {4}, {6}, {4}));
  PREC_CHECK_BLAS(cublasLtMatrixLayoutCreate(&e->lc{0}, {7}, {5}, {6}, {5}));
)",
      index, compute, scale, x.cudaType, gemmDepth, channels, rows, o.cudaType,
      epilogueKind,
      addsBias
          ? llvm::formatv(
                "    const void *bias = {0};\n"
                "    "
                "PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{1}, "
                "CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));\n",
                pointer(bias), index)
                .str()
          : std::string());
  // The algorithm is timed on scratch operands of these sizes (the bias
  // pointer is set already). At a dynamic batch, the output positions (the
  // GEMM's columns) follow the engine's batch, and the algorithm is chosen
  // again for each.
  std::string pick = llvm::formatv(
      "  if (int s_ = prec_pick_algo(e->lt, e->workspace, e->desc{0}, "
      "e->la{0}, e->lb{0}, e->lc{0}, &{1}, &{2}, {3}ULL, {4}ULL, {5}ULL, 0, "
      "&e->algo{0})) "
      "return s_;\n",
      index, one, zero, gemmDepth * channels * x.bytes,
      gemmDepth * rows * x.bytes, channels * rows * o.bytes);
  if (isBatched(result))
    resizeCode += llvm::formatv("  prec_set_columns(e->lb{0}, {1}LL * b);\n"
                                "  prec_set_columns(e->lc{0}, {1}LL * b);\n",
                                index, rows / batchRange->max)
                      .str() +
                  pick;
  else
    createCode += pick;
  runCode += llvm::formatv(
      "  PREC_CHECK_BLAS(cublasLtMatmul(e->lt, e->desc{0}, &{1}, {2}, "
      "e->la{0}, {3}, e->lb{0}, &{4}, {5}, e->lc{0}, {5}, e->lc{0}, "
      "&e->algo{0}, e->workspace, PREC_WORKSPACE, stream));\n",
      index, one, pointer(weight), *columns, zero, pointer(destination));
  workspaceBytes = 32 << 20;
  return success();
}

/// An int8 convolution as prec's implicit GEMM (runtime/ImplicitGemmConv.cuh)
/// storing its int32 result: its epilogue, written here, adds the bias where
/// it is not zero (an integer ReLU after it is an elementwise reader, which
/// the plan makes the epilogue instead). Its bias is read in each run: this
/// store serves only convolutions whose int32 result has readers of its
/// own, and the bias is not part of `aligned()`'s check.
LogicalResult CudaEmitter::emitImplicitGemmConv(tosa::Conv2DOp op) {
  const ConvGeometry geometry(op);
  const auto &[input, weight, bias, result, in, w, out, pad, stride, dilation] =
      geometry;
  if (!fitsImplicitGemm(op))
    return unsupported(op, "an implicit-GEMM convolution needs int8 inputs "
                           "with C a multiple of 16, accumulating in int32");
  std::string stem = kernelName(op), epilogue = stem + "_epilogue";
  bool addsBias = !prec::isZeroConstant(bias);
  std::string value = addsBias ? "acc + bias[filter]" : "acc";
  kernels += llvm::formatv(
      "// tosa.conv2d {0}: the implicit GEMM's epilogue\nstruct {1} {{\n"
      "  using Output = int32_t;\n  int32_t *out;\n  const int32_t *bias;\n"
      "  __device__ bool aligned() const {{ return (uintptr_t)out % 16 == 0; "
      "}\n"
      "  __device__ void element(long long row, long long filter, int32_t "
      "acc) const {{ out[row * {4} + filter] = {2}; }\n"
      "  struct Loaded {{};\n"
      "  __device__ void load(long long, long long, Loaded &) const {{}\n"
      "  struct Columns {{};\n"
      "  __device__ void columns(long long, Columns &) const {{}\n"
      "  __device__ void run(long long row, long long filter, const int32_t "
      "*accs, const Loaded &, const Columns &) const {{\n"
      "    __align__(16) int32_t w[4];\n"
      "#pragma unroll\n"
      "    for (int k = 0; k < 4; ++k) w[k] = {3};\n"
      "    *reinterpret_cast<uint4 *>(out + row * {4} + filter) = "
      "*reinterpret_cast<const uint4 *>(w);\n  }\n"
      "  static constexpr int STAGED_ROW_BYTES = 4, STAGED_FILTER_BYTES = 0;\n"
      "  template <typename Tile> __device__ void stage(const Tile &) const "
      "{{}\n"
      "  template <typename Tile>\n  __device__ void pair(const Tile &tile, "
      "int r, int c, long long, long long filter, const int32_t (&accs)[2]) "
      "const {{\n"
      "    tile.put_pair(r, c, 0, make_int2({5}, {6}));\n  }\n"
      "  template <typename Tile> __device__ void store(const Tile &tile) "
      "const {{ tile.store_rows(out, 0); }\n};\n\n",
      getLayerName(op), epilogue, value,
      addsBias ? "accs[k] + bias[filter + k]" : "accs[k]", out[3],
      addsBias ? "accs[0] + bias[filter]" : "accs[0]",
      addsBias ? "accs[1] + bias[filter + 1]" : "accs[1]");
  launchImplicitGemmConv(op, stem, pointer(result) + ", " + pointer(bias),
                         value, {result});
  return success();
}

/// The filters a block of the implicit GEMM takes (its COLUMNS) for
/// `filters` and a K of `depth` bytes: 64 where there are no more, or where
/// K is one tile of the kernel's (DEPTH, 128 bytes), as such blocks are
/// mostly their epilogue, which more blocks an SM overlap (3 of 64
/// filters, 2 of 128). Else 128 (also where a grid of 128-filter blocks
/// gives an H200's SMs fewer than two each: 64 there measured 1% slower).
static int64_t getImplicitGemmColumns(int64_t filters, int64_t depth) {
  constexpr int64_t kDepthTile = 128;
  return filters <= 64 || depth <= kDepthTile ? 64 : 128;
}

void CudaEmitter::launchImplicitGemmConv(tosa::Conv2DOp op, StringRef stem,
                                         StringRef initializer,
                                         StringRef description,
                                         ArrayRef<Value> epilogueTensors) {
  const ConvGeometry geometry(op);
  const auto &[input, weight, bias, result, in, w, out, pad, stride, dilation] =
      geometry;
  // Which kernel the device code runs decides the shared memory each
  // launch asks for (the runtime header's prec_conv_s8_wgmma_compiled).
  if (!hasImplicitGemmConv) {
    stateFields += "  int conv_wgmma = 0;\n";
    createCode += "  PREC_CHECK(cudaMemcpyFromSymbol(&e->conv_wgmma, "
                  "prec_conv_s8_wgmma_compiled, sizeof(int)));\n";
  }
  hasImplicitGemmConv = true;
  // A crop read through (engine.read_through): its source, rows and
  // columns beyond the windows included.
  Value image = input;
  if (Value source = getUncroppedInput(op);
      source && getEngineDialect().getReadThroughAttrHelper().isAttrPresent(
                    input.getDefiningOp()))
    image = source;
  int64_t filters = out[3];
  // The geometry is a constant of the kernel, so that its divisions by the
  // image's and the window's sizes are multiplications.
  std::string epilogue = (stem + "_epilogue").str(),
              constants = (stem + "_geometry").str();
  kernels += llvm::formatv(
      "struct {0} {{\n  static constexpr prec_conv_geometry value{{{1}, {2}, "
      "{3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, "
      "{14}};\n};\n\n",
      constants, shapeOf(image)[1], shapeOf(image)[2], in[3], out[1], out[2],
      filters, w[1], w[2], stride[0], stride[1], pad[0], pad[2], dilation[0],
      dilation[1]);
  int64_t depth = w[1] * w[2] * w[3];
  int64_t columns = getImplicitGemmColumns(filters, depth);
  auto kernel = [&](bool aligned) {
    return llvm::formatv("prec_conv_s8<{0}, {1}, {2}, {3}>", columns,
                         aligned ? "true" : "false", constants, epilogue)
        .str();
  };
  // A binding is aligned as the caller allocated it: where the input, the
  // weights or a tensor of the epilogue is one, the run checks, and runs
  // the kernel that copies byte by byte and computes each output element
  // where it is if need be.
  auto isBinding = [&](Value value) {
    Buffer::Kind kind = buffers.lookup(value).kind;
    return kind == Buffer::Kind::Input || kind == Buffer::Kind::Output;
  };
  SmallVector<Value> checked = {image, weight};
  llvm::append_range(checked, epilogueTensors);
  bool checksAlignment = llvm::any_of(checked, isBinding);
  std::string bytes =
      llvm::formatv("prec_conv_s8_shared_bytes<{0}, {1}, {2}>(e->conv_wgmma)",
                    columns, constants, epilogue)
          .str();
  for (bool aligned : {true, false})
    if (aligned || checksAlignment)
      createCode +=
          llvm::formatv("  PREC_CHECK(cudaFuncSetAttribute({0}, "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize, {1}));\n",
                        kernel(aligned), bytes);
  int64_t rows = out[0] * out[1] * out[2];
  std::string layer = getLayerName(op).str();
  runCode += llvm::formatv(
      "  // tosa.conv2d{0}: {1}x{2}, an implicit GEMM {3}x{4}x{5} with the "
      "{6} epilogue\n",
      layer.empty() ? "" : " '" + layer + "'", w[1], w[2], rows, filters, depth,
      description);
  std::string rowCount = runtimeCount(result, rows);
  std::string arguments =
      llvm::formatv("{0}, {1}, {2}, {3}{{{4}}", pointer(image), pointer(weight),
                    rowCount, epilogue, initializer);
  // A row tile's filters take prec_conv_s8_filter_blocks blocks (one where
  // K is one tile and the rows are many), the header's rule.
  std::string grid =
      llvm::formatv("dim3({0}, prec_conv_s8_filter_blocks<{1}, {2}>({3}))",
                    blocksFor(result, rows, 128), columns, constants, rowCount);
  // Not launched early (programmatic dependent launch): ResNet-50's int8
  // engine at batch 64 (H200, as a graph, outputs bit for bit the same)
  // ran 1.542 -> 1.480 ms with its implicit GEMMs launched after the kernel
  // before them has ended.
  auto launchOf = [&](bool aligned) {
    return launchCall(kernel(aligned), grid, "256", bytes, arguments,
                      /*early=*/false);
  };
  std::string launch = launchOf(true);
  if (checksAlignment) {
    std::string addresses;
    for (Value value : checked)
      addresses += (addresses.empty() ? "" : " | ") +
                   llvm::formatv("reinterpret_cast<uintptr_t>({0})",
                                 pointer(value))
                       .str();
    launch = llvm::formatv("  if (({0}) % 16 == 0)\n  {1}  else\n  {2}",
                           addresses, launch, launchOf(false));
  }
  runCode += launch;
}

/// A convolution through cuDNN (its implicit-GEMM and other algorithms, the
/// fastest found when the engine is created) with the bias, and a ReLU
/// when `destination` is the ReLU's, applied in the same call: the
/// accumulator plus the bias is rounded once, as the im2col GEMM does.
LogicalResult CudaEmitter::emitCudnnConv(tosa::Conv2DOp op, Value destination) {
  const ConvGeometry geometry(op);
  const auto &[input, weight, bias, result, in, w, out, pad, stride, dilation] =
      geometry;
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
  std::string layer = getLayerName(op).str();
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

} // namespace prec::cuda
