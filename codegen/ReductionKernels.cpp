//===- ReductionKernels.cpp - reductions and row kernels -----------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace mlir;

namespace prec::cuda {

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
        "  prec_kernel_start();\n"
        "  __shared__ float partial[256];\n"
        "  const {3} *row = in0 + blockIdx.x * {5};\n"
        "  float acc = {6};\n"
        "  for ({10} j = threadIdx.x; j < {5}; j += 256) {{\n"
        "    float x = {7};\n    acc = {8};\n  }\n"
        "  partial[threadIdx.x] = acc;\n  __syncthreads();\n"
        "  for (int step = 128; step > 0; step /= 2) {{\n"
        "    if (threadIdx.x < step) {{ float x = partial[threadIdx.x + "
        "step]; acc = partial[threadIdx.x]; partial[threadIdx.x] = {8}; }\n"
        "    __syncthreads();\n  }\n"
        "  if (threadIdx.x == 0) {{ float r = partial[0]; out[blockIdx.x] = "
        "{9}; }\n}\n\n",
        op->getName(), getLayerName(op), name, in.cType, out.cType,
        indexSpelling.literal(shape[axis]), isMax ? "-INFINITY" : "0.0f",
        substitute(in.toFloat, "row[j]"),
        isMax ? "fmaxf(acc, x)" : "__fadd_rn(acc, x)",
        substitute(out.fromFloat, "r"), indexSpelling.type());
    std::string layer = getLayerName(op).str();
    runCode += llvm::formatv("  // {0}{1}\n", op->getName(),
                             layer.empty() ? "" : " '" + layer + "'");
    runCode += launchCall(name, blocksFor(result, count, 1), "256", "0",
                          pointer(input) + ", " + pointer(result));
    return success();
  }
  // Each step rounds to the result type, as a reduction in that type does.
  kernels += llvm::formatv(
      R"(// {0} {1}
__global__ void {2}(const {3} *__restrict__ in0, {4} *__restrict__ out{12}) {{
  prec_kernel_start();
  {13} i = blockIdx.x * ({13})blockDim.x + threadIdx.x;
  if (i >= {5}) return;
  {13} outer = i / {6}, inner = i % {6};
  const {3} *p = in0 + outer * {7} * {6} + inner;
  float acc = {8};
  for ({13} j = 0; j < {7}; ++j) {{
    float x = {9};
    acc = {10};
  }
  out[i] = {11};
}

)",
      op->getName(), getLayerName(op), name, in.cType, out.cType,
      kernelBound(result, count), indexSpelling.literal(inner),
      indexSpelling.literal(shape[axis]), isMax ? "-INFINITY" : "0.0f",
      substitute(in.toFloat, "p[j * " + indexSpelling.literal(inner) + "]"),
      roundedTo(getElementTypeOrSelf(result.getType()),
                isMax ? "fmaxf(acc, x)" : "__fadd_rn(acc, x)"),
      substitute(out.fromFloat, "acc"), countParameter(result),
      indexSpelling.type());
  launch(op, name, count, {input}, result);
  return success();
}

const char *const rowReduceHelper =
#include "codegen/RowReduce.inc"
    ;

/// What a row kernel is made of while it is written: its geometry, the
/// registers holding values of the group, the buffers it reads and writes,
/// and its body.
struct RowKernel {
  RowKernel(const RowGroup &group, int64_t threads, IndexSpelling indexSpelling)
      : group(group), indexSpelling(indexSpelling),
        outputs(getRowGroupOutputs(group.ops)), width(group.width),
        threads(threads), perThread((width + threads - 1) / threads) {}

  /// A loop over a thread's elements of the row running `statements`,
  /// which see the element's index in the row as j. Element e is inside
  /// the row unless the threads overrun it.
  std::string overRow(const std::string &statements) const {
    bool overruns = width % threads != 0;
    return llvm::formatv("#pragma unroll\n"
                         "  for (int e = 0; e < {0}; ++e) {{\n"
                         "    [[maybe_unused]] const {4} j = "
                         "threadIdx.x + e * {1};\n"
                         "{2}{3}  }\n",
                         perThread, threads,
                         overruns ? llvm::formatv("    if (j >= {0}) "
                                                  "break;\n",
                                                  indexSpelling.literal(width))
                                        .str()
                                  : std::string(),
                         statements, indexSpelling.type())
        .str();
  }
  bool inGroup(Operation *op) const {
    return op && llvm::is_contained(group.ops, op);
  }
  /// Reshapes inside the group alias the value they reshape.
  Value rootOf(Value value) const {
    while (auto reshape = value.getDefiningOp<tosa::ReshapeOp>()) {
      if (!inGroup(reshape))
        break;
      value = reshape.getInput1();
    }
    return value;
  }
  bool isFull(Value value) const {
    return getRowValueKind(value, group.rows, width) == RowValueKind::Full;
  }

