//===- GemmEmission.cpp - matmuls as cuBLASLt calls ----------------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/OpNames.h"
#include "lowering/FuseBias.h"
#include "passes/TargetSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace prec::cuda {

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

/// cuBLASLt's compute and scale types for `op`, or why it has none. The
/// result type is the accumulator (prec-materialize makes it so); integer
/// GEMMs are symmetric (zero points 0) and accumulate in i32, 8-bit float
/// ones in f32, at least one operand E4M3.
FailureOr<CudaEmitter::GemmComputeType>
CudaEmitter::getGemmComputeType(tosa::MatMulOp op) {
  Type inputType = getElementTypeOrSelf(op.getA().getType());
  Type otherType = getElementTypeOrSelf(op.getB().getType());
  Type resultType = getElementTypeOrSelf(op.getType());
  DeviceType in = typeOf(op.getA()), out = typeOf(op.getResult());
  const char *compute = nullptr, *scale = nullptr;
  bool isF8 = isa<Float8E4M3FNType, Float8E5M2Type>(inputType);
  if (inputType.isInteger(8)) {
    auto isZero = [](Value zeroPoint) {
      return !getSplatLiteral(zeroPoint) && matchPattern(zeroPoint, m_Zero());
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
  return GemmComputeType{compute, scale};
}

/// The descriptor attributes a GEMM sets besides its types: the BIAS
/// epilogue, and op T on cuBLASLt's A (our B).
static std::string getDescriptorAttributes(int index, bool addsBias,
                                           bool transposeB) {
  std::string attributes;
  if (addsBias)
    attributes = llvm::formatv(
        "  {{\n    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;\n"
        "    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, "
        "CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));\n  }\n",
        index);
  if (transposeB)
    attributes += llvm::formatv(
        "  {{\n    cublasOperation_t transpose = CUBLAS_OP_T;\n"
        "    PREC_CHECK_BLAS(cublasLtMatmulDescSetAttribute(e->desc{0}, "
        "CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));\n  }\n",
        index);
  return attributes;
}

/// Runs GEMM `index`'s algorithm choice `pick` when the engine is created,
/// or, at a dynamic batch, each time the batch is set: the batch count
/// (attention) or the rows of A (a linear layer) follow it.
void CudaEmitter::addAlgorithmPick(tosa::MatMulOp op, int index,
                                   const std::string &pick) {
  std::optional<int64_t> dim = getBatchDim(op.getA());
  if (!dim) {
    createCode += pick;
    return;
  }
  ArrayRef<int64_t> a = shapeOf(op.getA()), b = shapeOf(op.getB());
  int64_t batch = a[0], m = a[1], k = a[2], n = b[2];
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
}

LogicalResult CudaEmitter::emitMatmul(tosa::MatMulOp op) {
  ArrayRef<int64_t> a = shapeOf(op.getA()), b = shapeOf(op.getB());
  int64_t batch = a[0], m = a[1], k = a[2], n = b[2];
  Type inputType = getElementTypeOrSelf(op.getA().getType());
  Type resultType = getElementTypeOrSelf(op.getType());
  DeviceType in = typeOf(op.getA()), other = typeOf(op.getB()),
             out = typeOf(op.getResult());
  FailureOr<GemmComputeType> computeType = getGemmComputeType(op);
  if (failed(computeType))
    return failure();
  auto [compute, scale] = *computeType;
  // A program legalized for the CPU may hold an 8-bit GEMM that no GPU
  // runs; one legalized for a GPU target never does (prec-legalize-types).
  if (std::optional<std::string> why =
          explainShapeUnsupported(precision::Target{90}, op, inputType))
    return unsupported(op, *why);
  // cuBLASLt's A is our B: read as it is (op N), or, when B is a transpose
  // or a weight stored transposed, from the [batch, N, K] tensor with op T.
  Value bSource = op.getB();
  bool transposeB = false;
  if (Value source = getTransposedB(op)) {
    bSource = source;
    transposeB = true;
  } else if (isStoredTransposed(op.getB())) {
    transposeB = true;
  }
  if (needsTransposedB(op) && !transposeB)
    return unsupported(op, "cuBLASLt's i8 and f8 GEMMs need B transposed: a "
                           "tosa.transpose (perms 0, 2, 1) of a [batch, N, "
                           "K] tensor, or a constant stored transposed "
                           "(prec-plan-weight-layouts)");
  // The epilogue (as planned) adds the bias and writes the storage type
  // (cuBLASLt's D type) when the program converts the accumulator.
  FailureOr<MatmulEpilogue> planned = getPlannedEpilogue(op);
  if (failed(planned))
    return failure();
  MatmulEpilogue &epilogue = *planned;
  std::string alpha =
      epilogue.scale ? *getSplatLiteral(epilogue.alpha) : std::string();
  Value destination = epilogue.result;
  if (failed(assignBuffer(destination)))
    return failure();
  out = typeOf(destination);
  int index = addGemmState();
  std::string descriptorAttributes =
      getDescriptorAttributes(index, epilogue.biasAdd, transposeB);
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
      descriptorAttributes, other.cudaType, transposeB ? k : n,
      transposeB ? n : k);
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
        llvm::formatv("  float alpha{0} = {1};\n", index, alpha);
    one = llvm::formatv("e->alpha{0}", index);
  }
  // The algorithm is timed on scratch operands of these sizes (bindings do
  // not exist yet). At a dynamic batch, the batch count (attention) or the
  // rows of A (a linear layer) follow the engine's batch; the algorithm is
  // chosen again for each batch the engine is set to.
  std::string pick = llvm::formatv(
      "  if (int s_ = prec_pick_algo(e->lt, e->workspace, e->desc{0}, "
      "e->la{0}, e->lb{0}, e->lc{0}, &{1}, &{2}, {3}ULL, {4}ULL, {5}ULL, "
      "{6}ULL, &e->algo{0})) "
      "return s_;\n",
      index, one, zero, batch * k * n * other.bytes, batch * m * k * in.bytes,
      batch * m * n * out.bytes, epilogue.biasAdd ? n * out.bytes : 0);
  addAlgorithmPick(op, index, pick);
  std::string layer = getLayerName(op).str();
  std::string notes;
  if (transposeB)
    notes += ", B transposed";
  if (epilogue.scale)
    notes += ", alpha " + alpha;
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

const char *const matmulHelpers =
#include "codegen/GemmHelpers.inc"
    ;

} // namespace prec::cuda
