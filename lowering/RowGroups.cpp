//===- RowGroups.cpp - ops one row kernel computes ------------------------===//

#include "lowering/RowGroups.h"

#include "dialects/Utils/Constants.h"
#include "lowering/DeviceTypes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <optional>

using namespace mlir;

namespace prec {

RowValueKind getRowValueKind(Value value, int64_t rows, int64_t width) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0)
    return RowValueKind::Other;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t leading = 1;
  for (int64_t dim : shape.drop_back())
    leading *= dim;
  if (leading != rows)
    return RowValueKind::Other;
  if (shape.back() == width)
    return RowValueKind::Full;
  return shape.back() == 1 ? RowValueKind::PerRow : RowValueKind::Other;
}

namespace {

/// Ops that launch nothing: a group runs across them.
bool isNoKernel(Operation *op) {
  return isa<tosa::ConstOp, tosa::ConstShapeOp>(op) ||
         op->getName().getStringRef() == "arith.constant";
}

bool isLastAxisReduction(Operation *op) {
  if (!isa<tosa::ReduceSumOp, tosa::ReduceMaxOp>(op))
    return false;
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  return op->getAttrOfType<IntegerAttr>("axis").getInt() == type.getRank() - 1;
}

class Planner {
public:
  Planner(int64_t maxWidth, function_ref<bool(Operation *)> isElementwise,
          function_ref<bool(Operation *)> canReduce,
          function_ref<bool(Operation *)> isExcluded)
      : maxWidth(maxWidth), isElementwise(isElementwise), canReduce(canReduce),
        isExcluded(isExcluded) {}

  std::vector<RowGroup> plan(Block &block) {
    for (Operation &op : block) {
      if (isNoKernel(&op))
        continue;
      if (current && joins(&op)) {
        current->ops.push_back(&op);
        inCurrent.insert(&op);
        continue;
      }
      close();
      start(&op);
    }
    close();
    return std::move(groups);
  }

private:
  /// The rows and width `op` would start a group over.
  std::optional<std::pair<int64_t, int64_t>> rowSpace(Operation *op) {
    if (isExcluded(op) || op->getNumResults() != 1)
      return std::nullopt;
    Value full;
    if (isLastAxisReduction(op) && canReduce(op))
      full = op->getOperand(0);
    else if (isElementwise(op))
      full = op->getResult(0);
    else
      return std::nullopt;
    ArrayRef<int64_t> shape = cast<RankedTensorType>(full.getType()).getShape();
    if (shape.empty() || shape.back() <= 1 || shape.back() > maxWidth)
      return std::nullopt;
    int64_t rows = 1;
    for (int64_t dim : shape.drop_back())
      rows *= dim;
    return std::make_pair(rows, shape.back());
  }

  RowValueKind kindOf(Value value) {
    return getRowValueKind(value, current->rows, current->width);
  }

  bool producedInGroup(Value value) {
    Operation *def = value.getDefiningOp();
    return def && inCurrent.contains(def);
  }

  bool joins(Operation *op) {
    if (isExcluded(op) || op->getNumResults() != 1)
      return false;
    Value result = op->getResult(0);
    // A reshape between row shapes of a value computed here aliases it.
    if (isa<tosa::ReshapeOp>(op))
      return producedInGroup(op->getOperand(0)) &&
             kindOf(op->getOperand(0)) != RowValueKind::Other &&
             kindOf(result) == kindOf(op->getOperand(0));
    if (isLastAxisReduction(op))
      return canReduce(op) && kindOf(op->getOperand(0)) == RowValueKind::Full &&
             kindOf(result) == RowValueKind::PerRow;
    if (!isElementwise(op) || kindOf(result) == RowValueKind::Other)
      return false;
    // Values computed here are registers of the row: an op reads them only
    // as whole rows or per-row values, which its result's kind decides.
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      return !producedInGroup(operand) ||
             kindOf(operand) == RowValueKind::PerRow ||
             kindOf(result) == RowValueKind::Full;
    });
  }

  void start(Operation *op) {
    auto space = rowSpace(op);
    if (!space)
      return;
    current = RowGroup{{op}, space->first, space->second};
    inCurrent.insert(op);
  }

  void close() {
    if (!current)
      return;
    // A trailing reshape needs no kernel: it aliases what the group wrote.
    while (isa<tosa::ReshapeOp>(current->ops.back()))
      current->ops.pop_back();
    if (llvm::any_of(current->ops, isLastAxisReduction))
      groups.push_back(std::move(*current));
    current.reset();
    inCurrent.clear();
  }

  int64_t maxWidth;
  function_ref<bool(Operation *)> isElementwise, canReduce, isExcluded;
  std::optional<RowGroup> current;
  /// The ops of `current`, to look them up in constant time: a long run of
  /// elementwise ops would make a search of `current->ops` quadratic.
  llvm::SmallPtrSet<Operation *, 16> inCurrent;
  std::vector<RowGroup> groups;
};

} // namespace

