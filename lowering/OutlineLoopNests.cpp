//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace prec {
#define GEN_PASS_DEF_PRECOUTLINELOOPNESTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// Whether `value` is recomputed inside the outlined function rather than
/// passed: a constant or a global's buffer, so that LLVM still sees it.
bool isClonedIn(Value value) {
  Operation *op = value.getDefiningOp();
  return op && (matchPattern(op, m_Constant()) || isa<memref::GetGlobalOp>(op));
}

/// Replaces `nest` by a call to a new private function that runs it,
/// placed after `after`; returns that function.
func::FuncOp outline(Operation *nest, func::FuncOp parent, Operation *after,
                     SymbolTable &symbols, int index) {
  llvm::SetVector<Value> used(nest->operand_begin(), nest->operand_end());
  getUsedValuesDefinedAbove(nest->getRegions(), used);
  SmallVector<Value> arguments;
  for (Value value : used)
    if (!isClonedIn(value))
      arguments.push_back(value);

  OpBuilder builder(parent.getContext());
  builder.setInsertionPointAfter(after);
  Location loc = nest->getLoc();
  auto function = func::FuncOp::create(
      builder, loc, (parent.getName() + "_nest" + llvm::Twine(index)).str(),
      builder.getFunctionType(ValueRange(arguments).getTypes(), {}));
  function.setPrivate();
  // Kept apart in LLVM too: the inliner would rebuild the one function.
  function->setAttr("passthrough",
                    builder.getArrayAttr(builder.getStringAttr("noinline")));
  symbols.insert(function);

  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(arguments, body->getArguments());
  for (Value value : used)
    if (isClonedIn(value))
      mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
  builder.clone(*nest, mapping);
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPoint(nest);
  func::CallOp::create(builder, loc, function, arguments);
  nest->erase();
  return function;
}

class OutlineLoopNestsPass
    : public prec::impl::PrecOutlineLoopNestsBase<OutlineLoopNestsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<func::FuncOp> functions(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      SmallVector<Operation *> nests;
      for (Block &block : function.getBody())
        for (Operation &op : block)
          if (op.getNumRegions() && !op.getNumResults())
            nests.push_back(&op);
      // In program order after their function.
      Operation *after = function;
      for (auto [index, nest] : llvm::enumerate(nests))
        after = outline(nest, function, after, symbols, index);
    }
  }
};

} // namespace
