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

/// The operand `op` multiplies or divides by a constant, and the factor it
/// scales it by (none unless the constant is a splat); null if neither.
std::pair<Value, std::optional<double>> getScaledOperand(Operation *op) {
  if (isa<tosa::MulOp>(op)) {
    for (unsigned i : {1u, 0u})
      if (isConstantLike(op->getOperand(i)))
        return {op->getOperand(1 - i), getSplatValue(op->getOperand(i))};
  }
  if (isa<arith::DivFOp>(op) && isConstantLike(op->getOperand(1))) {
    std::optional<double> divisor = getSplatValue(op->getOperand(1));
    if (divisor && *divisor == 0)
      divisor.reset();
    return {op->getOperand(0),
            divisor ? std::optional<double>(1 / *divisor) : std::nullopt};
  }
  return {Value(), std::nullopt};
}

/// The operand `op` adds a constant (epsilon) to, and that constant if it is
/// a splat; null if none.
std::pair<Value, std::optional<double>> getShiftedOperand(Operation *op) {
  if (isa<tosa::AddOp>(op))
    for (unsigned i : {1u, 0u})
      if (isConstantLike(op->getOperand(i)))
        return {op->getOperand(1 - i), getSplatValue(op->getOperand(i))};
  return {Value(), std::nullopt};
}

/// The operand `op` squares: mul(c, c) or pow(c, 2); else null.
Value getSquaredOperand(Operation *op) {
  if (isa<tosa::MulOp>(op) && op->getOperand(0) == op->getOperand(1))
    return op->getOperand(0);
  if (isa<tosa::PowOp>(op) && getSplatValue(op->getOperand(1)) == 2.0)
    return op->getOperand(0);
  return Value();
}

/// A factor derived from the root of the variance: `scale` times the
/// deviation, or `scale` times its reciprocal (`inverse`). The scale is
/// unknown where a constant in the chain is not a splat.
struct Factor {
  Value value;
  bool inverse;
  std::optional<double> scale;
};

/// The root `op` takes of its operand (rsqrt, sqrt, a power of 0.5 or
/// -0.5) as a factor; none if `op` takes no root.
std::optional<Factor> matchRootFactor(Operation *op) {
  if (isa<tosa::RsqrtOp, math::SqrtOp>(op))
    return Factor{op->getResult(0), isa<tosa::RsqrtOp>(op), 1.0};
  if (isa<tosa::PowOp>(op)) {
    std::optional<double> exponent = getSplatValue(op->getOperand(1));
    if (exponent && std::abs(*exponent) == 0.5)
      return Factor{op->getResult(0), *exponent < 0, 1.0};
  }
  return std::nullopt;
}

/// A sum or mean over some axes: reduce_sums, then optionally a scaling by a
/// constant. `count` is the number of elements summed and `scale` the
/// constant, where both are known.
struct Mean {
  Value input;
  SmallVector<int64_t> axes;
  SmallVector<Operation *> ops;
  std::optional<int64_t> count;
  std::optional<double> scale = 1.0;

  /// Whether the scale is the reciprocal of the count: a true mean.
  bool isExactMean() const {
    return count && scale && std::abs(*scale * *count - 1) < 1e-6;
  }
};

std::optional<Mean> matchMean(Value value) {
  Mean mean;
  if (Operation *def = value.getDefiningOp())
    if (auto [scaled, scale] = getScaledOperand(def); scaled) {
      mean.ops.push_back(def);
      mean.scale = scale;
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
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && llvm::all_of(mean.axes, [&](int64_t axis) {
        return !type.isDynamicDim(axis);
      })) {
    mean.count = 1;
    for (int64_t axis : mean.axes)
      *mean.count *= type.getDimSize(axis);
  }
  return mean;
}

/// The factor `op` derives from `factor`: its reciprocal, 1/root as a
/// division by a constant, a broadcast of it; none if it derives none.
std::optional<Factor> deriveFactor(Operation *op, const Factor &factor) {
  auto scaled = [&](bool flip, std::optional<double> by) {
    std::optional<double> scale;
    if (factor.scale && by)
      scale = flip ? *by / *factor.scale : *by * *factor.scale;
    return Factor{op->getResult(0), factor.inverse != flip, scale};
  };
  if (isa<tosa::TileOp, tosa::ReshapeOp>(op) &&
      op->getOperand(0) == factor.value)
    return scaled(false, 1.0);
  if (isa<tosa::ReciprocalOp>(op) && op->getOperand(0) == factor.value)
    return scaled(true, 1.0);
  if (isa<arith::DivFOp>(op) && op->getOperand(1) == factor.value &&
      isConstantLike(op->getOperand(0)))
    return scaled(true, getSplatValue(op->getOperand(0)));
  return std::nullopt;
}