SmallVector<Value> getRowGroupOutputs(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 16> inGroup(ops.begin(), ops.end());
  std::function<bool(Value)> isReadAfter = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return !inGroup.contains(user) ||
             (isa<tosa::ReshapeOp>(user) && isReadAfter(user->getResult(0)));
    });
  };
  SmallVector<Value> outputs;
  for (Operation *op : ops)
    if (!isa<tosa::ReshapeOp>(op) && isReadAfter(op->getResult(0)))
      outputs.push_back(op->getResult(0));
  return outputs;
}

bool isRowVector(Value value, int64_t width) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getRank() > 0 &&
         type.getShape().back() == width &&
         llvm::all_of(type.getShape().drop_back(),
                      [](int64_t dim) { return dim == 1; });
}

llvm::SetVector<Value> getRowRunValues(const RowGroup &group) {
  llvm::SmallPtrSet<Operation *, 16> inGroup(group.ops.begin(),
                                             group.ops.end());
  auto isRun = [&](Value value) {
    return getRowValueKind(value, group.rows, group.width) ==
               RowValueKind::Full ||
           isRowVector(value, group.width);
  };
  llvm::SetVector<Value> runs;
  for (Operation *op : group.ops) {
    if (isa<tosa::ReshapeOp>(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && inGroup.contains(def))
        continue;
      // Float splats are literals in elementwise ops; a reduction loads
      // what it reduces.
      if (isRun(operand) &&
          (isLastAxisReduction(op) || !getFloatSplat(operand)))
        runs.insert(operand);
    }
  }
  for (Value output : getRowGroupOutputs(group.ops))
    if (isRun(output))
      runs.insert(output);
  return runs;
}

int64_t getRowRunElementBytes(ArrayRef<Value> runValues) {
  int64_t widest = 0;
  for (Value value : runValues) {
    std::optional<DeviceType> element =
        getDeviceType(getElementTypeOrSelf(value.getType()));
    if (!element)
      return 0;
    widest = std::max(widest, element->bytes);
  }
  return widest;
}

RowGroup getRowGroup(ArrayRef<Operation *> ops) {
  RowGroup group{SmallVector<Operation *>(ops), 0, 0};
  for (Operation *op : ops) {
    if (!isLastAxisReduction(op))
      continue;
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
    group.width = shape.back();
    group.rows = 1;
    for (int64_t dim : shape.drop_back())
      group.rows *= dim;
    break;
  }
  return group;
}

std::vector<RowGroup>
planRowGroups(Block &block, int64_t maxWidth,
              function_ref<bool(Operation *)> isElementwise,
              function_ref<bool(Operation *)> canReduce,
              function_ref<bool(Operation *)> isExcluded) {
  return Planner(maxWidth, isElementwise, canReduce, isExcluded).plan(block);
}

int64_t getRowBlockThreads(int64_t width) {
  return width >= 2048 ? 256 : width >= 512 ? 128 : width >= 128 ? 64 : 32;
}

int64_t getRowRunThreads(int64_t runs, int64_t lanes) {
  int64_t threads = getRowBlockThreads(runs);
  while (threads < 256 && (runs + threads - 1) / threads * lanes > 32)
    threads *= 2;
  return threads;
}

} // namespace prec
