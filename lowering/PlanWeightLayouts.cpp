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

#include "mlir/IR/Builders.h"

#include <map>

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANWEIGHTLAYOUTS
#include "lowering/Passes.h.inc"

namespace {

/// How a reader needs a constant stored: as it is, transposed (an 8-bit
/// GEMM's B) or in rows of a padded depth (an 8-bit convolution's weights
/// whose depth is not a multiple of 16).
enum class Storage { AsIs, Transposed, PaddedRows };

/// A reader's storage, with the padded depth of PaddedRows (else 0).
using StoredLayout = std::pair<Storage, int64_t>;

StoredLayout getStoredLayout(OpOperand &use) {
  Operation *reader = use.getOwner();
  auto type = cast<RankedTensorType>(use.get().getType());
  if (type.getNumElements() == 0)
    return {Storage::AsIs, 0};
  if (auto matmul = dyn_cast<tosa::MatMulOp>(reader))
    if (use.get() == matmul.getB() && needsTransposedB(matmul))
      return {Storage::Transposed, 0};
  if (auto conv = dyn_cast<tosa::Conv2DOp>(reader)) {
    int64_t depth = getConvGemmDepth(conv);
    if (use.get() == conv.getWeight() &&
        depth != type.getNumElements() / type.getDimSize(0))
      return {Storage::PaddedRows, depth};
  }
  return {Storage::AsIs, 0};
}

/// The engine stores a constant once, in one layout. One whose readers
/// need different layouts (the lowering merges equal weights) is copied, a copy
/// for each layout but the one of its plain readers (or of the first layout).
void copyWeightsPerLayout(func::FuncOp function) {
  SmallVector<tosa::ConstOp> shared;
  function.walk([&](tosa::ConstOp constant) {
    if (!constant->hasOneUse() && !constant->use_empty())
      shared.push_back(constant);
  });
  for (tosa::ConstOp constant : shared) {
    std::map<StoredLayout, SmallVector<OpOperand *>> readers;
    for (OpOperand &use : constant->getUses())
      readers[getStoredLayout(use)].push_back(&use);
    if (readers.size() < 2)
      continue;
    OpBuilder builder(constant);
    for (auto &[layout, uses] : llvm::drop_begin(readers)) {
      Value copy = builder.clone(*constant)->getResult(0);
      for (OpOperand *use : uses)
        use->set(copy);
    }
  }
}

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
    copyWeightsPerLayout(function);
    // Every reader of a constant now needs the layout of the first.
    function.walk([&](tosa::ConstOp constant) {
      if (constant->use_empty())
        return;
      auto [storage, depth] = getStoredLayout(*constant->getUses().begin());
      if (storage == Storage::Transposed)
        dialect.getStoredTransposedAttrHelper().setAttr(
            constant, UnitAttr::get(&getContext()));
      if (storage == Storage::PaddedRows)
        dialect.getPaddedDepthAttrHelper().setAttr(
            constant,
            IntegerAttr::get(IntegerType::get(&getContext(), 64), depth));
    });
    return success();
  }
};

} // namespace

} // namespace prec
