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
  auto lit = [&](int64_t value) { return indexSpelling.literal(value); };
  std::string window = llvm::formatv(
      "  for (int y = 0; y < {0}; ++y) for (int z = 0; z < {1}; ++z) {{\n"
      "    {10} iy = oh * {2} - {3} + y * {4}, ix = ow * {5} - {6} + z * "
      "{7};\n"
      "    if (iy < 0 || iy >= {8} || ix < 0 || ix >= {9}) continue;\n",
      kh, kw, lit(stride[0]), lit(pad[0]), lit(dilation[0]), lit(stride[1]),
      lit(pad[2]), lit(dilation[1]), lit(in[1]), lit(in[2]),
      indexSpelling.type());
  std::string inputAt = llvm::formatv("((n * {0} + iy) * {1} + ix) * {2}",
                                      lit(in[1]), lit(in[2]), lit(channels));
  std::string loop;
  if (depthwise) {
    // HWCM weights: output channel oc is input channel c, multiplier m.
    loop = llvm::formatv("  {1} c = oc / {0}, m = oc % {0};\n", lit(multiplier),
                         indexSpelling.type());
    loop += window;
    loop +=
        "    float xv = " + substitute(x.toFloat, "in0[" + inputAt + " + c]") +
        ";\n";
    loop += "    float wv = " +
            substitute(k.toFloat,
                       llvm::formatv("in1[((y * {0} + z) * {1} + c) * {2} + m]",
                                     lit(kw), lit(channels), lit(multiplier))
                           .str()) +
            ";\n";
    loop += "    acc = " + accumulateStep(accType, "__fmul_rn(xv, wv)") +
            ";\n  }\n";
  } else {
    // OHWI weights.
    loop = window;
    loop += llvm::formatv("    const {0} *xp = in0 + {1};\n", x.cType, inputAt);
    loop += llvm::formatv(
        "    const {0} *wp = in1 + ((oc * {1} + y) * {2} + z) * {3};\n",
        k.cType, lit(kh), lit(kw), lit(channels));
    loop += llvm::formatv("    for ({1} c = 0; c < {0}; ++c) {{\n",
                          lit(channels), indexSpelling.type());
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
      "  prec_kernel_start();\n"
      "  {12} i = blockIdx.x * ({12})blockDim.x + threadIdx.x;\n"
      "  if (i >= {7}) return;\n"
      "  {12} oc = i % {8}, ow = (i / {8}) % {9}, oh = (i / ({8} * {9})) % "
      "{10}, n = i / ({8} * {9} * {10});\n"
      "  float acc = 0.0f;\n",
      op->getName(), getLayerName(op), name, x.cType, k.cType, b.cType, o.cType,
      kernelBound(result, countOf(result)), lit(out[3]), lit(out[2]),
      lit(out[1]), countParameter(result), indexSpelling.type());
  kernels += loop;
  kernels += "  float r = acc + " + substitute(b.toFloat, "in2[oc]") + ";\n";
  kernels += "  out[i] = " + substitute(o.fromFloat, "r") + ";\n}\n\n";
  launch(op, name, countOf(result), {input, weight, bias}, result);
  return success();
}

/// How a pool's thread accumulates its lanes: `accumulators` of `accType`
/// from `init`, each tap's word read as `readType` elements, `combine` of
/// an accumulator and `read` (of v[l]), and stored as `storeType` from
/// `store` (of acc[l]).
struct PoolAccumulation {
  int64_t accumulators;
  std::string accType, init, readType, read, combine, storeType, store;
};

/// A max pool compares floats (exact, the max being one of the inputs) or,
/// keeping the type, integers: converting each i8 to float took ResNet-50's
/// stem pool at batch 64 to 41 us, bound by the conversions. An i8 one of
/// vectors compares four lanes an instruction (__vmaxs4, a signed bytewise
/// max, from -128 in every byte): that pool 29.1 -> 26.8 us against a max a
/// lane. An average pool sums in float, rounded each step, and divides by
/// the taps inside.
static PoolAccumulation getPoolAccumulation(bool isMax, Type element,
                                            Type resultElement, int64_t lanes,
                                            const DeviceType &x,
                                            const DeviceType &o) {
  // A lane an accumulator, in float, read and stored in the tensors' types.
  PoolAccumulation pool;
  pool.accumulators = lanes;
  pool.accType = "float";
  pool.readType = x.cType;
  pool.read = substitute(x.toFloat, "v[l]");
  pool.storeType = o.cType;
  if (!isMax) {
    pool.init = "0.0f";
    pool.combine = "__fadd_rn";
    pool.store = substitute(o.fromFloat, "__fdiv_rn(acc[l], (float)count)");
  } else if (!element.isInteger() || element != resultElement) {
    pool.init = "-INFINITY";
    pool.combine = "fmaxf";
    pool.store = substitute(o.fromFloat, "acc[l]");
  } else if (element.isInteger(8) && lanes % 4 == 0) {
    pool.accumulators = lanes / 4;
    pool.accType = pool.readType = pool.storeType = "unsigned";
    pool.init = "0x80808080u";
    pool.read = "v[l]";
    pool.combine = "__vmaxs4";
    pool.store = "acc[l]";
  } else {
    pool.accType = "int";
    pool.init = "(-0x7fffffff - 1)";
    pool.read = "(int)v[l]";
    pool.combine = "max";
    pool.store = std::string("(") + o.cType + ")acc[l]";
  }
  return pool;
}