  /// The element at `j` of row `row`, an offset into a full row.
  std::string atRowElement() const {
    return "row * " + indexSpelling.literal(width) + " + j";
  }

  const RowGroup &group;
  const IndexSpelling indexSpelling;
  /// The values read after the group.
  SmallVector<Value> outputs;
  const int64_t width;
  const int64_t threads;
  const int64_t perThread;
  llvm::DenseMap<Value, std::string> registers;
  SmallVector<Value> inputs;
  std::string body, layers;
};

/// A reduction of the group into register `name`: a thread's elements,
/// then the block. A row computed before the group is loaded first.
void CudaEmitter::addRowReduction(RowKernel &kernel, Operation *op,
                                  const std::string &name) {
  bool isMax = isa<tosa::ReduceMaxOp>(op);
  Value reduced = kernel.rootOf(op->getOperand(0));
  if (!kernel.registers.count(reduced)) {
    std::string loaded = "f" + std::to_string(kernel.registers.size());
    kernel.registers[reduced] = loaded;
    size_t input = kernel.inputs.size();
    kernel.inputs.push_back(reduced);
    kernel.body += llvm::formatv("  float {0}[{1}];\n", loaded,
                                 kernel.perThread);
    kernel.body += kernel.overRow(llvm::formatv(
        "    {0}[e] = {1};\n", loaded,
        substitute(
            typeOf(reduced).toFloat,
            llvm::formatv("in{0}[{1}]", input, kernel.atRowElement()).str())));
  }
  kernel.body += llvm::formatv("  float {0}_acc = {1};\n", name,
                               isMax ? "-INFINITY" : "0.0f");
  kernel.body += kernel.overRow(
      llvm::formatv(isMax ? "    {0}_acc = fmaxf({0}_acc, {1}[e]);\n"
                          : "    {0}_acc = __fadd_rn({0}_acc, {1}[e]);\n",
                    name, kernel.registers.lookup(reduced)));
  kernel.body += llvm::formatv(
      "  const float {0} = prec_row_reduce<{1}>({0}_acc, partial);\n", name,
      isMax ? "true" : "false");
}

/// An elementwise op of the group into register `name` (an array over the
/// row when `full`). Operands are registers of the group, or loads of
/// values computed before.
void CudaEmitter::addRowElementwise(RowKernel &kernel, Operation *op,
                                    const std::string &name, bool full) {
  const int64_t width = kernel.width;
  Value result = op->getResult(0);
  SmallVector<ArrayRef<int64_t>> loadedShapes;
  std::string loads;
  std::string expression = expressionOf(op, [&](Value operand) {
    Value root = kernel.rootOf(operand);
    if (std::string reg = kernel.registers.lookup(root); !reg.empty())
      return kernel.isFull(root) ? reg + "[e]" : reg;
    if (std::optional<std::string> literal = getSplatLiteral(operand))
      return *literal;
    auto it = llvm::find(kernel.inputs, operand);
    size_t input = it - kernel.inputs.begin();
    if (it == kernel.inputs.end())
      kernel.inputs.push_back(operand);
    // Rows, per-row values and vectors along the row are read directly;
    // other broadcasts through the coordinates.
    ArrayRef<int64_t> shape = shapeOf(operand);
    std::string offset;
    if (kernel.isFull(operand))
      offset = kernel.atRowElement();
    else if (getRowValueKind(operand, kernel.group.rows, width) ==
             RowValueKind::PerRow)
      offset = "row";
    else if (llvm::all_of(shape.drop_back(), [](int64_t d) { return d == 1; }))
      offset = shape.back() == 1 ? "0" : "j";
    else
      offset = "o" + std::to_string(loadedShapes.size());
    if (offset.front() == 'o')
      loadedShapes.push_back(shape);
    return substitute(typeOf(operand).toFloat,
                      llvm::formatv("in{0}[{1}]", input, offset).str());
  });
  if (!loadedShapes.empty())
    loads = llvm::formatv("    {0} i = {1};\n", indexSpelling.type(),
                          full ? kernel.atRowElement() : "row")
                .str() +
            broadcastOffsets(indexSpelling, shapeOf(result), loadedShapes);
  expression = roundedTo(getElementTypeOrSelf(result.getType()), expression);
  if (full)
    kernel.body +=
        llvm::formatv("  float {0}[{1}];\n", name, kernel.perThread).str() +
        kernel.overRow(
            llvm::formatv("{0}    {1}[e] = {2};\n", loads, name, expression));
  else
    kernel.body += llvm::formatv("  float {0};\n  {{\n{1}    {0} = {2};\n  }\n",
                                 name, loads, expression);
}

