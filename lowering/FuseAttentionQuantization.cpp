//===- FuseAttentionQuantization.cpp - attention writes f8 activations ----===//
//
// An f8 Linear that reads an attention's output (LLaMA's o_proj) reads it
// quantized: the output widened to f32, multiplied by the activation's
// scale and cast to f8, one elementwise kernel that reads the whole output
// back from memory. The attention kernel computes each output anyway, so it
// scales and converts it as it stores it.
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

#define GEN_PASS_DEF_PRECFUSEATTENTIONQUANTIZATION
#include "lowering/Passes.h.inc"

namespace {

/// What follows an attention's result when an f8 op reads it quantized:
/// reshapes (or identities) nothing else reads, a widening to f32, a
/// multiply by a constant of one value and a cast to f8, each the previous
/// one's only reader.
struct ResultQuantization {
  SmallVector<Operation *> views;
  tosa::CastOp widening;
  tosa::MulOp scaling;
  tosa::CastOp narrowing;
  double scale;
};

/// `value`'s only reader, if it has exactly one.
Operation *getOnlyReader(Value value) {
  return value.hasOneUse() ? *value.user_begin() : nullptr;
}

std::optional<ResultQuantization> findQuantization(engine::AttentionOp op) {
  ResultQuantization found;
  Value value = op.getResult();
  Operation *reader = getOnlyReader(value);
  while (reader && isBufferAlias(reader)) {
    found.views.push_back(reader);
    value = reader->getResult(0);
    reader = getOnlyReader(value);
  }
  found.widening = dyn_cast_or_null<tosa::CastOp>(reader);
  if (!found.widening || !getElementTypeOrSelf(found.widening).isF32())
    return std::nullopt;
  found.scaling =
      dyn_cast_or_null<tosa::MulOp>(getOnlyReader(found.widening.getResult()));
  if (!found.scaling || found.scaling.getType() != found.widening.getType())
    return std::nullopt;
  Value widened = found.widening.getResult();
  Value factor = found.scaling.getInput1() == widened
                     ? found.scaling.getInput2()
                     : found.scaling.getInput1();
  std::optional<APFloat> splat = getFloatSplat(factor);
  if (!splat || !splat->isFiniteNonZero() || factor == widened ||
      !getElementTypeOrSelf(factor.getType()).isF32())
    return std::nullopt;
  found.scale = splat->convertToDouble();
  found.narrowing =
      dyn_cast_or_null<tosa::CastOp>(getOnlyReader(found.scaling.getResult()));
  if (!found.narrowing || !isa<Float8E4M3FNType, Float8E5M2Type>(
                              getElementTypeOrSelf(found.narrowing)))
    return std::nullopt;
  return found;
}

/// The attention stores f8 through the views; the quantization's ops go.
void fuse(engine::AttentionOp op, ResultQuantization &quantization) {
  Type f8 = getElementTypeOrSelf(quantization.narrowing);
  auto retype = [&](Value value) {
    value.setType(cast<RankedTensorType>(value.getType()).clone(f8));
  };
  Builder builder(op.getContext());
  op.setUnscaledTypeAttr(TypeAttr::get(getElementTypeOrSelf(op.getResult())));
  op.setResultScaleAttr(builder.getF64FloatAttr(quantization.scale));
  retype(op.getResult());
  for (Operation *view : quantization.views)
    retype(view->getResult(0));
  Value stored = quantization.views.empty()
                     ? Value(op.getResult())
                     : quantization.views.back()->getResult(0);
  quantization.narrowing.getResult().replaceAllUsesWith(stored);
  quantization.narrowing.erase();
  quantization.scaling.erase();
  quantization.widening.erase();
}

class FuseAttentionQuantizationPass
    : public PlanPass<FuseAttentionQuantizationPass,
                      impl::PrecFuseAttentionQuantizationBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    // Collected first: fusing erases the ops after each attention.
    SmallVector<engine::AttentionOp> attentions;
    function.walk([&](engine::AttentionOp op) {
      if (!op.getResultScale())
        attentions.push_back(op);
    });
    for (engine::AttentionOp op : attentions)
      if (std::optional<ResultQuantization> quantization = findQuantization(op))
        fuse(op, *quantization);
    return success();
  }
};

} // namespace

} // namespace prec
