//===- CudaEmitter.cpp - a legalized module as a CUDA engine --------------===//

#include "codegen/CudaEmitter.h"
#include "codegen/CudaEmitterImpl.h"
#include "codegen/runtime/WeightsFile.h"

#include "lowering/BatchAnalysis.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/KernelGroups.h"
#include "lowering/Pipelines.h"
#include "lowering/RowGroups.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/ExternalModels/PrecisionModels.h"
#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Utils/OpNames.h"
#include "support/NestingDepth.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
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
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstring>
#include <functional>
#include <numeric>

using namespace mlir;

namespace prec {

/// The engines' host runtime (codegen/runtime/), copied into every engine.
static const char kEngineRuntime[] =
#include "codegen/EngineRuntime.inc"
    ;

namespace cuda {

/// runtime/TensorCoreCopies.cuh, for engines with a tensor-core kernel of
/// prec's own.
static const char *const tensorCoreCopies =
#include "codegen/TensorCoreCopies.inc"
    ;

/// runtime/CudnnHelpers.cuh, for engines with cuDNN convolutions.
static const char *const cudnnHelpers =
#include "codegen/CudnnHelpers.inc"
    ;

engine::EngineDialect &CudaEmitter::getEngineDialect() const {
  return engine::EngineDialect::get(function->getContext());
}

LogicalResult CudaEmitter::planMissing(Operation *op, llvm::StringRef name,
                                       llvm::StringRef pass) {
  return op->emitError() << "the CUDA emitter follows the engine plan, and "
                            "this op has no "
                         << name << ": run " << pass << " (prec-plan-engine)";
}

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
    if (int64_t padded = getPaddedDepth(value)) {
      int64_t rows = shapeOf(value)[0], depth = countOf(value) / rows;
      int64_t rowBytes = padded * type.bytes;
      std::vector<char> wider(rows * rowBytes, 0);
      for (int64_t row = 0; row < rows; ++row)
        std::memcpy(wider.data() + row * rowBytes,
                    data.data() + row * depth * type.bytes, depth * type.bytes);
      return wider;
    }
    if (!isStoredTransposed(value))
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
  bytes = data.size();
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
  IntegerAttr offset = getEngineDialect().getArenaOffsetAttrHelper().getAttr(
      value.getDefiningOp());
  if (!offset)
    return planMissing(value.getDefiningOp(), "engine.arena_offset",
                       "prec-plan-buffers");
  buffers[value] =
      Buffer{Buffer::Kind::Activation, offset.getInt(), bytes, type->cType};
  return success();
}

std::string CudaEmitter::pointer(Value value, StringRef asType) {
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
  return llvm::formatv("(({0} *){1})",
                       asType.empty() ? StringRef(buffer.cType) : asType, base);
}

std::string CudaEmitter::launchCall(StringRef kernel, StringRef grid,
                                    StringRef block, StringRef shared,
                                    StringRef arguments, bool early) {
  return llvm::formatv("  prec_launch({0}, {1}, {2}, {3}, {4}, stream, {5});\n",
                       early ? "e->early_launch" : "false", kernel, grid,
                       block, shared, arguments)
      .str();
}

std::string CudaEmitter::kernelName(Operation *op) {
  std::string name = "k" + std::to_string(kernelCount++) + "_";
  for (char c : op->getName().stripDialect())
    name += isalnum(c) ? c : '_';
  return name;
}

std::optional<int64_t> CudaEmitter::getBatchDim(Value value) const {
  engine::EngineDialect &dialect = getEngineDialect();
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    DenseI64ArrayAttr inputs =
        dialect.getBatchedInputsAttrHelper().getAttr(function);
    if (inputs && llvm::is_contained(inputs.asArrayRef(),
                                     int64_t(argument.getArgNumber())))
      return 0;
    return std::nullopt;
  }
  if (IntegerAttr dim =
          dialect.getBatchDimAttrHelper().getAttr(value.getDefiningOp()))
    return dim.getInt();
  return std::nullopt;
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
                         int64_t elementsPerThread,
                         llvm::function_ref<std::string(Value)> pointerOf) {
  auto spell = [&](Value value) {
    return pointerOf ? pointerOf(value) : pointer(value);
  };
  std::string layer = getLayerName(op).str();
  runCode += llvm::formatv("  // {0}{1}\n", op->getName(),
                           layer.empty() ? "" : " '" + layer + "'");
  int64_t perBlock = 256 * elementsPerThread;
  std::string arguments;
  for (Value input : inputs)
    arguments += spell(input) + ", ";
  arguments += spell(output);
  if (isBatched(output))
    arguments += ", " + runtimeCount(output, count);
  runCode += launchCall(kernel, blocksFor(output, count, perBlock), "256", "0",
                        arguments);
}

