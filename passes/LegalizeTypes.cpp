//===- LegalizeTypes.cpp - check choices against target and ranges --------===//

#include "passes/Passes.h"

#include "dialects/Utils/OpNames.h"
#include "dialects/Precision/Interval.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "passes/PrecisionRules.h"
#include "passes/RangeAnalysis.h"
#include "passes/TargetSupport.h"

#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"
#include "dialects/Precision/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace prec {
#define GEN_PASS_DEF_PRECLEGALIZETYPES
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

std::string formatRange(const Interval &range) {
  std::string text;
  llvm::raw_string_ostream(text) << "[" << llvm::format("%g", range.lo) << ", "
                                 << llvm::format("%g", range.hi) << "]";
  return text;
}

/// A range fact about an op computing in `compute` and storing in `storage`:
/// which value overflows or underflows which type.
struct RangeProblem {
  std::string what; // "result", "operand #1"
  Interval range;
  Type type;
  bool overflow; // else underflow

  std::string describe() const {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "its " << what << " range " << formatRange(range);
    if (overflow)
      os << " exceeds " << type << "'s largest finite value "
         << llvm::format("%g", getLargestFinite(type));
    else
      os << " lies below " << type << "'s smallest normal value";
    return text;
  }
};

/// Whether ranges say the op's values do not fit the types; scaled types
/// (i8, f8) take any range, so only f16, bf16 and f32 are checked.
std::optional<RangeProblem> findRangeProblem(Operation *op, Type compute,
                                             Type storage) {
  auto check = [](const std::string &what, const Interval &range, bool reached,
                  Type type) -> std::optional<RangeProblem> {
    if (isQuantizedPrecision(type))
      return std::nullopt;
    // A loose bound overflows for no input anyone knows of, unless all of
    // it lies beyond.
    if (overflows(range, type) && (reached || overflowsEverywhere(range, type)))
      return RangeProblem{what, range, type, true};
    if (underflows(range, type))
      return RangeProblem{what, range, type, false};
    return std::nullopt;
  };
  for (OpOperand &operand : op->getOpOperands()) {
    auto tensorType = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!tensorType || !isa<FloatType>(tensorType.getElementType()))
      continue;
    if (auto problem =
            check("operand #" + std::to_string(operand.getOperandNumber()),
                  getRecordedRange(operand.get()),
                  isRecordedRangeReached(operand.get()), compute))
      return problem;
  }
  Interval result = getRecordedRange(op->getResult(0));
  bool reached = isRecordedRangeReached(op->getResult(0));
  if (auto problem = check("result", result, reached, compute))
    return problem;
  return check("result", result, reached, storage);
}

class LegalizeTypesPass
    : public prec::impl::PrecLegalizeTypesBase<LegalizeTypesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    policy = getPolicy(getOperation());
    target = *parseTarget(policy.getTarget());
    normalizations = &getAnalysis<NormalizationAnalysis>();
    bool failedAny = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto assignment = op->getAttrOfType<AssignmentAttr>(
          PrecisionDialect::getAssignmentAttrName());
      if (!assignment)
        return;
      FailureOr<AssignmentAttr> legal = legalize(op, assignment);
      if (failed(legal)) {
        failedAny = true;
        return;
      }
      op->setAttr(PrecisionDialect::getAssignmentAttrName(), *legal);
    });
    if (failedAny)
      return signalPassFailure();
    getOperation().walk([&](Operation *op) { widenStorage(op); });
  }

