//===- CopyKernels.cpp - transpose, slice, tile, concat, gather ----------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace prec::cuda {

/// `shape` counted in groups of `lanes` innermost elements, the unit a copy
/// kernel that moves them together indexes.
static SmallVector<int64_t> inLanes(ArrayRef<int64_t> shape, int64_t lanes) {
  SmallVector<int64_t> grouped(shape);
  if (!grouped.empty())
    grouped.back() /= lanes;
  return grouped;
}

int64_t CudaEmitter::getVectorLanes(Operation *op) const {
  IntegerAttr bytes = getEngineDialect().getVectorBytesAttrHelper().getAttr(op);
  if (!bytes)
    return 1;
  return bytes.getInt() / typeOf(op->getResult(0)).bytes;
}

const char *getVectorCTypeOfBytes(int64_t bytes) {
  switch (bytes) {
  case 2:
    return "unsigned short";
  case 4:
    return "unsigned";
  case 8:
    return "uint2";
  case 16:
    return "uint4";
  default:
    llvm_unreachable("vectors are 2, 4, 8 or 16 bytes");
  }
}

std::string CudaEmitter::getVectorCType(Operation *op) const {
  IntegerAttr bytes = getEngineDialect().getVectorBytesAttrHelper().getAttr(op);
  if (!bytes)
    return typeOf(op->getResult(0)).cType;
  return getVectorCTypeOfBytes(bytes.getInt());
}

/// A kernel over the elements `i` of `space` (or groups of getVectorLanes
/// elements), reading `input` as `inType` and writing `op`'s result as
/// `outType`; `body` computes what `i` writes. Each thread takes
/// elementwiseUnroll of them, 256 apart as an elementwise kernel's: with one
/// a thread, the index arithmetic and a single small load leave too few
/// loads in flight to reach the memory bandwidth.
void CudaEmitter::emitThreadKernel(Operation *op, Value input, Value space,
                                   llvm::StringRef inType,
                                   llvm::StringRef outType,
                                   llvm::StringRef body) {
  Value result = op->getResult(0);
  std::string name = kernelName(op);
  int64_t count = countOf(space) / getVectorLanes(op);
  std::string loopBody;
  for (StringRef line : llvm::split(body.rtrim('\n'), '\n'))
    loopBody += "  " + line.str() + "\n";
  kernels += llvm::formatv(
      "// {0} {1}\n__global__ void {2}(const {3} *__restrict__ in0, "
      "{4} *__restrict__ out{5}) {{\n  prec_kernel_start();\n"
      "  const {6} base = blockIdx.x * {9} + threadIdx.x;\n"
      "#pragma unroll\n  for (int k = 0; k < {10}; ++k) {{\n"
      "    {6} i = base + k * {11};\n    if (i >= {7}) return;\n{8}  }\n}\n\n",
      op->getName(), getLayerName(op), name, inType, outType,
      countParameter(space), indexSpelling.type(), kernelBound(space, count),
      loopBody, indexSpelling.literal(256 * elementwiseUnroll),
      elementwiseUnroll, indexSpelling.literal(256));
  launch(op, name, count, {input}, result, elementwiseUnroll, [&](Value value) {
    return pointer(value, value == input ? inType : outType);
  });
}

/// A kernel moving elements of `input` into `op`'s result, element `i` (or
/// group of getVectorLanes elements, in which `offsets` then counts) at a
/// time (emitThreadKernel): gathering `out[i] = in0[o0]` over the output, or
/// scattering `out[o0] = in0[i]` over the input, with `offsets` computing `o0`
/// from `i`.
void CudaEmitter::emitCopyKernel(Operation *op, Value input,
                                 llvm::StringRef offsets, bool scatter,
                                 llvm::StringRef fill) {
  std::string cType = getVectorCType(op);
  std::string statement =
      scatter ? "out[o0] = in0[i]"
      : fill.empty()
          ? "out[i] = in0[o0]"
          : llvm::formatv("out[i] = o0 < 0 ? {0} : in0[o0]", fill).str();
  emitThreadKernel(op, input, scatter ? input : op->getResult(0), cType, cType,
                   (offsets + "  " + statement + ";\n").str());
}

/// A transpose, slice, tile or reverse: element `i` (or its getVectorLanes
/// elements, whose innermost coordinate steps by that many) is read
/// where the op's index map says it comes from.
LogicalResult CudaEmitter::emitMove(ElementIndexMapOpInterface op) {
  SmallVector<Value> sources = op.getElementSources();
  if (sources.size() != 1)
    return unsupported(op, "its index map is not known at compile time");
  Value source = sources.front();
  int64_t lanes = getVectorLanes(op);
  SmallVector<std::string> coordinates = delinearize(
      indexSpelling, "i", inLanes(shapeOf(op->getResult(0)), lanes));
  auto scale = [&](std::string &innermost, StringRef by) {
    if (lanes != 1)
      innermost =
          "(" + innermost + by.str() + indexSpelling.literal(lanes) + ")";
  };
  if (!coordinates.empty())
    scale(coordinates.back(), " * ");
  SmallVector<std::string> sourceCoordinates;
  op.getSourceCoordinates(0, coordinates, sourceCoordinates);
  if (!sourceCoordinates.empty())
    scale(sourceCoordinates.back(), " / ");
  std::string offset = linearize(indexSpelling, sourceCoordinates,
                                 inLanes(shapeOf(source), lanes));
  emitCopyKernel(
      op, source,
      llvm::formatv("  {0} o0 = {1};\n", indexSpelling.type(), offset).str());
  return success();
}

