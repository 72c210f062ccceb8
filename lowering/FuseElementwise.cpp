//===- FuseElementwise.cpp - elementwise fusion in bounded bodies ---------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace prec {
#define GEN_PASS_DEF_PRECFUSEELEMENTWISE
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// The operations of a linalg op's body, counting at most `limit + 1`.
unsigned countBodyOps(Operation *op, unsigned limit) {
  unsigned count = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (auto it = block.begin(); it != block.end() && count <= limit; ++it)
        ++count;
  return count;
}

class FuseElementwisePass
    : public prec::impl::PrecFuseElementwiseBase<FuseElementwisePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    unsigned limit = maxBodyOps;
    // Upstream's rule (the producer has no other user), and the bound.
    linalg::ControlFusionFn control = [limit](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !producer->hasOneUse())
        return false;
      // A reduction reads its operands as they are laid out: folding their
      // producers in would change its order of summation with the graph
      // around it.
      auto reduces = [](Operation *op) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        return linalgOp && linalgOp.getNumReductionLoops() > 0;
      };
      if (reduces(fused->getOwner()) || reduces(producer))
        return false;
      return countBodyOps(producer, limit) +
                 countBodyOps(fused->getOwner(), limit) <=
             limit;
    };
    // The patterns of upstream's linalg-fuse-elementwise-ops.
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    // Top-down, as upstream, for compile time; not converging within the
    // driver's iteration limit leaves correct, less fused code.
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setUseTopDownTraversal(true));
  }
};

} // namespace