/// The stores of the values read after the group, from their registers.
std::string CudaEmitter::writeRowOutputs(const RowKernel &kernel) {
  std::string writes;
  for (auto [position, output] : llvm::enumerate(kernel.outputs)) {
    std::string reg = kernel.registers.lookup(output);
    if (kernel.isFull(output))
      writes += kernel.overRow(llvm::formatv(
          "    out{0}[{1}] = {2};\n", position, kernel.atRowElement(),
          substitute(typeOf(output).fromFloat, reg + "[e]")));
    else
      writes +=
          llvm::formatv("  if (threadIdx.x == 0) out{0}[row] = {1};\n",
                        position, substitute(typeOf(output).fromFloat, reg));
  }
  return writes;
}

/// A row group as one kernel: a block per row, each thread holding row
/// elements threadIdx.x + e * threads in registers. Every op rounds to its
/// type as its own kernel would; only the summation order of a reduction
/// differs from the CPU path, as in emitReduce.
LogicalResult CudaEmitter::emitRowGroup(const RowGroup &group) {
  Operation *launch = group.ops.back();
  IntegerAttr threads =
      getEngineDialect().getBlockThreadsAttrHelper().getAttr(launch);
  if (!threads)
    return planMissing(launch, "engine.block_threads", "prec-plan-kernels");
  RowKernel kernel(group, threads.getInt(), indexSpelling);
  for (Operation *op : group.ops) {
    if (isa<tosa::ReshapeOp>(op))
      continue;
    kernel.layers +=
        llvm::formatv("//   {0} {1}\n", op->getName(), getLayerName(op));
    Value result = op->getResult(0);
    bool full = kernel.isFull(result);
    std::string name =
        (full ? "f" : "s") + std::to_string(kernel.registers.size());
    kernel.registers[result] = name;
    if (isa<tosa::ReduceSumOp, tosa::ReduceMaxOp>(op))
      addRowReduction(kernel, op, name);
    else
      addRowElementwise(kernel, op, name, full);
  }

  // The values read after the group get buffers; so do the reshapes of them
  // that the group covers.
  for (Value output : kernel.outputs)
    if (failed(assignBuffer(output)))
      return failure();
  for (Operation *op : group.ops)
    if (isa<tosa::ReshapeOp>(op))
      if (auto it = buffers.find(kernel.rootOf(op->getResult(0)));
          it != buffers.end())
        buffers[op->getResult(0)] = it->second;

  std::string name = kernelName(group.ops.back());
  std::string signature;
  for (auto [position, input] : llvm::enumerate(kernel.inputs))
    signature += llvm::formatv("const {0} *__restrict__ in{1}, ",
                               typeOf(input).cType, position);
  for (auto [position, output] : llvm::enumerate(kernel.outputs))
    signature +=
        llvm::formatv("{0}{1} *__restrict__ out{2}", position ? ", " : "",
                      typeOf(output).cType, position);
  kernels += llvm::formatv(
      "// row kernel: {0} rows of {1}, a block of {2} threads per row, for\n"
      "{3}__global__ void {4}({5}) {{\n"
      "  prec_kernel_start();\n"
      "  __shared__ float partial[8];\n"
      "  const {8} row = blockIdx.x;\n{6}{7}}\n\n",
      group.rows, kernel.width, kernel.threads, kernel.layers, name, signature,
      kernel.body, writeRowOutputs(kernel), indexSpelling.type());
  std::string layer = getLayerName(group.ops.back()).str();
  runCode += llvm::formatv("  // row kernel ending at {0}{1}\n",
                           group.ops.back()->getName(),
                           layer.empty() ? "" : " '" + layer + "'");
  SmallVector<std::string> arguments;
  for (Value value : llvm::concat<Value>(kernel.inputs, kernel.outputs))
    arguments.push_back(pointer(value));
  runCode += launchCall(
      name, blocksFor(group.ops.back()->getResult(0), group.rows, 1),
      std::to_string(kernel.threads), "0", llvm::join(arguments, ", "));
  return success();
}

} // namespace prec::cuda