/// Whether `op` normalizes `centered` with `factor`: the product with the
/// reciprocal deviation, or the quotient by the deviation.
bool appliesFactor(Operation *op, Value centered, const Factor &factor) {
  if (isa<tosa::MulOp>(op) && factor.inverse)
    return (op->getOperand(0) == centered &&
            op->getOperand(1) == factor.value) ||
           (op->getOperand(1) == centered && op->getOperand(0) == factor.value);
  if (isa<arith::DivFOp>(op) && !factor.inverse)
    return op->getOperand(0) == centered && op->getOperand(1) == factor.value;
  return false;
}

/// The largest magnitude of c_i / sqrt(scale * sum_j c_j^2 + eps), eps >= 0,
/// over rows of `count`: at most 1/sqrt(scale), as c_i^2 <= sum_j c_j^2. For
/// values centred on their true mean, Samuelson's inequality bounds c_i^2 by
/// (count - 1)/count of the sum: sqrt(count - 1) for a LayerNorm.
std::optional<double> getDeviationBound(const Mean &variance, bool centered) {
  if (!variance.scale || *variance.scale <= 0)
    return std::nullopt;
  double share = 1;
  if (centered && variance.count && *variance.count > 0)
    share = double(*variance.count - 1) / *variance.count;
  return std::sqrt(share / *variance.scale);
}

} // namespace

NormalizationAnalysis::NormalizationAnalysis(Operation *root) {
  root->walk([&](Operation *op) { matchRoot(op); });
}

void NormalizationAnalysis::matchRoot(Operation *rootOp) {
  std::optional<Factor> root = matchRootFactor(rootOp);
  if (!root)
    return;
  Value value = rootOp->getOperand(0);
  SmallVector<Operation *> statistics = {rootOp};
  std::optional<double> epsilon = 0.0;
  if (Operation *def = value.getDefiningOp())
    if (auto [shifted, shift] = getShiftedOperand(def); shifted) {
      statistics.push_back(def);
      value = shifted;
      epsilon = shift;
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
  bool onTrueMean = false;
  if (auto sub = centered.getDefiningOp<tosa::SubOp>()) {
    std::optional<Mean> mean = matchMean(sub.getInput2());
    if (mean && mean->input == sub.getInput1() &&
        mean->axes == variance->axes) {
      input = sub.getInput1();
      onTrueMean = mean->isExactMean();
      statistics.append(mean->ops);
      statistics.push_back(sub);
    }
  }

  // A negative epsilon could bring the root below the deviation.
  std::optional<double> deviationBound;
  if (epsilon && *epsilon >= 0)
    deviationBound = getDeviationBound(*variance, onTrueMean);

  SmallVector<Factor> factors = {*root};
  SmallVector<std::pair<Operation *, std::optional<double>>> outputs;
  for (size_t i = 0; i < factors.size(); ++i) {
    for (Operation *user : factors[i].value.getUsers()) {
      if (std::optional<Factor> derived = deriveFactor(user, factors[i])) {
        statistics.push_back(user);
        factors.push_back(*derived);
      } else if (appliesFactor(user, centered, factors[i])) {
        std::optional<double> bound;
        if (deviationBound && factors[i].scale)
          bound = factors[i].inverse ? *deviationBound * *factors[i].scale
                                     : *deviationBound / *factors[i].scale;
        outputs.emplace_back(user, bound);
      }
    }
  }
  if (outputs.empty())
    return;
  for (Operation *op : statistics)
    roles[op] = NormalizationRole::Statistic;
  for (auto [op, bound] : outputs) {
    roles[op] = NormalizationRole::Output;
    normalizedInputs[op] = input;
    if (bound)
      outputBounds[op] = std::abs(*bound);
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

std::optional<double>
NormalizationAnalysis::getOutputBound(Operation *op) const {
  auto it = outputBounds.find(op);
  if (it == outputBounds.end())
    return std::nullopt;
  return it->second;
}

} // namespace prec