bool CudaEmitter::isStoredTransposed(Value weight) const {
  Operation *constant = weight.getDefiningOp();
  return constant &&
         getEngineDialect().getStoredTransposedAttrHelper().isAttrPresent(
             constant);
}

int64_t CudaEmitter::getPaddedDepth(Value weight) const {
  Operation *constant = weight.getDefiningOp();
  IntegerAttr depth =
      constant ? getEngineDialect().getPaddedDepthAttrHelper().getAttr(constant)
               : nullptr;
  return depth ? depth.getInt() : 0;
}

/// The groups prec-plan-kernels made, as the maps the emitter looks ops up
/// in: GEMMs with what they perform, row groups, fused elementwise ops.
LogicalResult CudaEmitter::readKernelPlan() {
  IntegerAttr arenaSize =
      getEngineDialect().getArenaBytesAttrHelper().getAttr(function);
  if (!arenaSize)
    return planMissing(function, "engine.arena_bytes", "prec-plan-buffers");
  arenaBytes = arenaSize.getInt();
  IntegerAttr indexBits =
      getEngineDialect().getIndexBitwidthAttrHelper().getAttr(function);
  if (!indexBits)
    return planMissing(function, "engine.index_bitwidth",
                       "prec-plan-index-width");
  indexSpelling.narrow = indexBits.getInt() == 32;
  llvm::MapVector<int64_t, KernelGroup> kernels =
      getKernelGroups(function.getBody().front());
  rowGroups.reserve(kernels.size());
  for (auto &[index, kernel] : kernels) {
    auto &[kind, ops] = kernel;
    Operation *launch = kernel.getLaunch();
    for (Operation *op : ops)
      launchOf[op] = launch;
    switch (kind) {
    case engine::KernelKind::Contraction: {
      auto contraction = llvm::find_if(ops, [](Operation *op) {
        return isa<tosa::MatMulOp, tosa::Conv2DOp>(op);
      });
      if (contraction == ops.end())
        return launch->emitError()
               << "engine.kernel " << index
               << " is a contraction without a matmul or convolution";
      for (Operation *op : ops)
        if (op != launch)
          performedBy[op] = launch;
      if (*contraction != launch)
        gemmAt[launch] = *contraction;
      break;
    }
    case engine::KernelKind::Rows:
      rowGroups.push_back(getRowGroup(ops));
      for (Operation *op : ops)
        rowGroupOf[op] = &rowGroups.back();
      break;
    case engine::KernelKind::Fused:
      fusedIntoUser.insert(ops.begin(), ops.end() - 1);
      break;
    case engine::KernelKind::Epilogue: {
      auto isConv = [](Operation *op) { return isa<tosa::Conv2DOp>(op); };
      if (llvm::count_if(ops, isConv) != 1)
        return launch->emitError()
               << "engine.kernel " << index
               << " is an epilogue of other than one convolution";
      // Its outputs are stored, the launch's last; the other ops computed.
      SmallVector<Value> outputs = kernel.getOutputs();
      for (Operation *op : ops)
        if (!llvm::is_contained(outputs, op->getResult(0)))
          fusedIntoUser.insert(op);
      for (Value output : outputs)
        if (output.getDefiningOp() != launch)
          performedBy[output.getDefiningOp()] = launch;
      epilogueConvs[launch] = cast<tosa::Conv2DOp>(*llvm::find_if(ops, isConv));
      epilogueOutputs[launch] = std::move(outputs);
      break;
    }
    case engine::KernelKind::Single:
      break;
    }
  }
  return success();
}

