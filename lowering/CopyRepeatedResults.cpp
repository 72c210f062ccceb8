//===- CopyRepeatedResults.cpp - one tensor per function result ----------===//

#include "lowering/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace prec {
#define GEN_PASS_DEF_PRECCOPYREPEATEDRESULTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

class CopyRepeatedResultsPass
    : public prec::impl::PrecCopyRepeatedResultsBase<CopyRepeatedResultsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation().walk([&](func::ReturnOp ret) {
      llvm::SmallDenseSet<Value> returned;
      builder.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || returned.insert(value).second)
          continue;
        SmallVector<OpFoldResult> sizes =
            tensor::getMixedSizes(builder, ret.getLoc(), value);
        Value empty = tensor::EmptyOp::create(builder, ret.getLoc(), sizes,
                                              type.getElementType());
        operand.set(linalg::CopyOp::create(builder, ret.getLoc(), value, empty)
                        .getResult(0));
      }
    });
  }
};

} // namespace