/// Padding: outside the input, the pad constant. Where the plan says
/// (engine.vector_bytes), each `i` is a whole innermost row, written
/// as one vector (a few channels padded, as an image's 3 to 4), reading
/// its elements one by one.
LogicalResult CudaEmitter::emitPad(tosa::PadOp op) {
  SmallVector<int64_t> padding;
  if (!tosa::getConstShapeValues(op.getPadding().getDefiningOp(), padding))
    return unsupported(op, "its padding is not a constant shape");
  DenseElementsAttr fillValue;
  if (!matchPattern(op.getPadConst(), m_Constant(&fillValue)) ||
      !fillValue.isSplat())
    return unsupported(op, "its pad value is not a constant");
  std::string literal;
  if (std::optional<std::string> floatLiteral =
          getSplatLiteral(op.getPadConst()))
    literal = *floatLiteral;
  else
    literal =
        std::to_string(fillValue.getSplatValue<APInt>().getSExtValue()) + ".0f";
  std::string fill = substitute(typeOf(op.getResult()).fromFloat, literal);
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  ArrayRef<int64_t> in = shapeOf(op.getInput1());
  SmallVector<int64_t> inStrides = computeStrides(in);
  int64_t lanes = getVectorLanes(op);
  // A vector is the innermost row: its dimension is not split from i.
  int64_t outer = int64_t(out.size()) - (lanes == 1 ? 0 : 1);
  StringRef type = indexSpelling.type();
  auto lit = [&](int64_t value) { return indexSpelling.literal(value); };
  std::string body = llvm::formatv("  {0} rem = i, o0 = 0; bool inside = "
                                   "true;\n",
                                   type);
  for (int64_t d = outer - 1; d >= 0; --d)
    body += llvm::formatv(
        "  {{ {4} c = rem % {0}; rem /= {0}; {4} s = c - {1}; inside = inside "
        "&& s >= 0 && s < {2}; o0 += s * {3}; }\n",
        lit(out[d]), lit(padding[2 * d]), lit(in[d]), lit(inStrides[d]), type);
  if (lanes == 1) {
    body += "  if (!inside) o0 = -1;\n";
    emitCopyKernel(op, op.getInput1(), body, /*scatter=*/false, fill);
    return success();
  }
  DeviceType element = typeOf(op.getResult());
  std::string vector = getVectorCType(op);
  body += llvm::formatv(
      "  __align__({0}) {1} w[{2}];\n#pragma unroll\n"
      "  for (int l = 0; l < {2}; ++l) {{ {3} s = l - {4}; w[l] = inside && s "
      ">= 0 && s < {5} ? in0[o0 + s] : {6}; }\n"
      "  out[i] = *reinterpret_cast<const {7} *>(w);\n",
      lanes * element.bytes, element.cType, lanes, type,
      lit(padding[2 * outer]), lit(in[outer]), fill, vector);
  emitThreadKernel(op, op.getInput1(), op.getResult(), element.cType, vector,
                   body);
  return success();
}

LogicalResult CudaEmitter::emitConcat(tosa::ConcatOp op) {
  int64_t axis = op.getAxis();
  int64_t lanes = getVectorLanes(op);
  SmallVector<int64_t> outStrides =
      computeStrides(inLanes(shapeOf(op.getResult()), lanes));
  int64_t offset = 0;
  for (Value input : op.getInput1()) {
    SmallVector<int64_t> in = inLanes(shapeOf(input), lanes);
    // One thread per input element, written at its place in the output.
    std::string body =
        llvm::formatv("  {0} rem = i, o0 = 0;\n", indexSpelling.type()).str();
    for (int64_t d = int64_t(in.size()) - 1; d >= 0; --d) {
      std::string shift = indexSpelling.literal(d == axis ? offset : 0);
      std::string stride = indexSpelling.literal(outStrides[d]);
      if (in[d] == 1)
        body += llvm::formatv("  o0 += {0} * {1};\n", shift, stride);
      else
        body += llvm::formatv(
            "  {{ {3} c = rem % {0}; rem /= {0}; o0 += (c + {1}) * {2}; }\n",
            indexSpelling.literal(in[d]), shift, stride, indexSpelling.type());
    }
    emitCopyKernel(op, input, body, /*scatter=*/true);
    offset += in[axis];
  }
  return success();
}

LogicalResult CudaEmitter::emitGather(tosa::GatherOp op) {
  int64_t lanes = getVectorLanes(op);
  ArrayRef<int64_t> values = shapeOf(op.getValues());
  SmallVector<int64_t> out = inLanes(shapeOf(op.getResult()), lanes);
  std::string type = getVectorCType(op);
  DeviceType indices = typeOf(op.getIndices());
  std::string name = kernelName(op);
  int64_t count = countOf(op.getResult()) / lanes;
  // out[n, w, c] = values[n, indices[n, w], c].
  kernels += llvm::formatv(
      R"(// tosa.gather {0}
__global__ void {1}(const {2} *__restrict__ in0, const {3} *__restrict__ in1, {2} *__restrict__ out{8}) {{
  prec_kernel_start();
  {9} i = blockIdx.x * ({9})blockDim.x + threadIdx.x;
  if (i >= {4}) return;
  {9} c = i % {5}, w = (i / {5}) % {6}, n = i / ({5} * {6});
  {9} k = in1[n * {6} + w];
  out[i] = in0[(n * {7} + k) * {5} + c];
}

)",
      getLayerName(op), name, type, indices.cType,
      kernelBound(op.getResult(), count), indexSpelling.literal(out[2]),
      indexSpelling.literal(out[1]), indexSpelling.literal(values[1]),
      countParameter(op.getResult()), indexSpelling.type());
  launch(op, name, count, {op.getValues(), op.getIndices()}, op.getResult(),
         /*elementsPerThread=*/1, [&](Value value) {
           return value == op.getIndices() ? pointer(value)
                                           : pointer(value, type);
         });
  return success();
}

} // namespace prec::cuda