LogicalResult CudaEmitter::emitOp(Operation *op) {
  if (auto assignment = op->getAttrOfType<precision::AssignmentAttr>(
          precision::PrecisionDialect::getAssignmentAttrName())) {
    opRecords.push_back(llvm::json::Object{
        {"name", getLayerName(op)},
        {"op", op->getName().getStringRef()},
        {"compute", getTypeName(assignment.getCompute())},
        {"accumulate", getTypeName(assignment.getAccumulate())},
        {"storage", getTypeName(assignment.getStorage())}});
  }
  if (isa<tosa::ConstShapeOp>(op))
    return success();
  // A constant nothing reads stays out of the weights file.
  if (isa<tosa::ConstOp, arith::ConstantOp>(op) && op->use_empty())
    return success();
  if (auto constant = dyn_cast<tosa::ConstOp>(op))
    return addWeight(constant.getResult(), constant.getValues());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto values = dyn_cast<ElementsAttr>(constant.getValue());
    if (!values)
      return unsupported(op, "only tensor constants are emitted");
    return addWeight(constant.getResult(), values);
  }
  if (isBufferAlias(op)) {
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
  // Computed by a GEMM's epilogue, a row kernel or its user's kernel, or
  // read through by GEMMs.
  if (performedBy.count(op) || isFusedIntoUser(op) ||
      getEngineDialect().getReadThroughAttrHelper().isAttrPresent(op))
    return success();
  if (const RowGroup *group = rowGroupOf.lookup(op))
    return op == group->ops.back() ? emitRowGroup(*group) : success();
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op))
    return emitMatmul(matmul);
  if (auto attention = dyn_cast<engine::AttentionOp>(op))
    return emitAttention(attention);
  if (failed(assignBuffer(op->getResult(0))))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tosa::ReduceSumOp>([&](auto) { return emitReduce(op, false); })
      .Case<tosa::ReduceMaxOp>([&](auto) { return emitReduce(op, true); })
      .Case<tosa::ConcatOp>([&](auto c) { return emitConcat(c); })
      .Case<ElementIndexMapOpInterface>([&](auto m) { return emitMove(m); })
      .Case<tosa::PadOp>([&](auto p) { return emitPad(p); })
      .Case<tosa::GatherOp>([&](auto g) { return emitGather(g); })
      .Case<tosa::Conv2DOp>([&](auto conv) { return emitConvGemm(conv); })
      .Case<tosa::DepthwiseConv2DOp>([&](auto) { return emitConv(op, true); })
      .Case<tosa::MaxPool2dOp>([&](auto) { return emitPool(op, true); })
      .Case<tosa::AvgPool2dOp>([&](auto) { return emitPool(op, false); })
      .Default([&](Operation *) { return emitElementwise(op); });
}

/// The bindings (inputs then outputs, in signature order) for the binding
/// table and the manifest, and the results written straight into them.
LogicalResult CudaEmitter::collectBindings() {
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
  batchRange = options.batch;

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

  outputBindings = getResultsWrittenInPlace(function);
  return success();
}

/// Reads the kernel plan, then emits every op and the copies of results not
/// written into their bindings.
LogicalResult CudaEmitter::emitBody() {
  if (failed(readKernelPlan()))
    return failure();
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
  }

  return success();
}

/// cuDNN: one handle and one workspace (the largest any convolution's
/// algorithm needs), both made when the engine is created. Returns the
/// source that comes before the kernels.
std::string CudaEmitter::addCudnnSupport() {
  stateFields += "  cudnnHandle_t dnn = nullptr;\n  void *dnn_workspace = "
                 "nullptr;\n  size_t dnn_workspace_bytes = 0;\n";
  createCode += "    if (e->dnn_workspace_bytes) "
                "PREC_CHECK(cudaMalloc(&e->dnn_workspace, "
                "e->dnn_workspace_bytes));\n";
  releaseCode += "  cudaFree(e->dnn_workspace);\n"
                 "  if (e->dnn) cudnnDestroy(e->dnn);\n";
  runCode = "  PREC_CHECK_DNN(cudnnSetStream(e->dnn, stream));\n" + runCode;
  return cudnnHelpers;
}

