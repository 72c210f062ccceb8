//===- PlanElementwiseVectors.cpp - elementwise kernels on 16 bytes ------===//
//
// An elementwise kernel that loads and stores one 2-byte element a thread
// issues eight times the memory instructions of one moving 16 bytes: BERT's
// GELU kernel (12.6M f16 elements) took 21 us on an H200 against its bytes'
// 10.5 us. Where the innermost dimension divides, each thread takes vectors
// of consecutive elements, as many as 16 bytes of the widest element hold,
// loading the inputs read at the output's index and storing the result as
// vectors: a quantization of f16 into i8 loads 16 bytes and stores 8
// (ResNet-50's 19 at batch 64 took 803 us an element a thread on an H100,
// 709 to 716 us in runs of 8). Row kernels (LayerNorm,
// softmax) likewise load and store their rows in runs: BERT-base's residual
// add and LayerNorm, 4096 rows of 768 f16, took 7.95 us on an H200 an
// element at a time, 128 threads a row, and 5.90 us in runs of 8, a warp a
// row (bench/gpu/run_transformers.py profile).
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Utils/Shapes.h"
#include "lowering/BufferAliases.h"
#include "lowering/DeviceTypes.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/PlannableFunction.h"
#include "lowering/RowGroups.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANELEMENTWISEVECTORS
#include "lowering/Passes.h.inc"

namespace {

/// The ops of each kernel of one of `kinds`, by kernel index, in program
/// order: the last launches it.
llvm::MapVector<int64_t, SmallVector<Operation *>>
collectKernels(func::FuncOp function, engine::EngineDialect &dialect,
               ArrayRef<engine::KernelKind> kinds) {
  llvm::MapVector<int64_t, SmallVector<Operation *>> kernels;
  function.walk([&](Operation *op) {
    engine::KernelAttr kernel = dialect.getKernelAttrHelper().getAttr(op);
    if (kernel && llvm::is_contained(kinds, kernel.getKind()))
      kernels[kernel.getIndex()].push_back(op);
  });
  return kernels;
}

/// Whether `holds(reader, input)` for every value the kernel of `ops` reads
/// from memory: each operand computed outside the kernel, constants aside.
bool allInputs(ArrayRef<Operation *> ops,
               function_ref<bool(Operation *reader, Value input)> holds) {
  for (Operation *op : ops)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if ((def && llvm::is_contained(ops, def)) ||
          matchPattern(operand, m_Constant()))
        continue;
      if (!holds(op, operand))
        return false;
    }
  return true;
}

/// Whether every buffer the kernel of `ops` reads, and each of `outputs`,
/// is the arena's or the weights' (256-byte aligned): a binding's alignment
/// is the caller's, and so is that of a result written into one.
bool touchesOnlyEngineBuffers(ArrayRef<Operation *> ops, ValueRange outputs,
                              const llvm::DenseMap<Value, int64_t> &inPlace) {
  auto isEngineBuffer = [&](Value value) {
    return !isa<BlockArgument>(getStorageRoot(value)) &&
           !inPlace.contains(value) && !inPlace.contains(getStorageRoot(value));
  };
  return allInputs(ops, [&](Operation *,
                            Value input) { return isEngineBuffer(input); }) &&
         llvm::all_of(outputs, isEngineBuffer);
}

/// Whether each thread reading runs of consecutive elements keeps the
/// kernel's loads coalesced: every input read at its reader's index (the
/// result's, or before a reshape) is held as stored (a float, or an i8 or
/// f8 value widened where read), loaded as vectors of its own width (an f16
/// input of an i8 or f8 quantization as 16 bytes where the result's run is
/// 8); others are only broadcast (a bias, a mask row), whose few elements
/// the cache holds. Inputs read through moves (a rotary embedding's
/// transposes and slices) or converted on loading (i32, i64) would be read
/// a strided element at a time.
bool keepsLoadsCoalesced(ArrayRef<Operation *> ops) {
  return allInputs(ops, [&](Operation *reader, Value input) {
    if (isa<ElementIndexMapOpInterface>(reader))
      return false;
    if (shapeOf(input) != shapeOf(reader->getResult(0)))
      return true;
    Type element = getElementTypeOrSelf(input.getType());
    return isHeldAsStored(element);
  });
}

