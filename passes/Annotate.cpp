//===- Annotate.cpp - policy, regions, patterns and plans to requests -----===//

#include "passes/Passes.h"

#include "dialects/Utils/Attributes.h"
#include "dialects/Utils/OpNames.h"
#include "formats/PlanFile.h"
#include "passes/LayerPatterns.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "passes/PrecisionRules.h"

#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"
#include "dialects/Precision/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace prec {
#define GEN_PASS_DEF_PRECANNOTATE
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

/// A request being put together from its sources.
struct PendingRequest {
  Type compute, accumulate, output;
  ConstraintMode mode;
  Reason origin;
};

class AnnotatePass : public prec::impl::PrecAnnotateBase<AnnotatePass> {
public:
  using Base::Base;
  AnnotatePass(const PrecAnnotateOptions &options,
               std::shared_ptr<const PrecisionPlan> plan)
      : Base(options), plan(std::move(plan)) {}

  /// Reads the plan file once, unless the plan was given.
  LogicalResult initialize(MLIRContext *context) override {
    if (plan || planFile.empty())
      return success();
    llvm::Expected<PrecisionPlan> loaded = loadPlanFile(planFile, context);
    if (!loaded)
      return emitError(FileLineColLoc::get(context, planFile, 0, 0))
             << llvm::toString(loaded.takeError());
    plan = std::make_shared<const PrecisionPlan>(std::move(*loaded));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Option errors point at the module without printing it.
    auto emitError = [&] { return mlir::emitError(module.getLoc()); };
    FailureOr<PolicyAttr> policy = buildPolicy(emitError);
    if (failed(policy))
      return signalPassFailure();
    module->setAttr(PrecisionDialect::getPolicyAttrName(), *policy);

    FailureOr<std::vector<LayerPattern>> computePatterns = parseLayerPatterns(
        layerPrecisions, "layer-precisions", &getContext(), emitError);
    FailureOr<std::vector<LayerPattern>> outputPatterns = parseLayerPatterns(
        layerOutputTypes, "layer-output-types", &getContext(), emitError);
    if (failed(computePatterns) || failed(outputPatterns))
      return signalPassFailure();
    static const PrecisionPlan noPlan;
    const PrecisionPlan &plan = this->plan ? *this->plan : noPlan;

    nameBindings(module);
    warnUnmatched(module, *computePatterns, "layer-precisions");
    warnUnmatched(module, *outputPatterns, "layer-output-types");
    module.walk([&](Operation *op) {
      if (!isAssignable(op))
        return;
      std::optional<PendingRequest> request;
      if (classifyOp(op) != OpClass::Cast)
        request = findOpRequest(op, policy->getConstraints(), *computePatterns,
                                *outputPatterns, plan);
      // Names survive printing as an attribute.
      StringAttr layer = getLocationNameAttr(op->getLoc());
      bool nameIt = layer && !layer.empty() &&
                    !op->hasAttr(PrecisionDialect::getLayerAttrName());
      if (!nameIt && !request)
        return;
      updateDiscardableAttrs(op, [&](NamedAttrList &attributes) {
        if (nameIt)
          attributes.set(PrecisionDialect::getLayerAttrName(), layer);
        if (request)
          attributes.set(PrecisionDialect::getRequestAttrName(),
                         RequestAttr::get(&getContext(), request->compute,
                                          request->accumulate, request->output,
                                          request->mode, request->origin));
      });
    });
  }

private:
  /// What the patterns, the plan and the class rules ask of `op`, the output
  /// patterns' storage type included.
  std::optional<PendingRequest>
  findOpRequest(Operation *op, ConstraintMode defaultMode,
                ArrayRef<LayerPattern> computePatterns,
                ArrayRef<LayerPattern> outputPatterns,
                const PrecisionPlan &plan) {
    std::optional<PendingRequest> request =
        findRequest(op, defaultMode, computePatterns, plan);
    for (const LayerPattern &pattern : outputPatterns) {
      if (!pattern.pattern.matchesOp(op))
        continue;
      if (!request)
        request = PendingRequest{Type(), Type(), Type(), defaultMode,
                                 Reason::Pattern};
      request->output = pattern.type;
    }
    return request;
  }