/// A dynamic batch: the engine keeps the batch it runs at (the optimum
/// until set otherwise) and resizes its GEMMs when that changes. Returns the
/// resize, batch-range and set_batch functions.
std::string CudaEmitter::addBatchSupport() {
  stateFields += llvm::formatv("  int batch = {0}, configured_batch = 0;\n",
                               batchRange->opt);
  std::string code = llvm::formatv(
      R"(static int {0}_resize({0}_engine *e) {{
  [[maybe_unused]] const long long b = e->batch;
{1}  e->configured_batch = e->batch;
  return 0;
}

extern "C" void {0}_batch_range(int *min, int *opt, int *max) {{
  *min = {2}; *opt = {3}; *max = {4};
}

// Resizing (and timing GEMM algorithms on scratch memory) happens here, so
// that runs never allocate.
extern "C" int {0}_set_batch({0}_engine *e, int batch) {{
  if (batch < {2} || batch > {4}) return PREC_STATUS_BATCH_OUT_OF_RANGE;
  e->batch = batch;
  return e->configured_batch == batch ? 0 : {0}_resize(e);
}

)",
      stem, resizeCode, batchRange->min, batchRange->opt, batchRange->max);
  createCode +=
      llvm::formatv("    if (int s_ = {0}_resize(e)) return s_;\n", stem);
  runCode = llvm::formatv("  if (e->configured_batch != e->batch) {{\n"
                          "    if (int s_ = {0}_resize(e)) return s_;\n"
                          "  }\n",
                          stem)
                .str() +
            runCode;
  return code;
}

/// The .cu file's includes, the host runtime and device helpers.
void CudaEmitter::printPrologue(llvm::raw_ostream &cu,
                                llvm::StringRef cudnnPreamble) {
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

{3}
#define PREC_WORKSPACE ((size_t){1})
#define PREC_CHECK(call) do {{ cudaError_t s_ = (call); if (s_ != cudaSuccess) return (int)s_; } while (0)
#define PREC_CHECK_BLAS(call) do {{ cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) return 10000 + (int)s_; } while (0)

// One conversion rounds to nearest even and saturates (it would send NaN to
// 0: the fmaxf sends it to -128, as rounding then clamping did).
__device__ inline int8_t prec_saturate_i8(float x) {{
  int r;
  asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(r) : "f"(fmaxf(x, -128.0f)));
  return (int8_t)r;
}
// The same for a value that is never NaN (a clamp's, whose fmaxf drops it).
__device__ inline int8_t prec_round_i8(float x) {{
  int r;
  asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(r) : "f"(x));
  return (int8_t)r;
}
__device__ inline int32_t prec_saturate_i32(float x) {{
  return (int32_t)fminf(fmaxf(rintf(x), -2147483648.0f), 2147483520.0f);
}
__device__ inline int64_t prec_saturate_i64(float x) {{
  return (int64_t)fminf(fmaxf(rintf(x), -9.223372e18f), 9.223371e18f);
}

{2})",
      stem, std::max<int64_t>(workspaceBytes, 1), cudnnPreamble,
      kEngineRuntime);
}