/// The widest element of the result of `ops`'s kernel and of the inputs it
/// loads as vectors (keepsLoadsCoalesced), which sizes its runs.
int64_t getWidestLoadedBytes(ArrayRef<Operation *> ops, DeviceType result) {
  int64_t widest = result.bytes;
  allInputs(ops, [&](Operation *reader, Value input) {
    if (shapeOf(input) == shapeOf(reader->getResult(0)))
      widest = std::max(
          widest, getDeviceType(getElementTypeOrSelf(input.getType()))->bytes);
    return true;
  });
  return widest;
}

class PlanElementwiseVectorsPass
    : public PlanPass<PlanElementwiseVectorsPass,
                      impl::PrecPlanElementwiseVectorsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    auto &dialect = engine::EngineDialect::get(&getContext());
    llvm::DenseMap<Value, int64_t> inPlace = getResultsWrittenInPlace(function);
    planElementwiseKernels(function, dialect, inPlace);
    planRowKernels(function, dialect, inPlace);
    return success();
  }

private:
  IntegerAttr getI64(int64_t value) {
    return IntegerAttr::get(IntegerType::get(&getContext(), 64), value);
  }

  void planElementwiseKernels(func::FuncOp function,
                              engine::EngineDialect &dialect,
                              const llvm::DenseMap<Value, int64_t> &inPlace) {
    auto vectorBytes = dialect.getVectorBytesAttrHelper();
    for (auto &[index, ops] : collectKernels(
             function, dialect,
             {engine::KernelKind::Single, engine::KernelKind::Fused})) {
      Operation *root = ops.back();
      if (!isElementwise(root) || root->getNumResults() != 1)
        continue;
      // A plan already there is replaced.
      root->removeAttr(vectorBytes.getName());
      ArrayRef<int64_t> shape = shapeOf(root->getResult(0));
      Type resultElement = getElementTypeOrSelf(root->getResult(0).getType());
      std::optional<DeviceType> element = getDeviceType(resultElement);
      if (shape.empty() || ShapedType::isDynamic(shape.back()) || !element ||
          !touchesOnlyEngineBuffers(ops, root->getResults(), inPlace) ||
          !keepsLoadsCoalesced(ops))
        continue;
      // vector_bytes is the result's run, of as many elements as 16 bytes
      // of the widest hold, and of 4 bytes at least.
      int64_t widest = getWidestLoadedBytes(ops, *element);
      if (std::optional<int64_t> bytes =
              chooseVectorBytes(widest, [&](int64_t lanes) {
                return shape.back() % lanes == 0 && lanes * element->bytes >= 4;
              }))
        vectorBytes.setAttr(root, getI64(*bytes / widest * element->bytes));
    }
  }

  /// Row kernels move runs of consecutive elements of their rows and row
  /// vectors, as many as the widest element's vector_bytes holds, where
  /// the width is a multiple of that and leaves a warp's threads a run each
  /// at least; their threads then cover the runs.
  void planRowKernels(func::FuncOp function, engine::EngineDialect &dialect,
                      const llvm::DenseMap<Value, int64_t> &inPlace) {
    auto vectorBytes = dialect.getVectorBytesAttrHelper();
    auto blockThreads = dialect.getBlockThreadsAttrHelper();
    for (auto &[index, ops] :
         collectKernels(function, dialect, {engine::KernelKind::Rows})) {
      Operation *root = ops.back();
      // A plan already there is replaced.
      root->removeAttr(vectorBytes.getName());
      RowGroup group = getRowGroup(ops);
      int64_t widest =
          getRowRunElementBytes(getRowRunValues(group).getArrayRef());
      std::optional<int64_t> bytes;
      if (widest > 0 &&
          touchesOnlyEngineBuffers(ops, getRowGroupOutputs(ops), inPlace))
        bytes = chooseVectorBytes(widest, [&](int64_t lanes) {
          return group.width % lanes == 0 && group.width / lanes >= 32;
        });
      // Without runs, the threads prec-plan-kernels chose, so that a plan
      // made again is the same.
      int64_t threads = getRowBlockThreads(group.width);
      if (bytes) {
        vectorBytes.setAttr(root, getI64(*bytes));
        int64_t lanes = *bytes / widest;
        threads = getRowRunThreads(group.width / lanes, lanes);
      }
      blockThreads.setAttr(root, getI64(threads));
    }
  }
};

} // namespace

} // namespace prec