  /// Records each argument's location name as `precision.name`, so that
  /// bindings keep their names when the module is printed without locations.
  void nameBindings(ModuleOp module) {
    StringRef attrName = PrecisionDialect::getNameAttrName();
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      for (BlockArgument argument : function.getArguments()) {
        StringRef name = getLocationName(argument.getLoc());
        if (!name.empty() &&
            !function.getArgAttr(argument.getArgNumber(), attrName))
          function.setArgAttr(argument.getArgNumber(), attrName,
                              StringAttr::get(&getContext(), name));
      }
    }
  }

  /// A pattern that names no op is most likely a typo (or names lost in a
  /// round trip without locations): say so.
  void warnUnmatched(ModuleOp module, ArrayRef<LayerPattern> patterns,
                     StringRef option) {
    for (const LayerPattern &pattern : patterns) {
      bool matched =
          module
              .walk([&](Operation *op) {
                return isAssignable(op) && pattern.pattern.matchesOp(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
      if (!matched)
        module.emitWarning()
            << option << " pattern '" << pattern.pattern.getText()
            << "' matches no op name or layer name";
    }
  }

  /// The module's policy with the options' overrides.
  FailureOr<PolicyAttr>
  buildPolicy(function_ref<InFlightDiagnostic()> emitError) {
    PolicyAttr current = getPolicy(getOperation());
    TypingMode typingMode = getTypingMode(typing).value_or(current.getTyping());
    ConstraintMode defaultMode =
        getConstraintMode(constraints).value_or(current.getConstraints());
    SmallVector<Type> enabledTypes(current.getEnabled());
    if (!enabled.empty()) {
      enabledTypes.clear();
      for (const std::string &name : enabled) {
        Type type = parsePrecisionType(&getContext(), name);
        if (!type) {
          emitError() << "enabled names unknown precision '" << name
                      << "'; expected " << getPrecisionTypeSpellings();
          return failure();
        }
        if (!type.isF32() && !llvm::is_contained(enabledTypes, type))
          enabledTypes.push_back(type);
      }
    }
    std::string targetName = current.getTarget().str();
    if (!target.empty()) {
      if (!parseTarget(target)) {
        emitError() << "unknown target '" << target << "'; expected "
                    << getTargetSpellings();
        return failure();
      }
      targetName = target;
    }
    return PolicyAttr::get(&getContext(), typingMode, enabledTypes, defaultMode,
                           targetName);
  }

  /// The compute request of `op` from its highest-ranked source.
  std::optional<PendingRequest>
  findRequest(Operation *op, ConstraintMode defaultMode,
              ArrayRef<LayerPattern> computePatterns,
              const PrecisionPlan &plan) {
    auto fromPlan = [&](const PlanRequest &request, Reason origin) {
      return PendingRequest{request.compute, request.accumulate, request.output,
                            request.mode.value_or(defaultMode), origin};
    };
    for (const PlanOpEntry &entry : llvm::reverse(plan.ops))
      if (entry.matches(op))
        return fromPlan(entry.request, Reason::Plan);
    for (const LayerPattern &pattern : llvm::reverse(computePatterns))
      if (pattern.pattern.matchesOp(op))
        return PendingRequest{pattern.type, Type(), Type(), defaultMode,
                              Reason::Pattern};
    if (auto region = op->getParentOfType<RegionOp>())
      return PendingRequest{
          region.getPrecision(), region.getAccumulate().value_or(Type()),
          region.getOutput().value_or(Type()),
          region.getMode().value_or(defaultMode), Reason::Region};
    OpClass opClass = classifyOp(op);
    for (const PlanClassRule &rule : llvm::reverse(plan.classes))
      if (rule.opClass == opClass)
        return fromPlan(rule.request, Reason::PlanClass);
    return std::nullopt;
  }

  std::shared_ptr<const PrecisionPlan> plan;
};

} // namespace

std::unique_ptr<Pass>
prec::createPrecAnnotate(const PrecAnnotateOptions &options,
                         std::shared_ptr<const PrecisionPlan> plan) {
  return std::make_unique<AnnotatePass>(options, std::move(plan));
}