/// The kernels, then the engine's state and C API: create, run, status
/// messages, destroy and the binding queries.
void CudaEmitter::printEngine(llvm::raw_ostream &cu, llvm::StringRef batchCode,
                              llvm::StringRef cudnnPreamble,
                              uint64_t identity) {
  std::string prefix = stem;
  int numBindings = function.getNumArguments() + function.getNumResults();
  if (!rowGroups.empty())
    cu << rowReduceHelper;
  if (hasAttention || hasImplicitGemmConv)
    cu << tensorCoreCopies;
  if (hasAttention)
    cu << attentionKernel;
  if (hasImplicitGemmConv)
    cu << implicitGemmConv;
  cu << kernels;
  cu << llvm::formatv(
      R"(struct {0}_engine {{
  char *weights = nullptr;
  char *arena = nullptr;
  void *workspace = nullptr;
  cublasLtHandle_t lt = nullptr;
  prec_stream_guard guard;
  prec_graph graph;
  bool early_launch = false;
  float float_one = 1.0f, float_zero = 0.0f;
  int32_t int_one = 1, int_zero = 0;
  __half half_one = __float2half(1.0f), half_zero = __float2half(0.0f);
{1}};

{8}{10}extern "C" int {0}_create(const char *weights_path, {0}_engine **out) {{
  *out = nullptr;
  const unsigned long long bytes = {2}ULL;
  char *host = nullptr;
  int status = prec_read_weights(weights_path, {11}ULL, bytes, &host);
  if (status != 0) return status;
  {0}_engine *e = new {0}_engine();
  status = prec_device_alloc((void **)&e->weights, bytes);
  if (status == 0)
    status = (int)cudaMemcpy(e->weights, host, bytes, cudaMemcpyHostToDevice);
  std::free(host);
  if (status == 0) status = prec_device_alloc((void **)&e->arena, {3}ULL);
  if (status == 0) status = prec_device_alloc(&e->workspace, PREC_WORKSPACE);
  if (status == 0) status = prec_guard_create(&e->guard);
  if (status == 0) status = prec_graph_create(&e->graph);
  e->early_launch = prec_device_launches_early();
  if (status == 0) {{
    cublasStatus_t created = cublasLtCreate(&e->lt);
    if (created != CUBLAS_STATUS_SUCCESS) status = 10000 + (int)created;
  }
  if (status == 0) status = [&]() -> int {{
{4}    return 0;
  }();
  if (status != 0) {{
    {0}_destroy(e);
    return status;
  }
  *out = e;
  return 0;
}

static int {0}_enqueue({0}_engine *e, void *const *bindings, cudaStream_t stream) {{
{5}  PREC_CHECK(cudaGetLastError());
  return 0;
}

extern "C" int {0}_run({0}_engine *e, void *const *bindings, cudaStream_t stream) {{
  int status = prec_guard_enter(&e->guard, stream);
  if (status != 0) return status;
  status = {0}_enqueue(e, bindings, stream);
  int recorded = prec_guard_leave(&e->guard, stream);
  return status != 0 ? status : recorded;
}

extern "C" int {0}_run_graph({0}_engine *e, void *const *bindings, cudaStream_t stream) {{
  int status = prec_guard_enter(&e->guard, stream);
  if (status != 0) return status;
  status = prec_graph_run(&e->graph, bindings, {7}, {13}, stream,
      [&](cudaStream_t capture) {{ return {0}_enqueue(e, bindings, capture); });
  int recorded = prec_guard_leave(&e->guard, stream);
  return status != 0 ? status : recorded;
}

extern "C" const char *{0}_status_message(int status) {{
  if (const char *message = prec_status_message(status)) return message;
  if (status >= 10000 && status < 20000)
    return cublasLtGetStatusString((cublasStatus_t)(status - 10000));
{12}  return "unknown status";
}

extern "C" void {0}_destroy({0}_engine *e) {{
  if (!e) return;
{9}  cudaFree(e->weights);
  cudaFree(e->arena);
  cudaFree(e->workspace);
  if (e->lt) cublasLtDestroy(e->lt);
  prec_guard_destroy(&e->guard);
  prec_graph_destroy(&e->graph);
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
      prefix, stateFields, weights.size(), std::max<int64_t>(arenaBytes, 1),
      createCode, runCode, bindingTable, numBindings,
      // cuBLASLt helpers, where there are matmuls to call.
      hasGemms ? matmulHelpers : "", releaseCode, batchCode, identity,
      cudnnPreamble.empty()
          ? std::string()
          : "  if (status >= 40000 && status < 50000)\n"
            "    return cudnnGetErrorString((cudnnStatus_t)(status - "
            "40000));\n",
      batchRange ? "e->batch" : "0");
}

/// The engine's C header.
LogicalResult CudaEmitter::writeHeader(llvm::StringRef directory) {
  std::string prefix = stem;
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
   returns 0 or a status: 30001 the file cannot be opened, 30002 it is not a
   prec weights file, 30003 it is truncated, 30004 there is no CUDA device or
   driver, 30005 it belongs to another engine, 30006 it is corrupt, 30007 out
   of device memory, 30009 out of host memory, 20001 to 20003 no GEMM or
   convolution algorithm; below 10000 a CUDA error, 10000 + a cuBLAS status,
   40000 + a cuDNN status. */
int {0}_create(const char *weights_path, {0}_engine **engine);
/* Runs on `stream`; bindings are device pointers, inputs then outputs, in
   the order of the binding queries below. No allocation happens here. An
   engine runs on one stream at a time, as a TensorRT execution context does:
   a run while another host thread is inside run, or on another stream before
   the last run has finished, returns 30008 and does nothing. Create one
   engine per stream to run concurrently. */
int {0}_run({0}_engine *engine, void *const *bindings, cudaStream_t stream);
/* As run, replayed as one CUDA graph: the first call, and the first after
   the bindings or the batch change, captures the run (on a stream of the
   engine's own, so `stream` may be the default stream) and instantiates or
   updates the graph, which allocates; later calls only launch it. The
   outputs are those of run, bit for bit. */
int {0}_run_graph({0}_engine *engine, void *const *bindings, cudaStream_t stream);
/* What a status of create, run or set_batch means. */
const char *{0}_status_message(int status);
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
   runs. The batch starts at the optimum; set_batch chooses GEMM and cuDNN
   algorithms again for a new batch (timing them: it allocates scratch
   memory and synchronizes), so that run never allocates. It returns
   non-zero outside [min, max] or when no algorithm fits. It is not guarded
   like run: call it when no run is in progress. */
void {0}_batch_range(int *min, int *opt, int *max);
int {0}_set_batch({0}_engine *engine, int batch);
)",
                                                       prefix)
                                             .str()
                                       : std::string());
  }

  return success();
}

/// The weights file (codegen/runtime/WeightsFile.h): magic, the engine's
/// identity, byte count and checksum, the weights block.
LogicalResult CudaEmitter::writeWeights(llvm::StringRef directory,
                                        uint64_t identity,
                                        uint64_t weightsChecksum) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, stem + ".weights");
  std::error_code error;
  {
    llvm::raw_fd_ostream file(path, error, llvm::sys::fs::OF_None);
    if (error)
      return function.emitError()
             << "cannot write '" << path << "': " << error.message();
    uint64_t header[] = {identity, weights.size(), weightsChecksum};
    file.write(kPrecWeightsMagic, 8);
    file.write(reinterpret_cast<const char *>(header), sizeof(header));
    file.write(weights.data(), weights.size());
  }

  return success();
}

/// The manifest: bindings, batch range, per-op records and sizes.
LogicalResult CudaEmitter::writeManifest(llvm::StringRef directory) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, stem + ".json");
  std::error_code error;
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
        {"activation_bytes", arenaBytes},
        {"workspace_bytes", workspaceBytes},
        {"libraries", usesCudnn ? llvm::json::Array{"cublasLt", "cudnn"}
                                : llvm::json::Array{"cublasLt"}}};
    file << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
         << "\n";
  }
  return success();
}