/// A max or average pool over NHWC, a thread per output element or, where
/// the plan says (engine.vector_bytes), per vector of lanes channels read
/// and written whole, each lane computed as one element would be
/// (getPoolAccumulation). Padding takes no part: max over, and average of,
/// the elements inside.
LogicalResult CudaEmitter::emitPool(Operation *op, bool isMax) {
  Value input = op->getOperand(0), result = op->getResult(0);
  ArrayRef<int64_t> in = shapeOf(input), out = shapeOf(result);
  ArrayRef<int64_t> kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel");
  ArrayRef<int64_t> stride = op->getAttrOfType<DenseI64ArrayAttr>("stride");
  ArrayRef<int64_t> pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
  DeviceType x = typeOf(input), o = typeOf(result);
  int64_t lanes = getVectorLanes(op);
  std::string vector = getVectorCType(op);
  // Vectors only where both types are one (prec-plan-copy-vectors); an
  // average pool may widen (bf16 in, f32 out), read element by element.
  std::string source = lanes == 1 ? x.cType : vector;
  int64_t count = countOf(result) / lanes;
  std::string name = kernelName(op);
  auto lit = [&](int64_t value) { return indexSpelling.literal(value); };
  PoolAccumulation accumulation =
      getPoolAccumulation(isMax, getElementTypeOrSelf(input.getType()),
                          getElementTypeOrSelf(result.getType()), lanes, x, o);
  kernels += llvm::formatv(
      "// {0} {1}\n__global__ void {2}(const {20} *__restrict__ in0, {3} "
      "*__restrict__ out{17}) {{\n"
      "  prec_kernel_start();\n"
      "  {18} i = blockIdx.x * ({18})blockDim.x + threadIdx.x;\n"
      "  if (i >= {4}) return;\n"
      "  {18} c = i % {5}, ow = (i / {5}) % {6}, oh = (i / ({5} * {6})) % "
      "{7}, n = i / ({5} * {6} * {7});\n"
      "  {21} acc[{19}];\n"
      "  for (int l = 0; l < {19}; ++l) acc[l] = {8};\n  int count = 0;\n"
      "  for (int y = 0; y < {9}; ++y) for (int z = 0; z < {10}; ++z) {{\n"
      "    {18} iy = oh * {11} - {12} + y, ix = ow * {13} - {14} + z;\n"
      "    if (iy < 0 || iy >= {15} || ix < 0 || ix >= {16}) continue;\n",
      op->getName(), getLayerName(op), name, vector, kernelBound(result, count),
      lit(out[3] / lanes), lit(out[2]), lit(out[1]), accumulation.init,
      kernel[0], kernel[1], lit(stride[0]), lit(pad[0]), lit(stride[1]),
      lit(pad[2]), lit(in[1]), lit(in[2]), countParameter(result),
      indexSpelling.type(), accumulation.accumulators, source,
      accumulation.accType);
  kernels += llvm::formatv("    const {0} word = in0[((n * {1} + iy) * {2} + "
                           "ix) * {3} + c];\n"
                           "    const {4} *v = reinterpret_cast<const {4} "
                           "*>(&word);\n",
                           source, lit(in[1]), lit(in[2]), lit(in[3] / lanes),
                           accumulation.readType);
  kernels += llvm::formatv("#pragma unroll\n    for (int l = 0; l < {0}; ++l) "
                           "acc[l] = {1}(acc[l], {2});\n    ++count;\n  }\n",
                           accumulation.accumulators, accumulation.combine,
                           accumulation.read);
  kernels += llvm::formatv(
      "  __align__(16) {0} w[{1}];\n"
      "#pragma unroll\n  for (int l = 0; l < {1}; ++l) w[l] = {2};\n"
      "  out[i] = *reinterpret_cast<const {3} *>(w);\n}\n\n",
      accumulation.storeType, accumulation.accumulators, accumulation.store,
      vector);
  launch(op, name, count, {input}, result, /*elementsPerThread=*/1,
         [&](Value value) {
           return pointer(value, value == input ? source : vector);
         });
  return success();
}

} // namespace prec::cuda
