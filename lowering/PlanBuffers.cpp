//===- PlanBuffers.cpp - where each activation of an engine lives ---------===//
//
// An engine runs its kernels in order on one stream, so a buffer whose last
// reading kernel has run can hold a later value. This pass places every
// kernel's outputs in one arena (first fit, ArenaAllocator), in launch
// order, releasing each buffer after the launch of the last kernel that
// reads it (through reshapes, which alias their input), and records the
// offsets. Results written straight into an output binding take no arena.
// prec-plan-kernels leaves each kernel's ops consecutive, so the last op to
// read a value (mlir::Liveness's end of it) is in the last kernel to read it.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/ArenaAllocator.h"
#include "lowering/BufferAliases.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/DeviceTypes.h"
#include "lowering/KernelGroups.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Analysis/Liveness.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANBUFFERS
#include "lowering/Passes.h.inc"

namespace {

class BufferPlanner {
public:
  BufferPlanner(func::FuncOp function, engine::EngineDialect &dialect)
      : function(function), body(function.getBody().front()),
        dialect(dialect), inPlace(getResultsWrittenInPlace(function)),
        kernels(getKernelGroups(body)) {
    for (auto &[index, kernel] : kernels) {
      groupAt[kernel.getLaunch()] = &kernel;
      for (Operation *op : kernel.ops)
        launchOf[op] = kernel.getLaunch();
    }
  }

  void plan() {
    planReleases();
    // A plan already there (the pass ran before) is replaced.
    for (Operation &op : body) {
      op.removeAttr(dialect.getArenaOffsetAttrHelper().getName());
      op.removeAttr(dialect.getColumnsOffsetAttrHelper().getName());
    }
    for (Operation &op : body) {
      if (const KernelGroup *kernel = groupAt.lookup(&op)) {
        for (Value output : kernel->getOutputs())
          place(output);
        placeColumns(*kernel);
      }
      for (Value value : releasesAfter.lookup(&op))
        if (auto offset = offsets.find(value); offset != offsets.end())
          arena.release(offset->second);
    }
    dialect.getArenaBytesAttrHelper().setAttr(function, getI64(arena.size()));
  }

private:
  Operation *getKernelOp(Operation *op) const {
    Operation *launch = launchOf.lookup(op);
    return launch ? launch : op;
  }

  /// The bytes `value` takes on the device, if the engine can store it.
  static std::optional<int64_t> getBytes(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    std::optional<DeviceType> device = getDeviceType(type.getElementType());
    if (!device)
      return std::nullopt;
    return type.getNumElements() * device->bytes;
  }

  void place(Value value) {
    std::optional<int64_t> bytes = getBytes(value);
    if (!bytes || inPlace.count(value))
      return;
    int64_t offset = arena.allocate(*bytes);
    offsets[value] = offset;
    dialect.getArenaOffsetAttrHelper().setAttr(value.getDefiningOp(),
                                               getI64(offset));
  }

  /// An im2col convolution's columns live while its GEMM runs.
  void placeColumns(const KernelGroup &kernel) {
    for (Operation *op : kernel.ops) {
      auto conv = dyn_cast<tosa::Conv2DOp>(op);
      engine::ConvAlgorithmAttr algorithm =
          conv ? dialect.getConvAlgorithmAttrHelper().getAttr(conv) : nullptr;
      if (!algorithm || algorithm.getValue() != engine::ConvAlgorithm::Im2col)
        continue;
      std::optional<DeviceType> input = getDeviceType(
          getElementTypeOrSelf(conv.getInput().getType()));
      // The emitter refuses what it cannot store.
      if (!input)
        continue;
      ArrayRef<int64_t> out = conv.getType().getShape();
      int64_t rows = out[0] * out[1] * out[2];
      int64_t offset =
          arena.allocate(rows * getConvGemmDepth(conv) * input->bytes);
      dialect.getColumnsOffsetAttrHelper().setAttr(conv, getI64(offset));
      arena.release(offset);
    }
  }

  /// Each buffer is released after the launch of the kernel of the last op
  /// that reads it or an alias of it; one nothing reads, once written.
  void planReleases() {
    Liveness functionLiveness(function);
    const LivenessBlockInfo *liveness = functionLiveness.getLiveness(&body);
    llvm::DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;
    llvm::MapVector<Value, Operation *> lastReader;
    auto noteEnd = [&](Value value, Operation *start) {
      Operation *end = getKernelOp(liveness->getEndOperation(value, start));
      Operation *&reader = lastReader[getStorageRoot(value)];
      if (!reader || position[end] > position[reader])
        reader = end;
    };
    for (BlockArgument argument : body.getArguments())
      noteEnd(argument, &body.front());
    for (Operation &op : body)
      for (Value result : op.getResults())
        noteEnd(result, &op);
    for (auto [value, reader] : lastReader)
      releasesAfter[reader].push_back(value);
  }

  IntegerAttr getI64(int64_t value) {
    return IntegerAttr::get(IntegerType::get(function.getContext(), 64),
                            value);
  }

  func::FuncOp function;
  Block &body;
  engine::EngineDialect &dialect;
  llvm::DenseMap<Value, int64_t> inPlace;
  llvm::MapVector<int64_t, KernelGroup> kernels;
  /// Each kernel's launch op, mapped to the kernel.
  llvm::DenseMap<Operation *, const KernelGroup *> groupAt;
  /// Each op of a kernel, mapped to the kernel's launch op.
  llvm::DenseMap<Operation *, Operation *> launchOf;
  llvm::DenseMap<Operation *, SmallVector<Value>> releasesAfter;
  llvm::DenseMap<Value, int64_t> offsets;
  ArenaAllocator arena;
};

/// Each kernel's ops are consecutive, ops that launch nothing aside.
LogicalResult checkConsecutiveKernels(func::FuncOp function) {
  auto kernelAttr =
      engine::EngineDialect::get(function->getContext()).getKernelAttrHelper();
  llvm::SmallDenseSet<int64_t> finished;
  std::optional<int64_t> current;
  for (Operation &op : function.getBody().front()) {
    engine::KernelAttr kernel = kernelAttr.getAttr(&op);
    if (!kernel || kernel.getIndex() == current)
      continue;
    if (current)
      finished.insert(*current);
    current = kernel.getIndex();
    if (finished.contains(*current))
      return op.emitError()
             << "the ops of engine kernel " << *current
             << " are not consecutive: run prec-plan-kernels, which orders "
                "them";
  }
  return success();
}

class PlanBuffersPass
    : public PlanPass<PlanBuffersPass, impl::PrecPlanBuffersBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    if (failed(checkConsecutiveKernels(function)))
      return failure();
    BufferPlanner(function, engine::EngineDialect::get(&getContext())).plan();
    return success();
  }
};

} // namespace

} // namespace prec
