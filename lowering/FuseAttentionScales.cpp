//===- FuseAttentionScales.cpp - attention scales its query and keys ------===//
//
// Exporters split the softmax scale over Q and K: PyTorch's export of
// scaled_dot_product_attention multiplies each by Sq^-1/4, two elementwise
// kernels that read and write Q and K whole ahead of the attention. The
// tensor-core kernel stages Q and K in shared memory anyway, so it
// multiplies them there, each product rounded as the program rounded it.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Utils/Constants.h"
#include "lowering/BufferAliases.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECFUSEATTENTIONSCALES
#include "lowering/Passes.h.inc"

namespace {

/// A multiply of an attention's operand by a constant: `scaled` times a
/// splat `factor` in `scaled`'s type, the attention its only reader,
/// through views each the only reader of the one before.
struct OperandScale {
  tosa::MulOp mul;
  Value scaled, constant;
  APFloat factor;
};

std::optional<OperandScale> findScale(Value operand) {
  Value value = operand;
  for (Operation *view = value.getDefiningOp(); view && isBufferAlias(view);
       view = value.getDefiningOp()) {
    if (!value.hasOneUse())
      return std::nullopt;
    value = view->getOperand(0);
  }
  auto mul = value.getDefiningOp<tosa::MulOp>();
  if (!mul || !value.hasOneUse())
    return std::nullopt;
  for (auto [scaled, factor] : {std::pair(mul.getInput1(), mul.getInput2()),
                                std::pair(mul.getInput2(), mul.getInput1())}) {
    std::optional<APFloat> splat = getFloatSplat(factor);
    if (splat && scaled.getType() == mul.getType() &&
        getElementTypeOrSelf(factor.getType()) ==
            getElementTypeOrSelf(mul.getType()))
      return OperandScale{mul, scaled, factor, *splat};
  }
  return std::nullopt;
}

/// The attention reads `scale`'s input and multiplies it by the factor set
/// with `setFactor`; the multiply goes, and its constant where nothing else
/// reads it.
void fuse(OperandScale &scale, llvm::function_ref<void(FloatAttr)> setFactor) {
  Builder builder(scale.mul.getContext());
  setFactor(builder.getF64FloatAttr(scale.factor.convertToDouble()));
  scale.mul.getResult().replaceAllUsesWith(scale.scaled);
  scale.mul.erase();
  if (Operation *constant = scale.constant.getDefiningOp();
      constant && constant->use_empty())
    constant->erase();
}

class FuseAttentionScalesPass
    : public PlanPass<FuseAttentionScalesPass,
                      impl::PrecFuseAttentionScalesBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    // Collected first: fusing erases ops ahead of each attention.
    SmallVector<engine::AttentionOp> attentions;
    function.walk([&](engine::AttentionOp op) {
      if (op.getKernel() == engine::AttentionKernel::TensorCores &&
          !op.getQuantizationAttr())
        attentions.push_back(op);
    });
    for (engine::AttentionOp op : attentions) {
      if (std::optional<OperandScale> scale = findScale(op.getQuery());
          scale && !op.getQueryFactor())
        fuse(*scale, [&](FloatAttr f) { op.setQueryFactorAttr(f); });
      if (std::optional<OperandScale> scale = findScale(op.getKeys());
          scale && !op.getKeysFactor())
        fuse(*scale, [&](FloatAttr f) { op.setKeysFactorAttr(f); });
    }
    return success();
  }
};

} // namespace

} // namespace prec