LogicalResult CudaEmitter::emit(llvm::raw_ostream &cu,
                                llvm::StringRef directory) {
  if (failed(collectBindings()) || failed(emitBody()))
    return failure();
  std::string cudnnPreamble = usesCudnn ? addCudnnSupport() : std::string();
  std::string batchCode = batchRange ? addBatchSupport() : std::string();
  // The engine's identity, which its weights file must carry: what it
  // computes and with which weights.
  uint64_t weightsChecksum =
      prec_weights_checksum(weights.data(), weights.size());
  std::string identityText = stem + "\n" + kernels + "\n" + bindingTable +
                             "\n" + stateFields + createCode + runCode +
                             std::to_string(arenaBytes) + "\n" +
                             std::to_string(weightsChecksum);
  uint64_t identity =
      prec_weights_checksum(identityText.data(), identityText.size());
  printPrologue(cu, cudnnPreamble);
  printEngine(cu, batchCode, cudnnPreamble, identity);
  if (failed(writeHeader(directory)) ||
      failed(writeWeights(directory, identity, weightsChecksum)))
    return failure();
  return writeManifest(directory);
}

} // namespace cuda

bool isEngineName(llvm::StringRef name) {
  // The engine runtime's own functions start with prec_.
  return !name.empty() && !llvm::isDigit(name.front()) && name != "prec" &&
         !name.starts_with("prec_") && llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_';
         });
}

