//===- BindingLayout.cpp - NCHW or NHWC bindings --------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

namespace prec {
#define GEN_PASS_DEF_PRECBINDINGLAYOUT
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

constexpr int32_t kNhwcToNchw[] = {0, 3, 1, 2};
constexpr int32_t kNchwToNhwc[] = {0, 2, 3, 1};

RankedTensorType permuted(RankedTensorType type, ArrayRef<int32_t> perms) {
  SmallVector<int64_t> shape;
  for (int32_t axis : perms)
    shape.push_back(type.getDimSize(axis));
  return type.clone(shape);
}

bool isPermutation(Value value, ArrayRef<int32_t> perms) {
  auto transpose = value.getDefiningOp<tosa::TransposeOp>();
  return transpose && transpose.getPerms() == perms;
}

Value createTranspose(OpBuilder &builder, Location loc, Value input,
                      ArrayRef<int32_t> perms) {
  auto type = cast<RankedTensorType>(input.getType());
  return tosa::TransposeOp::create(builder, loc, permuted(type, perms), input,
                                   builder.getDenseI32ArrayAttr(perms));
}

class BindingLayoutPass
    : public prec::impl::PrecBindingLayoutBase<BindingLayoutPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (layout == prec::BindingLayout::NCHW)
      return;
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal())
        toNhwc(function);
  }

private:
  static bool is4d(Type type) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    return tensorType && tensorType.getRank() == 4;
  }

  void toNhwc(func::FuncOp function) {
    OpBuilder builder(function.getContext());
    Block &entry = function.getBody().front();
    builder.setInsertionPointToStart(&entry);
    for (BlockArgument argument : function.getArguments()) {
      if (!is4d(argument.getType()))
        continue;
      auto nchw = cast<RankedTensorType>(argument.getType());
      argument.setType(permuted(nchw, kNchwToNhwc));
      Value restored =
          createTranspose(builder, argument.getLoc(), argument, kNhwcToNchw);
      argument.replaceAllUsesExcept(restored, restored.getDefiningOp());
      // The body's own NCHW -> NHWC transposes of it cancel out.
      for (Operation *user : llvm::make_early_inc_range(restored.getUsers()))
        if (isPermutation(user->getResult(0), kNchwToNhwc)) {
          user->getResult(0).replaceAllUsesWith(argument);
          user->erase();
        }
      if (restored.use_empty())
        restored.getDefiningOp()->erase();
    }
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    builder.setInsertionPoint(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      if (!is4d(value.getType()))
        continue;
      // An NHWC -> NCHW transpose feeding the return cancels out.
      if (isPermutation(value, kNhwcToNchw)) {
        Operation *transpose = value.getDefiningOp();
        operand.set(transpose->getOperand(0));
        if (transpose->use_empty())
          transpose->erase();
        continue;
      }
      operand.set(createTranspose(builder, ret.getLoc(), value, kNchwToNhwc));
    }
    function.setFunctionType(FunctionType::get(function.getContext(),
                                               entry.getArgumentTypes(),
                                               ret->getOperandTypes()));
  }
};

} // namespace
