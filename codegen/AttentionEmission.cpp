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

#include <cstdio>

namespace prec::cuda {

const char *const attentionKernel =
#include "codegen/AttentionKernel.inc"
    ;

namespace {

std::string floatLiteral(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9gf", value);
  return text;
}

/// The logit of dot product `s` and mask value `m`: the scale and the mask
/// in the op's order, each part rounded to its type.
std::string getLogitExpression(engine::AttentionOp op) {
  auto scale = [&](const std::string &x) {
    if (op.getScale().convertToDouble() == 1.0)
      return x;
    return roundedTo(op.getScaledType(),
                     "(" + x + ") * " +
                         floatLiteral(op.getScale().convertToDouble()));
  };
  auto mask = [&](const std::string &x) {
    return op.getMask() ? roundedTo(op.getMaskedType(), "(" + x + ") + m") : x;
  };
  std::string scores = roundedTo(op.getScoreType(), "s");
  return op.getMaskFirst() ? scale(mask(scores)) : mask(scale(scores));
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

} // namespace

LogicalResult CudaEmitter::emitAttention(engine::AttentionOp op) {
  if (failed(assignBuffer(op.getResult())))
    return failure();
  hasAttention = true;
  ArrayRef<int64_t> query = shapeOf(op.getQuery());
  int64_t n = query[0], sq = query[1], d = query[2];
  int64_t sk = shapeOf(op.getKeys())[2], dv = shapeOf(op.getValues())[2];
  std::string name = kernelName(op);
  std::string layer = getLayerName(op);
  kernels += llvm::formatv(
      "// engine.attention {0}\nstruct {1}_logit {{\n"
      "  __device__ float operator()(float s, float m) const {{ return {2}; "
      "}\n};\n\n",
      layer, name, getLogitExpression(op));

  Value mask = op.getMask();
  SmallVector<int64_t> strides =
      mask ? getMaskStrides(mask) : SmallVector<int64_t>(4, 0);
  std::string index = indexSpelling.type().str();
  // N, the batch times the heads: the grid runs a column of blocks per matrix.
  std::string matrices = runtimeCount(op.getResult(), n);
  const char *maskType = mask ? typeOf(mask).cType : "float";
  std::string args = llvm::formatv(
      "prec_attention_args<{0}, {1}, {2}, {3}, {4}>{{{5}, {6}, {7}, {8}, {9}, "
      "({4})({10}), {11}, {12}, {13}, {14}, {15}, {{{16}, {17}, {18}, {19}}}",
      typeOf(op.getQuery()).cType, typeOf(op.getValues()).cType, maskType,
      typeOf(op.getResult()).cType, index, pointer(op.getQuery()),
      pointer(op.getKeys()), pointer(op.getValues()),
      mask ? pointer(mask) : "nullptr", pointer(op.getResult()), matrices, sq,
      sk, d, dv, op.getHeads(), strides[0], strides[1], strides[2], strides[3]);
  std::string where = layer.empty() ? "" : " '" + layer + "'";
  const char *zeroNanRows = op.getZeroNanRows() ? "true" : "false";
  if (op.getKernel() == engine::AttentionKernel::TensorCores) {
    runCode += llvm::formatv(
        "  // engine.attention{0}, on tensor cores\n"
        "  prec_attention_mma<{1}, {2}, {3}, {4}_logit><<<dim3({5}, "
        "(unsigned)({6})), 128, 0, stream>>>({7}, {4}_logit());\n",
        where, d, dv, zeroNanRows, name, (sq + 63) / 64, matrices, args);
  } else {
    runCode += llvm::formatv(
        "  // engine.attention{0}\n  prec_attention<{1}, {2}, {3}_logit>"
        "<<<dim3({4}, (unsigned)({5})), 128, {6}, stream>>>({7}, "
        "{3}_logit());\n",
        where, (dv + 31) / 32, zeroNanRows, name, (sq + 3) / 4, matrices,
        4 * d * sizeof(float), args);
  }

  // The report of what each part computes in.
  Type element = getElementTypeOrSelf(op.getQuery().getType());
  opRecords.push_back(llvm::json::Object{
      {"name", layer},
      {"op", "engine.attention"},
      {"compute", typeName(element)},
      {"accumulate", "f32"},
      {"storage", typeName(getElementTypeOrSelf(op.getResult().getType()))},
      {"parts",
       llvm::json::Object{{"scores", typeName(op.getScoreType())},
                          {"scaled", typeName(op.getScaledType())},
                          {"masked", typeName(op.getMaskedType())},
                          {"softmax", "f32"},
                          {"probabilities", typeName(getElementTypeOrSelf(
                                                op.getValues().getType()))}}}});
  return success();
}

} // namespace prec::cuda
