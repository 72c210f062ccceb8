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
/// and its body. Each thread holds `runs` runs of `lanes` consecutive
/// elements of its row (engine.vector_bytes; one element without it), run
/// e starting at element (thread + e * threads) * lanes.
struct RowKernel {
  RowKernel(const RowGroup &group, int64_t threads, int64_t lanes,
            llvm::SetVector<Value> runValues, IndexSpelling indexSpelling)
      : group(group), indexSpelling(indexSpelling),
        outputs(getRowGroupOutputs(group.ops)), width(group.width),
        threads(threads), lanes(lanes),
        runs((width / lanes + threads - 1) / threads),
        rowsPerBlock(getRowsPerBlock(threads)),
        threadInRow(rowsPerBlock == 1 ? "threadIdx.x" : "lane"),
        slot(lanes == 1 ? "e" : "x"), runValues(std::move(runValues)) {}

  /// A loop over a thread's elements of the row running `statements`,
  /// which see the element's index in the row as j and its register slot
  /// as `slot`; with runs, `runStart` and `runEnd` run before and after
  /// each run's elements and see its start as j0. Element (or run) e is
  /// inside the row unless the threads overrun it.
  std::string overRow(const std::string &statements,
                      const std::string &runStart = "",
                      const std::string &runEnd = "") const {
    bool overruns = width % (threads * lanes) != 0;
    std::string bound = overruns ? llvm::formatv("    if ({0} >= {1}) break;\n",
                                                 lanes == 1 ? "j" : "j0",
                                                 indexSpelling.literal(width))
                                       .str()
                                 : std::string();
    if (lanes == 1)
      return llvm::formatv("#pragma unroll\n"
                           "  for (int e = 0; e < {0}; ++e) {{\n"
                           "    [[maybe_unused]] const {4} j = "
                           "{5} + e * {1};\n"
                           "{2}{3}  }\n",
                           runs, threads, bound, statements,
                           indexSpelling.type(), threadInRow)
          .str();
    return llvm::formatv("#pragma unroll\n"
                         "  for (int e = 0; e < {0}; ++e) {{\n"
                         "    const {3} j0 = ({4} + e * {1}) * {2};\n"
                         "{5}{6}"
                         "#pragma unroll\n"
                         "    for (int l = 0; l < {2}; ++l) {{\n"
                         "      [[maybe_unused]] const {3} j = j0 + l;\n"
                         "      [[maybe_unused]] const int x = e * {2} + l;\n"
                         "  {7}    }\n{8}  }\n",
                         runs, threads, lanes, indexSpelling.type(),
                         threadInRow, bound, runStart, statements, runEnd)
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
  /// Whether a thread holds `value` as an array over its elements of the
  /// row: full rows, and the row vectors it loads as runs.
  bool isHeldPerElement(Value value) const {
    return isFull(value) || runValues.contains(value);
  }

  /// The element at `j` of row `row`, an offset into a full row.
  std::string atRowElement() const {
    return "row * " + indexSpelling.literal(width) + " + j";
  }
  /// Where the run at j0 of `value` (a full row or a row vector) starts.
  std::string atRunStart(Value value) const {
    return isFull(value) ? "row * " + indexSpelling.literal(width) + " + j0"
                         : "j0";
  }
  /// The row of the thread: with several rows a block, each warp finds its
  /// own, and leaves past the last (`bound`).
  std::string findRow(StringRef bound) const {
    if (rowsPerBlock == 1)
      return llvm::formatv("  const {0} row = blockIdx.x;\n",
                           indexSpelling.type());
    return llvm::formatv("  const {0} row = blockIdx.x * {1} + threadIdx.x / "
                         "{2};\n  if (row >= {3}) return;\n"
                         "  const int lane = threadIdx.x % {2};\n",
                         indexSpelling.type(), rowsPerBlock, threads, bound);
  }
  /// The kernel's geometry, as its comment states it.
  std::string describeGeometry() const {
    std::string geometry =
        rowsPerBlock == 1
            ? llvm::formatv("a block of {0} threads per row", threads).str()
            : llvm::formatv("{0} rows of {1} threads a block", rowsPerBlock,
                            threads)
                  .str();
    if (lanes > 1)
      geometry += llvm::formatv(", runs of {0} elements", lanes);
    return geometry;
  }
  /// The register slots a thread holds of a row.
  int64_t slots() const { return runs * lanes; }

  const RowGroup &group;
  const IndexSpelling indexSpelling;
  /// The values read after the group.
  SmallVector<Value> outputs;
  const int64_t width;
  const int64_t threads;
  const int64_t lanes;
  const int64_t runs;
  const int64_t rowsPerBlock;
  /// The thread's index among its row's threads, and a register's slot.
  const std::string threadInRow, slot;
  /// With runs, the values moved a run at a time (getRowRunValues).
  const llvm::SetVector<Value> runValues;
  llvm::DenseMap<Value, std::string> registers;
  SmallVector<Value> inputs;
  std::string body, layers;
};

/// Loads `value`, a full row or a row vector computed before the group,
/// into a register array of the thread's elements: one vector per run with
/// runs, else element by element.
std::string CudaEmitter::loadRowRegisters(RowKernel &kernel, Value value) {
  std::string name = "f" + std::to_string(kernel.registers.size());
  kernel.registers[value] = name;
  size_t input = kernel.inputs.size();
  kernel.inputs.push_back(value);
  DeviceType type = typeOf(value);
  std::string code =
      llvm::formatv("  float {0}[{1}];\n", name, kernel.slots()).str();
  if (kernel.lanes == 1)
    return code +
           kernel.overRow(llvm::formatv(
               "    {0}[e] = {1};\n", name,
               substitute(type.toFloat, llvm::formatv("in{0}[{1}]", input,
                                                      kernel.atRowElement())
                                            .str())));
  const char *run = getVectorCTypeOfBytes(type.bytes * kernel.lanes);
  return code +
         kernel.overRow(
             llvm::formatv("    {0}[x] = {1};\n", name,
                           substitute(type.toFloat, "v[l]")),
             llvm::formatv("    __align__(16) {0} v[{1}];\n"
                           "    *reinterpret_cast<{2} *>(v) = "
                           "*reinterpret_cast<const {2} *>(in{3} + {4});\n",
                           type.cType, kernel.lanes, run, input,
                           kernel.atRunStart(value)));
}

/// A reduction of the group into register `name`: a thread's elements,
/// then the row's threads. A row computed before the group is loaded first.
void CudaEmitter::addRowReduction(RowKernel &kernel, Operation *op,
                                  const std::string &name) {
  bool isMax = isa<tosa::ReduceMaxOp>(op);
  Value reduced = kernel.rootOf(op->getOperand(0));
  if (!kernel.registers.count(reduced))
    kernel.body += loadRowRegisters(kernel, reduced);
  kernel.body += llvm::formatv("  float {0}_acc = {1};\n", name,
                               isMax ? "-INFINITY" : "0.0f");
  kernel.body += kernel.overRow(
      llvm::formatv(isMax ? "    {0}_acc = fmaxf({0}_acc, {1}[{2}]);\n"
                          : "    {0}_acc = __fadd_rn({0}_acc, {1}[{2}]);\n",
                    name, kernel.registers.lookup(reduced), kernel.slot));
  kernel.body += llvm::formatv(
      "  const float {0} = prec_row_reduce<{1}, {2}>({0}_acc, partial);\n",
      name, isMax ? "true" : "false", kernel.threads / 32);
}

/// An elementwise op of the group into register `name` (an array over the
/// row when `full`). Operands are registers of the group, or loads of
/// values computed before: with runs, full rows and row vectors are loaded
/// into registers first.
void CudaEmitter::addRowElementwise(RowKernel &kernel, Operation *op,
                                    const std::string &name, bool full) {
  const int64_t width = kernel.width;
  Value result = op->getResult(0);
  for (Value operand : op->getOperands()) {
    Value root = kernel.rootOf(operand);
    if (kernel.runValues.contains(root) && !kernel.registers.count(root))
      kernel.body += loadRowRegisters(kernel, root);
  }
  SmallVector<ArrayRef<int64_t>> loadedShapes;
  std::string loads;
  std::string expression = expressionOf(op, [&](Value operand) {
    Value root = kernel.rootOf(operand);
    if (std::string reg = kernel.registers.lookup(root); !reg.empty())
      return kernel.isHeldPerElement(root) ? reg + "[" + kernel.slot + "]"
                                           : reg;
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
        llvm::formatv("  float {0}[{1}];\n", name, kernel.slots()).str() +
        kernel.overRow(llvm::formatv("{0}    {1}[{2}] = {3};\n", loads, name,
                                     kernel.slot, expression));
  else
    kernel.body += llvm::formatv("  float {0};\n  {{\n{1}    {0} = {2};\n  }\n",
                                 name, loads, expression);
}

/// The stores of the values read after the group, from their registers:
/// full rows one run at a time with runs.
std::string CudaEmitter::writeRowOutputs(const RowKernel &kernel) {
  std::string writes;
  for (auto [position, output] : llvm::enumerate(kernel.outputs)) {
    std::string reg = kernel.registers.lookup(output);
    DeviceType type = typeOf(output);
    if (!kernel.isFull(output)) {
      writes += llvm::formatv("  if ({0} == 0) out{1}[row] = {2};\n",
                              kernel.threadInRow, position,
                              substitute(type.fromFloat, reg));
      continue;
    }
    if (kernel.lanes == 1) {
      writes += kernel.overRow(llvm::formatv(
          "    out{0}[{1}] = {2};\n", position, kernel.atRowElement(),
          substitute(type.fromFloat, reg + "[e]")));
      continue;
    }
    const char *run = getVectorCTypeOfBytes(type.bytes * kernel.lanes);
    writes += kernel.overRow(
        llvm::formatv("    w[l] = {0};\n",
                      substitute(type.fromFloat, reg + "[x]")),
        llvm::formatv("    __align__(16) {0} w[{1}];\n", type.cType,
                      kernel.lanes),
        llvm::formatv("    *reinterpret_cast<{0} *>(out{1} + {2}) = "
                      "*reinterpret_cast<const {0} *>(w);\n",
                      run, position, kernel.atRunStart(output)));
  }
  return writes;
}

/// A row group as one kernel: each row's threads (RowKernel) holding its
/// elements in registers. Every op rounds to its type as its own kernel
/// would; only the summation order of a reduction differs from the CPU
/// path, as in emitReduce.
LogicalResult CudaEmitter::emitRowGroup(const RowGroup &group) {
  Operation *launch = group.ops.back();
  IntegerAttr threads =
      getEngineDialect().getBlockThreadsAttrHelper().getAttr(launch);
  if (!threads)
    return planMissing(launch, "engine.block_threads", "prec-plan-kernels");
  // prec-plan-elementwise-vectors sized the runs by the widest element and
  // chose them to divide the row.
  int64_t lanes = 1;
  llvm::SetVector<Value> runValues;
  if (IntegerAttr bytes =
          getEngineDialect().getVectorBytesAttrHelper().getAttr(launch)) {
    runValues = getRowRunValues(group);
    lanes = bytes.getInt() / getRowRunElementBytes(runValues.getArrayRef());
  }
  RowKernel kernel(group, threads.getInt(), lanes, std::move(runValues),
                   indexSpelling);
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
  Value result = launch->getResult(0);
  kernels += llvm::formatv(
      "// row kernel: {0} rows of {1}, {2}, for\n"
      "{3}__global__ void {4}({5}{9}) {{\n"
      "  prec_kernel_start();\n"
      "  __shared__ float partial[8];\n"
      "{8}{6}{7}}\n\n",
      group.rows, kernel.width, kernel.describeGeometry(), kernel.layers, name,
      signature, kernel.body, writeRowOutputs(kernel),
      kernel.findRow(kernelBound(result, group.rows)),
      kernel.rowsPerBlock > 1 ? countParameter(result) : "");
  std::string layer = getLayerName(launch).str();
  runCode +=
      llvm::formatv("  // row kernel ending at {0}{1}\n", launch->getName(),
                    layer.empty() ? "" : " '" + layer + "'");
  SmallVector<std::string> arguments;
  for (Value value : llvm::concat<Value>(kernel.inputs, kernel.outputs))
    arguments.push_back(pointer(value));
  if (kernel.rowsPerBlock > 1 && isBatched(result))
    arguments.push_back(runtimeCount(result, group.rows));
  runCode +=
      launchCall(name, blocksFor(result, group.rows, kernel.rowsPerBlock),
                 std::to_string(kernel.threads * kernel.rowsPerBlock), "0",
                 llvm::join(arguments, ", "));
  return success();
}

} // namespace prec::cuda