private:
  FailureOr<AssignmentAttr> legalize(Operation *op, AssignmentAttr proposed) {
    auto request =
        op->getAttrOfType<RequestAttr>(PrecisionDialect::getRequestAttrName());
    bool pinned = request && request.getCompute();
    ConstraintMode mode = request ? request.getMode() : ConstraintMode::None;
    bool strong = policy.getTyping() == TypingMode::Strong;
    Type compute = proposed.getCompute();
    Type accumulate = proposed.getAccumulate();
    Type storage = proposed.getStorage();
    Reason reason = proposed.getReason();
    std::string detail;
    bool storageRequested = request && request.getOutput();
    auto setCompute = [&](Type type) {
      if (accumulate == compute || !canRepresentAllValues(accumulate, type))
        accumulate = getDefaultAccumulate(op, type);
      if (!storageRequested)
        storage = type;
      compute = type;
    };

    // Producers may have been promoted since prec-propagate: follow again.
    if (reason == Reason::Follow || reason == Reason::Inputs) {
      auto [followed, followReason] = applyFollowRule(op, policy);
      setCompute(followed);
      reason = followReason;
    }
    // An input promoted since: the normalized output stores its type again.
    if (reason == Reason::Normalization && !storageRequested)
      storage = applyNormalizationRule(op, *normalizations, policy).second;
    if (reason == Reason::UserCast)
      return proposed;

    OpClass opClass = classifyOp(op);
    // A layout op pinned with its layer to a scaled format (the reshapes of
    // an ONNX MatMul) computes nothing and has no scale of its own: it moves
    // what its producers give it, which departs from no request, so it
    // neither warns nor fails under obey.
    if (pinned && opClass == OpClass::DataMovement &&
        isQuantizedPrecision(compute) &&
        !isSupported(target, opClass, compute)) {
      llvm::raw_string_ostream(detail)
          << "moves data of a layer pinned to " << compute;
      Type moved = applyFollowRule(op, policy).first;
      if (!isSupported(target, opClass, moved))
        moved = getFallbackType(target, opClass, moved);
      setCompute(moved);
      reason = Reason::Follow;
    }
    std::optional<std::string> unsupported;
    if (!isSupported(target, opClass, compute))
      unsupported = explainUnsupported(target, opClass, compute);
    else
      unsupported = explainShapeUnsupported(target, op, compute);
    if (unsupported) {
      std::string why = *unsupported;
      if (pinned && mode == ConstraintMode::Obey) {
        op->emitError() << describeOp(op) << " must compute in " << compute
                        << " (obey), but target " << policy.getTarget()
                        << " cannot: " << why;
        return failure();
      }
      Type fallback = getFallbackType(target, opClass, compute);
      if (pinned && mode == ConstraintMode::Prefer)
        op->emitWarning() << describeOp(op) << " prefers " << compute
                          << ", but target " << policy.getTarget()
                          << " cannot (" << why << "): it computes in "
                          << fallback << " instead";
      detail = "target " + policy.getTarget().str() + ": " + why;
      setCompute(fallback);
      reason = Reason::Fallback;
    }
    if (!isSupported(target, OpClass::DataMovement, storage)) {
      Type fallback = getFallbackType(target, OpClass::DataMovement, storage);
      if (storageRequested && mode == ConstraintMode::Obey) {
        op->emitError() << describeOp(op) << " must store " << storage
                        << " (obey), but target " << policy.getTarget()
                        << " cannot: "
                        << explainUnsupported(target, OpClass::DataMovement,
                                              storage);
        return failure();
      }
      storage = fallback;
    }

    if (std::optional<RangeProblem> problem =
            findRangeProblem(op, compute, storage)) {
      if (strong || (pinned && mode == ConstraintMode::Obey)) {
        op->emitWarning() << describeOp(op) << " computes in " << compute
                          << " as required, but " << problem->describe()
                          << ": it will "
                          << (problem->overflow ? "overflow" : "underflow");
      } else if (Type promoted = Float32Type::get(op->getContext());
                 compute != promoted || storage != promoted) {
        // Where the compute type is f32 already, what widens is the storage.
        bool storageOnly = compute == promoted;
        // The compiler's own choice changing is a remark; a request that
        // is not honoured, a warning.
        (pinned ? op->emitWarning() : op->emitRemark())
            << describeOp(op) << (storageOnly ? " storage" : "")
            << " promoted from " << (storageOnly ? storage : compute) << " to "
            << promoted << ": " << problem->describe();
        detail = problem->describe();
        if (storageRequested && findRangeProblem(op, promoted, storage))
          storageRequested = false;
        setCompute(promoted);
        reason = Reason::Range;
      }
    }
    // TOSA's contractions and pools take no bf16 accumulator: bf16
    // operands accumulate in f32 (as on tensor cores).
    if (accumulates(op) && accumulate.isBF16())
      accumulate = Float32Type::get(op->getContext());
    return AssignmentAttr::get(op->getContext(), compute, accumulate, storage,
                               reason, detail);
  }

  /// A contraction whose consumers all compute in one type W wider than its
  /// storage, with an accumulator holding W, stores in W: the conversion
  /// happens in the epilogue for free and a cast disappears.
  void widenStorage(Operation *op) {
    auto assignment = op->getAttrOfType<AssignmentAttr>(
        PrecisionDialect::getAssignmentAttrName());
    if (!assignment || !accumulates(op) || op->getNumResults() != 1)
      return;
    auto request =
        op->getAttrOfType<RequestAttr>(PrecisionDialect::getRequestAttrName());
    if (request && request.getOutput())
      return;
    Type wanted;
    for (OpOperand &use : op->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      Type userType;
      if (auto ret = dyn_cast<func::ReturnOp>(user)) {
        auto function = ret->getParentOfType<func::FuncOp>();
        userType = getElementTypeOrSelf(
            function.getResultTypes()[use.getOperandNumber()]);
      } else if (auto userAssignment = user->getAttrOfType<AssignmentAttr>(
                     PrecisionDialect::getAssignmentAttrName());
                 userAssignment && classifyOp(user) != OpClass::Cast) {
        userType = userAssignment.getCompute();
      } else {
        return;
      }
      if (wanted && wanted != userType)
        return;
      wanted = userType;
    }
    Type storage = assignment.getStorage();
    if (!wanted || wanted == storage ||
        !canRepresentAllValues(wanted, storage) ||
        !canRepresentAllValues(assignment.getAccumulate(), wanted))
      return;
    op->setAttr(PrecisionDialect::getAssignmentAttrName(),
                AssignmentAttr::get(op->getContext(), assignment.getCompute(),
                                    assignment.getAccumulate(), wanted,
                                    assignment.getReason(),
                                    assignment.getDetail()));
  }

  PolicyAttr policy;
  Target target;
  const NormalizationAnalysis *normalizations = nullptr;
};

} // namespace
