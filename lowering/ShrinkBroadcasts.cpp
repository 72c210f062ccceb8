//===- ShrinkBroadcasts.cpp - elementwise ops at the shape they vary over -===//
//
// Exporters build attention masks by broadcasting a [B, 1, 1, S] padding mask
// against a splat `true` of shape [1, 1, S, 1]: the mask varies over the batch
// and the keys only, yet it is computed and stored at [B, 1, S, S], and every
// attention reads all of it. A splat varies along no axis, so an elementwise op
// computed at the shape its other operands span gives the same values; its
// broadcasting readers broadcast the smaller result for free.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Utils/Shapes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace prec {
#define GEN_PASS_DEF_PRECSHRINKBROADCASTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;
using prec::shapeOf;

namespace {

/// Ops whose every result element depends only on the operands' elements at
/// its own (broadcast) index, with a static shape. TOSA's traits say this,
/// not the elementwise expression models: the result's shape may only change
/// where the op broadcasts its operands (arith ops on tensors do not).
bool isBroadcastingElementwise(Operation *op) {
  bool broadcasting = op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() &&
                      op->hasTrait<OpTrait::ResultsBroadcastableShape>();
  if (op->getNumResults() != 1 || !(broadcasting || isa<tosa::CastOp>(op)))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape();
}

/// The operands that broadcast against the result: those of its rank (not
/// tosa.mul's shift, for one).
SmallVector<OpOperand *> broadcastOperands(Operation *op) {
  SmallVector<OpOperand *> operands;
  int64_t rank = shapeOf(op->getResult(0)).size();
  for (OpOperand &operand : op->getOpOperands())
    if (auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        type && type.getRank() == rank)
      operands.push_back(&operand);
  return operands;
}

/// The splat tosa.const `value` is, if it is one.
tosa::ConstOp getSplatConstant(Value value) {
  auto constant = value.getDefiningOp<tosa::ConstOp>();
  auto elements =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValues()) : nullptr;
  return elements && elements.isSplat() ? constant : nullptr;
}

class ShrinkBroadcasts {
public:
  explicit ShrinkBroadcasts(Block &block) {
    for (Operation &op : block)
      if (isBroadcastingElementwise(&op))
        candidates.push_back(&op);
  }

  void run() {
    // Ops read by an op that is not elementwise keep their shape.
    for (Operation *op : candidates)
      if (llvm::any_of(op->getUsers(), [&](Operation *user) {
            return !isBroadcastingElementwise(user) ||
                   user->getBlock() != op->getBlock();
          }))
        kept.insert(op);
    while (keepUnspanningOperands())
      ;
    for (Operation *op : candidates)
      if (!kept.contains(op))
        shrink(op);
  }

private:
  /// The shape `value` has once the ops before it have shrunk: a splat that
  /// a shrinking op reads spans nothing.
  SmallVector<int64_t> finalShape(Value value, bool readerShrinks) {
    if (readerShrinks && getSplatConstant(value))
      return SmallVector<int64_t>(shapeOf(value).size(), 1);
    Operation *def = value.getDefiningOp();
    if (def && shapes.count(def))
      return shapes.lookup(def);
    return llvm::to_vector(shapeOf(value));
  }

  /// The shape `op` spans over its operands' final shapes.
  SmallVector<int64_t> spannedShape(Operation *op, bool shrinks) {
    SmallVector<int64_t> shape(shapeOf(op->getResult(0)).size(), 1);
    for (OpOperand *operand : broadcastOperands(op))
      for (auto [size, operandSize] :
           llvm::zip_equal(shape, finalShape(operand->get(), shrinks)))
        size = std::max(size, operandSize);
    return shape;
  }

  /// Computes each op's final shape in order. Where a kept op's operands
  /// would no longer span its shape, the shrinking ones among them keep
  /// theirs: says whether any did, and so whether to look again.
  bool keepUnspanningOperands() {
    shapes.clear();
    bool changed = false;
    for (Operation *op : candidates) {
      ArrayRef<int64_t> shape = shapeOf(op->getResult(0));
      if (!kept.contains(op)) {
        shapes[op] = spannedShape(op, true);
        continue;
      }
      shapes[op] = llvm::to_vector(shape);
      if (spannedShape(op, false) == shape)
        continue;
      for (OpOperand *operand : broadcastOperands(op))
        if (Operation *def = operand->get().getDefiningOp();
            def && shapes.count(def) && kept.insert(def).second)
          changed = true;
    }
    return changed;
  }

  /// Gives `op` its spanned shape, reading splats of one element.
  void shrink(Operation *op) {
    SmallVector<int64_t> shape = spannedShape(op, true);
    if (shape == ArrayRef(shapeOf(op->getResult(0))))
      return;
    OpBuilder builder(op);
    for (OpOperand *operand : broadcastOperands(op)) {
      tosa::ConstOp constant = getSplatConstant(operand->get());
      auto type = constant ? cast<RankedTensorType>(constant.getType())
                           : RankedTensorType();
      if (!type || type.getNumElements() == 1)
        continue;
      auto one = cast<tosa::ConstOp>(builder.clone(*constant));
      auto oneType = type.clone(SmallVector<int64_t>(type.getRank(), 1));
      one.setValuesAttr(
          cast<DenseElementsAttr>(constant.getValues()).resizeSplat(oneType));
      one.getResult().setType(oneType);
      operand->set(one.getResult());
      if (constant->use_empty())
        constant->erase();
    }
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    op->getResult(0).setType(type.clone(shape));
    shapes[op] = shape;
  }

  SmallVector<Operation *> candidates;
  llvm::SmallPtrSet<Operation *, 16> kept;
  llvm::DenseMap<Operation *, SmallVector<int64_t>> shapes;
};

class ShrinkBroadcastsPass
    : public prec::impl::PrecShrinkBroadcastsBase<ShrinkBroadcastsPass> {
public:
  void runOnOperation() override {
    getOperation().walk([](Block *block) { ShrinkBroadcasts(*block).run(); });
  }
};

} // namespace
