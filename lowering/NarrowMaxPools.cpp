//===- NarrowMaxPools.cpp - monotone narrowing before a max pool ----------===//
//
// A max pool's result is often quantized for the convolutions that read it
// (ResNet's stem: ReLU in f16, a 3x3 max pool, then f32, a scale, a clamp
// and a rounding to i8). Each of those is monotone non-decreasing, and the
// largest of some values, so mapped, is the mapping of the largest: the
// chain computed on the pool's input, then pooled, gives the same result.
// Moved before the pool, the chain joins the kernel that produces the
// pool's input (the stem convolution's epilogue then writes i8, a quarter
// of its f16 bytes) and the pool moves i8.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECNARROWMAXPOOLS
#include "lowering/Passes.h.inc"

namespace {

/// Whether `value` is a constant whose every element is at least zero and
/// which varies at most along the innermost dimension (per channel): it
/// broadcasts alike over the pool's input and result.
bool isNonNegativePerChannel(Value value) {
  DenseElementsAttr elements;
  if (!matchPattern(value, m_Constant(&elements)))
    return false;
  ArrayRef<int64_t> shape = shapeOf(value);
  if (shape.size() > 1 &&
      llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
    return false;
  if (auto floats = dyn_cast<DenseFPElementsAttr>(elements))
    return llvm::all_of(floats.getValues<APFloat>(), [](const APFloat &x) {
      return !x.isNegative() && !x.isNaN();
    });
  if (auto ints = dyn_cast<DenseIntElementsAttr>(elements))
    return llvm::all_of(ints.getValues<APInt>(),
                        [](const APInt &x) { return !x.isNegative(); });
  return false;
}

/// Whether `op`, reading `data`, maps each element of it by a monotone
/// non-decreasing function: a conversion to a number (rounding and
/// saturating; to a boolean it tests for zero), a clamp, or a product with a
/// non-negative per-channel constant without a shift.
bool isMonotoneOf(Operation *op, Value data) {
  if (isa<tosa::CastOp>(op))
    return !getElementTypeOrSelf(op->getResult(0).getType()).isInteger(1);
  if (isa<tosa::ClampOp>(op))
    return true;
  if (auto mul = dyn_cast<tosa::MulOp>(op)) {
    Value other = mul.getInput1() == data ? mul.getInput2() : mul.getInput1();
    return other != data && isNonNegativePerChannel(other) &&
           matchPattern(mul.getShift(), m_Zero());
  }
  return false;
}

/// The chain of monotone elementwise ops following `pool`, each the only
/// reader of the one before at its shape, as far as it narrows: the prefix
/// ending at its narrowest result, where that is narrower than the pool's.
SmallVector<Operation *> getNarrowingChain(tosa::MaxPool2dOp pool) {
  SmallVector<Operation *> chain;
  size_t narrowest = 0;
  unsigned bits = getElementTypeOrSelf(pool.getType()).getIntOrFloatBitWidth();
  Value value = pool.getResult();
  while (value.hasOneUse()) {
    Operation *op = *value.user_begin();
    if (!isElementwise(op) || op->getNumResults() != 1 ||
        shapeOf(op->getResult(0)) != shapeOf(value) || !isMonotoneOf(op, value))
      break;
    chain.push_back(op);
    value = op->getResult(0);
    unsigned width =
        getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
    if (width < bits) {
      bits = width;
      narrowest = chain.size();
    }
  }
  chain.resize(narrowest);
  return chain;
}

/// Computes `chain` on `pool`'s input and pools its result instead, both
/// where the chain ends.
void narrow(tosa::MaxPool2dOp pool, ArrayRef<Operation *> chain) {
  // Where the chain ends, which everything it reads dominates (its
  // constants may come after the pool).
  OpBuilder builder(chain.back());
  auto inputType = cast<RankedTensorType>(pool.getInput().getType());
  IRMapping early;
  early.map(pool.getResult(), pool.getInput());
  for (Operation *op : chain) {
    Operation *moved = builder.clone(*op, early);
    moved->getResult(0).setType(
        inputType.clone(getElementTypeOrSelf(op->getResult(0).getType())));
    early.map(op->getResult(0), moved->getResult(0));
  }
  // The pool keeps its layer, not its precision annotations (made for the
  // type it pooled).
  Operation *narrowPool = builder.clone(*pool);
  StringRef layerAttr = precision::PrecisionDialect::getLayerAttrName();
  Attribute layer = pool->getAttr(layerAttr);
  narrowPool->setDiscardableAttrs(ArrayRef<NamedAttribute>{});
  if (layer)
    narrowPool->setAttr(layerAttr, layer);
  narrowPool->setOperand(0, early.lookup(chain.back()->getResult(0)));
  narrowPool->getResult(0).setType(chain.back()->getResult(0).getType());
  chain.back()->getResult(0).replaceAllUsesWith(narrowPool->getResult(0));
  for (Operation *op : llvm::reverse(chain))
    op->erase();
  pool->erase();
}

class NarrowMaxPoolsPass
    : public PlanPass<NarrowMaxPoolsPass, impl::PrecNarrowMaxPoolsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    SmallVector<tosa::MaxPool2dOp> pools;
    function.walk([&](tosa::MaxPool2dOp pool) { pools.push_back(pool); });
    for (tosa::MaxPool2dOp pool : pools) {
      SmallVector<Operation *> chain = getNarrowingChain(pool);
      if (!chain.empty())
        narrow(pool, chain);
    }
    return success();
  }
};

} // namespace

} // namespace prec
