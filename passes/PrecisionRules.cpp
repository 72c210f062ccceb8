//===- PrecisionRules.cpp - the rules that choose an op's types -----------===//

#include "passes/PrecisionRules.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/RegionBoundaries.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace prec {

precision::PolicyAttr getPolicy(ModuleOp module) {
  if (auto policy = module->getAttrOfType<precision::PolicyAttr>(
          precision::PrecisionDialect::getPolicyAttrName()))
    return policy;
  module.getContext()->getOrLoadDialect<precision::PrecisionDialect>();
  return precision::PolicyAttr::get(module.getContext(),
                                    precision::TypingMode::Weak, {},
                                    precision::ConstraintMode::Prefer, "cpu");
}

static Type getFloatElementType(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !isa<FloatType>(tensorType.getElementType()))
    return Type();
  return tensorType.getElementType();
}

Type getResultElementType(Operation *op) {
  for (Type type : op->getResultTypes())
    if (Type element = getFloatElementType(type))
      return element;
  return Type();
}

bool isAssignable(Operation *op) {
  return classifyOp(op) != OpClass::Other && getResultElementType(op);
}

Type getLowestEnabledFloat(precision::PolicyAttr policy) {
  Builder builder(policy.getContext());
  for (Type candidate : {builder.getF16Type(), builder.getBF16Type()})
    if (policy.isEnabled(candidate))
      return candidate;
  return builder.getF32Type();
}

Type getDefaultAccumulate(Operation *op, Type compute) {
  if (!accumulates(op))
    return compute;
  Builder builder(op->getContext());
  if (compute.isInteger(8))
    return builder.getI32Type();
  return builder.getF32Type();
}

Type getIRAccumulate(Operation *op, Type compute) {
  if (auto accType = op->getAttrOfType<TypeAttr>("acc_type"))
    return accType.getValue();
  if (getAccumulatorForm(op) == AccumulatorForm::Result)
    return getResultElementType(op);
  return compute;
}

Type joinTypes(Type a, Type b) {
  if (!a)
    return b;
  if (!b || precision::canRepresentAllValues(a, b))
    return a;
  if (precision::canRepresentAllValues(b, a))
    return b;
  return Float32Type::get(a.getContext());
}

/// The storage type the producer of `value` hands on, or null for bindings,
/// constants and non-float values.
static Type getProducerStorage(Value value) {
  value = lookThroughRegions(value);
  if (!getFloatElementType(value.getType()))
    return Type();
  Operation *producer = value.getDefiningOp();
  if (!producer || matchPattern(producer, m_Constant()))
    return Type();
  if (auto assignment = producer->getAttrOfType<precision::AssignmentAttr>(
          precision::PrecisionDialect::getAssignmentAttrName()))
    return assignment.getStorage();
  return getFloatElementType(value.getType());
}

Type followProducers(Operation *op) {
  Type followed;
  for (Value operand : op->getOperands())
    followed = joinTypes(followed, getProducerStorage(operand));
  return followed;
}

/// The follow rule over the storage types `followed` joins.
static std::pair<Type, precision::Reason> follow(Type followed,
                                                 precision::PolicyAttr policy) {
  if (!followed)
    return {getLowestEnabledFloat(policy), precision::Reason::Inputs};
  if (!policy.isEnabled(followed))
    followed = Float32Type::get(policy.getContext());
  return {followed, precision::Reason::Follow};
}

std::pair<Type, precision::Reason>
applyFollowRule(Operation *op, precision::PolicyAttr policy) {
  return follow(followProducers(op), policy);
}

std::pair<Type, Type>
applyNormalizationRule(Operation *op,
                       const NormalizationAnalysis &normalizations,
                       precision::PolicyAttr policy) {
  std::optional<NormalizationRole> role = normalizations.getRole(op);
  if (!role)
    return {};
  Type f32 = Float32Type::get(op->getContext());
  if (*role == NormalizationRole::Statistic)
    return {f32, f32};
  Value input = normalizations.getNormalizedInput(op);
  return {f32, follow(getProducerStorage(input), policy).first};
}

Type getReducedWeightType(Operation *op) {
  if (classifyOp(op) != OpClass::Contraction || op->getNumOperands() < 2)
    return Type();
  Operation *def = op->getOperand(1).getDefiningOp();
  while (def && isa<tosa::CastOp, precision::CastOp>(def))
    def = def->getOperand(0).getDefiningOp();
  if (!def || !matchPattern(def, m_Constant()))
    return Type();
  Type weightType = getFloatElementType(def->getResult(0).getType());
  if (!weightType || weightType.isF32() ||
      !precision::isPrecisionType(weightType))
    return Type();
  return weightType;
}

} // namespace prec
