//===- BatchAnalysis.h - tensors that scale with the batch -----*- C++ -*-===//
//
// An engine with a dynamic batch (TRTorch's Input(min_shape, opt_shape,
// max_shape)) is generated from the module at its largest batch and run at
// any batch in [min, max]. That works when the batch is the outermost
// dimension of every tensor it reaches: each sample is then one contiguous
// slice, kernels cover fewer elements, and GEMMs fewer rows or batches.
// The analysis finds, for every value the batched inputs reach, its batch
// dimension (the first dimension that is not 1, whose size is a multiple of
// the largest batch), and rejects ops that would mix samples (a
// reduction, concat or slice along it, a transpose moving it).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_BATCHANALYSIS_H
#define PREC_LOWERING_BATCHANALYSIS_H

#include "lowering/BatchRange.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace prec {

class BatchAnalysis {
public:
  /// Analyses `function` with the arguments `batchedInputs` batched (their
  /// dimension 0 must be `maxBatch`); `isElementwise` says which ops compute
  /// each element from the same (broadcast) element of their operands. Ops
  /// that cannot run at a smaller batch are reported as errors at their
  /// location.
  static mlir::FailureOr<BatchAnalysis>
  run(mlir::func::FuncOp function, llvm::ArrayRef<unsigned> batchedInputs,
      int64_t maxBatch,
      llvm::function_ref<bool(mlir::Operation *)> isElementwise);

  /// The batch dimension of `value`, if it scales with the batch.
  std::optional<int64_t> getBatchDim(mlir::Value value) const;
  bool isBatched(mlir::Value value) const {
    return getBatchDim(value).has_value();
  }

private:
  llvm::DenseMap<mlir::Value, int64_t> batchDims;
};

} // namespace prec

#endif // PREC_LOWERING_BATCHANALYSIS_H
