//===- Propagate.cpp - compute, accumulate and storage for every op -------===//

#include "passes/Passes.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "passes/PrecisionRules.h"

#include "dialects/Precision/PrecisionOps.h"

namespace prec {
#define GEN_PASS_DEF_PRECPROPAGATE
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

/// The compute type and reason for `op` when nobody pinned it.
static std::pair<Type, Reason> chooseCompute(Operation *op, PolicyAttr policy) {
  if (policy.getTyping() == TypingMode::Strong)
    return {getResultElementType(op), Reason::Strong};
  if (Type weights = getReducedWeightType(op))
    return {weights, Reason::Weights};
  switch (classifyOp(op)) {
  case OpClass::Contraction:
    return {getLowestEnabledFloat(policy), Reason::ClassRule};
  case OpClass::Sensitive:
    return {Float32Type::get(op->getContext()), Reason::ClassRule};
  default:
    break;
  }
  return applyFollowRule(op, policy);
}

class PropagatePass : public prec::impl::PrecPropagateBase<PropagatePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    PolicyAttr policy = getPolicy(getOperation());
    normalizations = &getAnalysis<NormalizationAnalysis>();
    auto assignmentName = StringAttr::get(
        &getContext(), PrecisionDialect::getAssignmentAttrName());
    // Pre-order: producers are assigned before the ops that follow them.
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isAssignable(op))
        return;
      op->setAttr(assignmentName, proposeAssignment(op, policy));
    });
  }

private:
  AssignmentAttr proposeAssignment(Operation *op, PolicyAttr policy) {
    MLIRContext *context = op->getContext();
    if (classifyOp(op) == OpClass::Cast) {
      Type type = getResultElementType(op);
      return AssignmentAttr::get(context, type, type, type, Reason::UserCast,
                                 "");
    }
    auto request =
        op->getAttrOfType<RequestAttr>(PrecisionDialect::getRequestAttrName());
    Type compute, storage;
    Reason reason;
    if (request && request.getCompute()) {
      compute = request.getCompute();
      reason = request.getOrigin();
    } else if (policy.getTyping() == TypingMode::Weak &&
               normalizations->getRole(op)) {
      std::tie(compute, storage) =
          applyNormalizationRule(op, *normalizations, policy);
      reason = Reason::Normalization;
    } else {
      std::tie(compute, reason) = chooseCompute(op, policy);
    }
    Type accumulate = policy.getTyping() == TypingMode::Strong
                          ? getIRAccumulate(op, compute)
                          : getDefaultAccumulate(op, compute);
    if (!storage)
      storage = compute;
    if (request && request.getAccumulate())
      accumulate = request.getAccumulate();
    if (request && request.getOutput())
      storage = request.getOutput();
    return AssignmentAttr::get(context, compute, accumulate, storage, reason,
                               "");
  }

  const NormalizationAnalysis *normalizations = nullptr;
};

} // namespace
