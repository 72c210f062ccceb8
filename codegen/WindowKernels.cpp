//===- WindowKernels.cpp - direct convolution and pooling ----------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace prec::cuda {

/// The accumulation step `acc + term` in the accumulate type `accType`:
/// f32 accumulates in float; a 16-bit accumulator rounds every step.
static std::string accumulateStep(Type accType, llvm::StringRef term) {
  return roundedTo(accType, ("__fadd_rn(acc, " + term + ")").str());
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

} // namespace prec::cuda
