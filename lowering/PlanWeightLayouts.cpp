//===- PlanWeightLayouts.cpp - how an engine stores its constant weights --===//
//
// cuBLASLt's i8 and f8 GEMMs read B transposed (the TN layout), and 8-bit
// GEMMs need K a multiple of 16. Constant weights are laid out for them once,
// in the weights file, instead of by a kernel on every run: this pass records
// which constants are stored transposed or with padded rows.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/ContractionEpilogues.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/PlannableFunction.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANWEIGHTLAYOUTS
#include "lowering/Passes.h.inc"

namespace {

class PlanWeightLayoutsPass
    : public PlanPass<PlanWeightLayoutsPass, impl::PrecPlanWeightLayoutsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    auto &dialect = engine::EngineDialect::get(&getContext());
    // The engine stores weights as this pass says and as nothing else does:
    // marks from an earlier plan go.
    function.walk([&](tosa::ConstOp constant) {
      constant->removeAttr(dialect.getStoredTransposedAttrHelper().getName());
      constant->removeAttr(dialect.getPaddedDepthAttrHelper().getName());
    });
    WalkResult result = function.walk([&](Operation *op) {
      if (auto conv = dyn_cast<tosa::Conv2DOp>(op))
        padConvolutionWeights(conv, dialect);
      auto matmul = dyn_cast<tosa::MatMulOp>(op);
      if (matmul && failed(transposeGemmWeights(matmul, dialect)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

private:
  /// An 8-bit convolution's constant weights, read by it alone, get rows of
  /// its GEMM's (padded) depth.
  static void padConvolutionWeights(tosa::Conv2DOp conv,
                                    engine::EngineDialect &dialect) {
    auto weights = conv.getWeight().getDefiningOp<tosa::ConstOp>();
    if (!weights || !conv.getWeight().hasOneUse())
      return;
    auto type = cast<RankedTensorType>(weights.getType());
    int64_t depth = getConvGemmDepth(conv);
    if (type.getNumElements() == 0 ||
        depth == type.getNumElements() / type.getDimSize(0))
      return;
    dialect.getPaddedDepthAttrHelper().setAttr(
        weights,
        IntegerAttr::get(IntegerType::get(conv.getContext(), 64), depth));
  }

  /// An 8-bit GEMM's constant B is stored transposed; every op that reads
  /// it must then be such a GEMM.
  static LogicalResult transposeGemmWeights(tosa::MatMulOp matmul,
                                            engine::EngineDialect &dialect) {
    auto weights = matmul.getB().getDefiningOp<tosa::ConstOp>();
    if (!weights || !needsTransposedB(matmul) ||
        cast<RankedTensorType>(weights.getType()).getNumElements() == 0)
      return success();
    for (Operation *user : weights->getUsers())
      if (auto reader = dyn_cast<tosa::MatMulOp>(user);
          !reader || reader.getB() != weights.getResult() ||
          !needsTransposedB(reader))
        return user->emitError()
               << "this op reads a weight that an i8 or f8 GEMM reads "
                  "transposed, and the engine stores it once";
    dialect.getStoredTransposedAttrHelper().setAttr(
        weights, UnitAttr::get(matmul.getContext()));
    return success();
  }
};

} // namespace

} // namespace prec
