//===- TileContractions.cpp - cache and register tiling of matmuls --------===//

#include "lowering/Passes.h"

#include "lowering/BlasContractions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace prec {
#define GEN_PASS_DEF_PRECTILECONTRACTIONS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// Tiles `op` by `sizes` (0: untiled) and returns the tiled op.
FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

/// The largest multiple of `step` that divides `extent` and is at most
/// `limit` (at least `step`, which must divide `extent`): tiles that divide
/// the dimensions exactly keep every tile static, so no masks are needed.
int64_t chooseTileSize(int64_t extent, int64_t limit, int64_t step) {
  int64_t best = step;
  for (int64_t size = step; size <= std::min(limit, extent); size += step)
    if (extent % size == 0)
      best = size;
  return best;
}

class TileContractionsPass
    : public prec::impl::PrecTileContractionsBase<TileContractionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          !prec::getBlasFunction(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      // Iteration space (batch,) m, n, k.
      bool batched = isa<linalg::BatchMatmulOp>(op);
      SmallVector<int64_t> bounds = op.getStaticLoopRanges();
      int64_t m = bounds[batched + 0], n = bounds[batched + 1],
              k = bounds[batched + 2];
      int64_t rows = chooseTileSize(m, registerRows, 1);
      int64_t columns = chooseTileSize(n, registerColumns, 1);
      auto withBatch = [&](SmallVector<int64_t> sizes) {
        if (batched)
          sizes.insert(sizes.begin(), 1);
        return sizes;
      };
      FailureOr<Operation *> block =
          tile(rewriter, op,
               withBatch({chooseTileSize(m, cacheRows, rows),
                          chooseTileSize(n, cacheColumns, columns),
                          chooseTileSize(k, cacheDepth, 1)}));
      if (failed(block))
        return signalPassFailure();
      FailureOr<Operation *> micro =
          tile(rewriter, *block, withBatch({rows, columns, 1}));
      if (failed(micro))
        return signalPassFailure();
      rewriter.setInsertionPoint(*micro);
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, *micro, /*inputVectorSizes=*/{},
          /*inputScalableVecDims=*/{}, /*vectorizeNDExtract=*/false,
          /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (failed(vectorized))
        return signalPassFailure();
      rewriter.replaceOp(*micro, vectorized->replacements);
    }
    getOperation().walk(
        [&](vector::ContractionOp contract) { widenOperands(contract); });
  }

private:
  /// Extends the operands of a mixed-precision contraction (f16 x f16 into
  /// f32) to the accumulator's type, which the vector lowering needs. The
  /// products are exact in the wider type, so nothing changes numerically.
  void widenOperands(vector::ContractionOp contract) {
    Type accType = getElementTypeOrSelf(contract.getAccType());
    OpBuilder builder(contract);
    for (OpOperand *operand :
         {&contract.getLhsMutable(), &contract.getRhsMutable()}) {
      auto vectorType = cast<VectorType>(operand->get().getType());
      if (vectorType.getElementType() == accType)
        continue;
      VectorType wide = vectorType.clone(accType);
      Value widened = isa<FloatType>(accType)
                          ? arith::ExtFOp::create(builder, contract.getLoc(),
                                                  wide, operand->get())
                                .getResult()
                          : arith::ExtSIOp::create(builder, contract.getLoc(),
                                                   wide, operand->get())
                                .getResult();
      operand->set(widened);
    }
  }
};

} // namespace
