//===- Normalization.cpp - the statistics of normalization layers ---------===//

#include "passes/Normalization.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace prec {

namespace {

/// Ops that only reshape, broadcast or convert their first operand.
bool isPassThrough(Operation *op) {
  return isa<tosa::ReshapeOp, tosa::TileOp, tosa::CastOp, precision::CastOp>(
      op);
}

/// Whether `value` is a constant, possibly reshaped, tiled or converted.
bool isConstantLike(Value value) {
  Operation *def = value.getDefiningOp();
  while (def && isPassThrough(def))
    def = def->getOperand(0).getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// The value of a float constant whose elements are all equal.
std::optional<double> getSplatValue(Value value) {
  Operation *def = value.getDefiningOp();
  while (def && isPassThrough(def))
    def = def->getOperand(0).getDefiningOp();
  DenseElementsAttr values;
  if (!def || !matchPattern(def, m_Constant(&values)) || !values.isSplat() ||
      !isa<FloatType>(values.getElementType()))
    return std::nullopt;
  APFloat splat = values.getSplatValue<APFloat>();
  bool losesInfo = false;
  splat.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return splat.convertToDouble();
}

/// The operand `op` multiplies or divides by a constant, else null.
Value getScaledOperand(Operation *op) {
  if (isa<tosa::MulOp>(op)) {
    if (isConstantLike(op->getOperand(1)))
      return op->getOperand(0);
    if (isConstantLike(op->getOperand(0)))
      return op->getOperand(1);
  }
  if (isa<arith::DivFOp>(op) && isConstantLike(op->getOperand(1)))
    return op->getOperand(0);
  return Value();
}

/// The operand `op` adds a constant (epsilon) to, else null.
Value getShiftedOperand(Operation *op) {
  if (!isa<tosa::AddOp>(op))
    return Value();
  if (isConstantLike(op->getOperand(1)))
    return op->getOperand(0);
  if (isConstantLike(op->getOperand(0)))
    return op->getOperand(1);
  return Value();
}

/// The operand `op` squares: mul(c, c) or pow(c, 2); else null.
Value getSquaredOperand(Operation *op) {
  if (isa<tosa::MulOp>(op) && op->getOperand(0) == op->getOperand(1))
    return op->getOperand(0);
  if (isa<tosa::PowOp>(op) && getSplatValue(op->getOperand(1)) == 2.0)
    return op->getOperand(0);
  return Value();
}

/// The operand `op` takes a square root of (rsqrt, sqrt, a power of 0.5 or
/// -0.5); else null.
Value getRootOperand(Operation *op) {
  if (isa<tosa::RsqrtOp, math::SqrtOp>(op))
    return op->getOperand(0);
  if (isa<tosa::PowOp>(op)) {
    std::optional<double> exponent = getSplatValue(op->getOperand(1));
    if (exponent && std::abs(*exponent) == 0.5)
      return op->getOperand(0);
  }
  return Value();
}

/// A sum or mean over some axes: reduce_sums, then optionally a scaling by a
/// constant.
struct Mean {
  Value input;
  SmallVector<int64_t> axes;
  SmallVector<Operation *> ops;
};

std::optional<Mean> matchMean(Value value) {
  Mean mean;
  if (Operation *def = value.getDefiningOp())
    if (Value scaled = getScaledOperand(def)) {
      mean.ops.push_back(def);
      value = scaled;
    }
  while (auto sum = value.getDefiningOp<tosa::ReduceSumOp>()) {
    mean.ops.push_back(sum);
    mean.axes.push_back(sum.getAxis());
    value = sum.getInput();
  }
  if (mean.axes.empty())
    return std::nullopt;
  llvm::sort(mean.axes);
  mean.input = value;
  return mean;
}

/// Whether `op` turns the factor `factor` into another factor: the
/// reciprocal of the root, 1/root as a division, a broadcast of it.
bool derivesFactor(Operation *op, Value factor) {
  if (isa<tosa::ReciprocalOp, tosa::TileOp, tosa::ReshapeOp>(op))
    return op->getOperand(0) == factor;
  if (isa<arith::DivFOp>(op))
    return op->getOperand(1) == factor && isConstantLike(op->getOperand(0));
  return false;
}

/// Whether `op` normalizes `centered` with `factor`: their product, or their
/// quotient.
bool appliesFactor(Operation *op, Value centered, Value factor) {
  if (isa<tosa::MulOp>(op))
    return (op->getOperand(0) == centered && op->getOperand(1) == factor) ||
           (op->getOperand(1) == centered && op->getOperand(0) == factor);
  if (isa<arith::DivFOp>(op))
    return op->getOperand(0) == centered && op->getOperand(1) == factor;
  return false;
}

} // namespace

NormalizationAnalysis::NormalizationAnalysis(Operation *root) {
  root->walk([&](Operation *op) { matchRoot(op); });
}

void NormalizationAnalysis::matchRoot(Operation *rootOp) {
  Value value = getRootOperand(rootOp);
  if (!value)
    return;
  SmallVector<Operation *> statistics = {rootOp};
  if (Operation *def = value.getDefiningOp())
    if (Value shifted = getShiftedOperand(def)) {
      statistics.push_back(def);
      value = shifted;
    }
  std::optional<Mean> variance = matchMean(value);
  if (!variance)
    return;
  Operation *squareOp = variance->input.getDefiningOp();
  Value centered = squareOp ? getSquaredOperand(squareOp) : Value();
  if (!centered)
    return;
  statistics.append(variance->ops);
  statistics.push_back(squareOp);

  // LayerNorm and its kin centre the input first; RMSNorm does not.
  Value input = centered;
  if (auto sub = centered.getDefiningOp<tosa::SubOp>()) {
    std::optional<Mean> mean = matchMean(sub.getInput2());
    if (mean && mean->input == sub.getInput1() &&
        mean->axes == variance->axes) {
      input = sub.getInput1();
      statistics.append(mean->ops);
      statistics.push_back(sub);
    }
  }

  SmallVector<Value> factors = {rootOp->getResult(0)};
  SmallVector<Operation *> outputs;
  for (size_t i = 0; i < factors.size(); ++i) {
    for (Operation *user : factors[i].getUsers()) {
      if (derivesFactor(user, factors[i])) {
        statistics.push_back(user);
        factors.push_back(user->getResult(0));
      } else if (appliesFactor(user, centered, factors[i])) {
        outputs.push_back(user);
      }
    }
  }
  if (outputs.empty())
    return;
  for (Operation *op : statistics)
    roles[op] = NormalizationRole::Statistic;
  for (Operation *op : outputs) {
    roles[op] = NormalizationRole::Output;
    normalizedInputs[op] = input;
  }
}

std::optional<NormalizationRole>
NormalizationAnalysis::getRole(Operation *op) const {
  auto it = roles.find(op);
  if (it == roles.end())
    return std::nullopt;
  return it->second;
}

Value NormalizationAnalysis::getNormalizedInput(Operation *op) const {
  return normalizedInputs.lookup(op);
}

} // namespace prec
