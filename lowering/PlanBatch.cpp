//===- PlanBatch.cpp - which tensors of an engine follow its batch --------===//
//
// An engine with a dynamic batch is generated at its largest batch and run
// at any batch in [MIN, MAX]: kernels cover fewer elements and GEMMs fewer
// rows or batches. This pass picks the inputs that carry the batch, runs
// BatchAnalysis from them, and records what scales with the batch.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Utils/OpNames.h"
#include "lowering/BatchAnalysis.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/PlannableFunction.h"

namespace prec {

#define GEN_PASS_DEF_PRECPLANBATCH
#include "lowering/Passes.h.inc"

namespace {

class PlanBatchPass : public PlanPass<PlanBatchPass, impl::PrecPlanBatchBase> {
public:
  using PlanPass::PlanPass;

  mlir::LogicalResult plan(mlir::func::FuncOp function) {
    auto &dialect = engine::EngineDialect::get(&getContext());
    clearPlan(function, dialect);
    if (batch.getValue())
      return planBatch(function, dialect);
    if (!batchInputs.empty())
      return mlir::emitError(function.getLoc())
             << "--batch-inputs needs --batch";
    return mlir::success();
  }

private:
  static void clearPlan(mlir::func::FuncOp function,
                        engine::EngineDialect &dialect) {
    function->removeAttr(dialect.getBatchedInputsAttrHelper().getName());
    function.walk([&](mlir::Operation *op) {
      op->removeAttr(dialect.getBatchDimAttrHelper().getName());
    });
  }

  /// The inputs named by batch-inputs, or else those whose dimension 0 is
  /// the largest batch.
  mlir::FailureOr<llvm::SmallVector<unsigned>>
  getBatchedInputs(mlir::func::FuncOp function) {
    for (const std::string &name : batchInputs)
      if (llvm::none_of(function.getArguments(),
                        [&](mlir::BlockArgument argument) {
                          return getBindingName(argument) == name;
                        }))
        return mlir::emitError(function.getLoc())
               << "--batch-inputs names '" << name
               << "', which is not an input";
    llvm::SmallVector<unsigned> batched;
    for (mlir::BlockArgument argument : function.getArguments()) {
      auto type = llvm::cast<mlir::RankedTensorType>(argument.getType());
      bool isBatched =
          batchInputs.empty()
              ? type.getRank() > 0 && type.getDimSize(0) == largestBatch()
              : llvm::is_contained(batchInputs, getBindingName(argument));
      if (isBatched)
        batched.push_back(argument.getArgNumber());
    }
    if (batched.empty())
      return mlir::emitError(function.getLoc())
             << "dynamic batch: no input has the largest batch, "
             << largestBatch() << ", as its dimension 0";
    return batched;
  }

  mlir::LogicalResult planBatch(mlir::func::FuncOp function,
                                engine::EngineDialect &dialect) {
    mlir::FailureOr<llvm::SmallVector<unsigned>> inputs =
        getBatchedInputs(function);
    if (failed(inputs))
      return mlir::failure();
    mlir::FailureOr<BatchAnalysis> analysis =
        BatchAnalysis::run(function, *inputs, largestBatch(), isElementwise);
    if (failed(analysis))
      return mlir::failure();
    mlir::Builder builder(&getContext());
    llvm::SmallVector<int64_t> indices(inputs->begin(), inputs->end());
    dialect.getBatchedInputsAttrHelper().setAttr(
        function, builder.getDenseI64ArrayAttr(indices));
    for (mlir::Operation &op : function.getBody().front())
      if (op.getNumResults() == 1)
        if (std::optional<int64_t> dim =
                analysis->getBatchDim(op.getResult(0)))
          dialect.getBatchDimAttrHelper().setAttr(
              &op, builder.getI64IntegerAttr(*dim));
    return mlir::success();
  }

  int64_t largestBatch() { return batch.getValue()->max; }
};

} // namespace

} // namespace prec