LogicalResult emitCudaEngine(ModuleOp module, llvm::StringRef directory,
                             llvm::StringRef stem,
                             const CudaEngineOptions &options) {
  if (!isEngineName(stem))
    return emitError(module.getLoc())
           << "the engine name '" << stem
           << "' must be an identifier, other than prec or prec_*: it "
              "prefixes the engine's C functions";
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  auto main = llvm::find_if(
      functions, [](func::FuncOp f) { return f.getName() == "main"; });
  func::FuncOp function = main != functions.end() ? *main
                          : functions.size() == 1 ? functions[0]
                                                  : func::FuncOp();
  if (!function)
    return emitError(module.getLoc())
           << "the CUDA emitter needs a function @main (or a single function)";
  if (module.walk([](precision::RegionOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return emitError(module.getLoc())
           << "precision.region must be legalized first: run prec-legalize";
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return emitError(module.getLoc()) << "cannot create the output directory '"
                                      << directory << "': " << error.message();
  PassManager lowering(module.getContext());
  buildLowerToGpuPipeline(lowering);
  if (failed(lowering.run(module)))
    return failure();
  // Only the function the engine computes is planned.
  PassManager plan(module.getContext(), func::FuncOp::getOperationName());
  buildEnginePlanPipeline(
      plan, {options.convolutions, options.batch, options.batchInputs});
  if (failed(plan.run(function)))
    return failure();
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, stem + ".cu");
  std::error_code error;
  // Removed unless the engine is emitted whole: a failed emission leaves
  // no partial engine behind.
  llvm::ToolOutputFile cu(path, error, llvm::sys::fs::OF_None);
  if (error)
    return emitError(module.getLoc())
           << "cannot write '" << path << "': " << error.message();
  if (failed(
          cuda::CudaEmitter(function, stem, options).emit(cu.os(), directory)))
    return failure();
  cu.keep();
  return success();
}

void registerCudaEmitTranslation() {
  static llvm::cl::opt<std::optional<BatchRange>> batch(
      "batch",
      llvm::cl::desc("--emit-cuda: a dynamic batch MIN:OPT:MAX; the module is "
                     "at MAX"));
  static llvm::cl::opt<ConvolutionPreference> convolutions(
      "conv",
      llvm::cl::desc("--emit-cuda: how convolutions other than unit-stride "
                     "1x1 ones run"),
      PREC_CONVOLUTION_PREFERENCE_VALUES,
      llvm::cl::init(ConvolutionPreference::Auto));
  static llvm::cl::opt<std::string> outputDirectory(
      "output-dir",
      llvm::cl::desc("--emit-cuda: the directory the engine's .cu, .h, "
                     ".weights and .json go to (created if missing)"));
  static llvm::cl::opt<std::string> engineName(
      "engine-name",
      llvm::cl::desc("--emit-cuda: the engine's file stem and C prefix, an "
                     "identifier"),
      llvm::cl::init("engine"));
  static llvm::cl::list<std::string> batchInputs(
      "batch-inputs", llvm::cl::CommaSeparated,
      llvm::cl::desc("--emit-cuda: the inputs whose dimension 0 is the batch "
                     "(default: those of size MAX)"));
  // A source-to-output translation rather than one from parsed MLIR, so
  // that the text's nesting is bounded before MLIR's recursive parser sees it.
  TranslateRegistration registration(
      "emit-cuda",
      "Write a legalized module as a CUDA engine (.cu, .h, .weights, .json)",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        registry.insert<func::FuncDialect, tosa::TosaDialect,
                        arith::ArithDialect, math::MathDialect,
                        precision::PrecisionDialect, engine::EngineDialect>();
        registerPrecisionExternalModels(registry);
        registerElementwiseExpressionModels(registry);
        registerElementIndexMapModels(registry);
        context->appendDialectRegistry(registry);
        const llvm::MemoryBuffer *input =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        if (llvm::Error error = checkNestingDepth(input->getBuffer(),
                                                  input->getBufferIdentifier()))
          return emitError(UnknownLoc::get(context))
                 << llvm::toString(std::move(error));
        OwningOpRef<ModuleOp> parsed =
            parseSourceFile<ModuleOp>(*sourceMgr, ParserConfig(context));
        if (!parsed)
          return failure();
        ModuleOp module = *parsed;
        if (outputDirectory.empty())
          return emitError(module.getLoc())
                 << "--emit-cuda writes four files: name their directory "
                    "with --output-dir";
        CudaEngineOptions options;
        options.batch = batch.getValue();
        options.batchInputs.assign(batchInputs.begin(), batchInputs.end());
        options.convolutions = convolutions;
        return emitCudaEngine(module, outputDirectory, engineName, options);
      });
}

} // namespace prec
