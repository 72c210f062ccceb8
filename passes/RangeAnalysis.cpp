//===- RangeAnalysis.cpp - value ranges of a module's tensors -------------===//

#include "passes/RangeAnalysis.h"
#include "passes/ControlFlowLiveness.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/RegionBoundaries.h"
#include "dialects/Utils/Softmax.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace prec {

Interval getRecordedRange(Value value) {
  value = lookThroughRegions(value);
  StringRef name = precision::PrecisionDialect::getRangeAttrName();
  DenseF64ArrayAttr recorded;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (auto function =
            dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp()))
      recorded = function.getArgAttrOfType<DenseF64ArrayAttr>(
          argument.getArgNumber(), name);
  } else if (Operation *def = value.getDefiningOp();
             def->getNumResults() == 1) {
    recorded = def->getAttrOfType<DenseF64ArrayAttr>(name);
  }
  if (!recorded)
    return Interval::unknown();
  return {recorded[0], recorded[1]};
}

bool isRecordedRangeReached(Value value) {
  Operation *def = lookThroughRegions(value).getDefiningOp();
  return !def ||
         !def->hasAttr(precision::PrecisionDialect::getLooseRangeAttrName());
}

Interval withObservedRange(const Interval &proven, const Interval &observed) {
  auto widen = [](double bound, bool upper) {
    return (bound > 0) == upper ? bound * kObservedRangeMargin
                                : bound / kObservedRangeMargin;
  };
  Interval widened{widen(observed.lo, false), widen(observed.hi, true)};
  if (proven.hi < widened.lo || proven.lo > widened.hi)
    return widened;
  return proven.clip(widened.lo, widened.hi);
}

namespace {

/// The lattice's value: a bound of a value's elements, or none before the
/// analysis reaches the value. `reached`: some input reaches the bound's
/// largest magnitude, as far as the analysis knows; `independent`: each
/// element reaches its own extremes whatever the others do (a box, as an
/// input's val-range). A sum of products of values that vary together
/// (a matmul of a normalized row) bounds them by a worst case no input need
/// reach. Both flags err towards true, which only keeps more ops wide.
class Bound {
public:
  Bound() = default;
  Bound(const Interval &interval, bool reached = true, bool independent = true)
      : interval(interval), reached(reached), independent(independent) {}

  bool isUninitialized() const { return !interval; }
  const Interval &get() const { return *interval; }
  bool isReached() const { return reached; }
  bool isIndependent() const { return independent; }

  static Bound join(const Bound &a, const Bound &b) {
    if (!a.interval)
      return b;
    if (!b.interval)
      return a;
    return Bound(a.interval->join(*b.interval), a.reached || b.reached,
                 a.independent || b.independent);
  }

  /// Bit for bit, so that a NaN bound (inf - inf) equals itself and the
  /// solver does not see it change forever.
  bool operator==(const Bound &other) const {
    auto same = [](double a, double b) {
      return a == b || (std::isnan(a) && std::isnan(b));
    };
    if (!interval || !other.interval)
      return !interval && !other.interval;
    return same(interval->lo, other.interval->lo) &&
           same(interval->hi, other.interval->hi) && reached == other.reached &&
           independent == other.independent;
  }

  void print(raw_ostream &os) const {
    if (!interval) {
      os << "<uninitialized>";
      return;
    }
    os << "[" << interval->lo << ", " << interval->hi << "]";
    if (!reached)
      os << " loose";
  }

private:
  std::optional<Interval> interval;
  bool reached = true;
  bool independent = true;
};

class BoundLattice : public dataflow::Lattice<Bound> {
public:
  using Lattice::Lattice;
};

class BoundAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<BoundLattice> {
public:
  BoundAnalysis(DataFlowSolver &solver,
                DenseMap<Value, Interval> argumentRanges,
                ConstantValues &constants,
                const NormalizationAnalysis &normalizations)
      : SparseForwardDataFlowAnalysis(solver),
        argumentRanges(std::move(argumentRanges)), constants(constants),
        normalizations(normalizations) {}

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const BoundLattice *> operands,
                               ArrayRef<BoundLattice *> results) override {
    if (results.empty())
      return success();
    Bound bound(Interval::unknown());
    if (auto known = dyn_cast<precision::PrecisionOpInterface>(op)) {
      SmallVector<Interval> operandRanges;
      for (const BoundLattice *operand : operands) {
        // Wait for every operand: the solver visits the op again when one
        // is reached.
        if (operand->getValue().isUninitialized())
          return success();
        operandRanges.push_back(operand->getValue().get());
      }
      bound = inferBound(known, operands,
                         known.inferResultRange(operandRanges, constants));
    }
    if (isSoftmaxQuotient(op, operands))
      bound = Bound(Interval{0.0, 1.0}, /*reached=*/true,
                    /*independent=*/false);
    // x - max(x) over an axis is at most 0, where interval arithmetic sees
    // up to hi(x) - lo(x).
    else if (matchMaximumShift(op) && !bound.isUninitialized() &&
             bound.get().hi > 0)
      bound = Bound(Interval{bound.get().lo, 0.0}, /*reached=*/true,
                    /*independent=*/false);
    if (auto observed = op->getAttrOfType<DenseF64ArrayAttr>(
            precision::PrecisionDialect::getObservedRangeAttrName()))
      bound = Bound(
          withObservedRange(bound.get(), Interval{observed[0], observed[1]}),
          /*reached=*/true, bound.isIndependent());
    for (BoundLattice *result : results)
      propagateIfChanged(result, result->join(bound));
    return success();
  }

  /// Function arguments take their given range; values the analysis cannot
  /// follow are unknown.
  void setToEntryState(BoundLattice *lattice) override {
    Interval range = argumentRanges.lookup_or(lattice->getAnchor(),
                                              Interval::unknown());
    propagateIfChanged(lattice, lattice->join(range));
  }

private:
  /// Whether `op` is a softmax's quotient e * reciprocal(sum(e)) of values
  /// e >= 0 (exp's): each lies in [0, 1], being one term of the sum, where
  /// interval arithmetic sees up to the largest e over the smallest sum.
  static bool isSoftmaxQuotient(Operation *op,
                                ArrayRef<const BoundLattice *> operands) {
    std::optional<SoftmaxQuotient> quotient = matchSoftmaxQuotient(op);
    if (!quotient)
      return false;
    const Bound &terms =
        operands[quotient->terms == op->getOperand(0) ? 0 : 1]->getValue();
    return !terms.isUninitialized() && terms.get().lo >= 0;
  }

  /// The bound of `op`'s results, given `range` from its interval
  /// arithmetic: whether it is reached follows the varying (non-constant)
  /// data operands; a sum over elements reaches its bound only where they
  /// vary independently; a normalization's own bound is reached.
  Bound inferBound(precision::PrecisionOpInterface op,
                   ArrayRef<const BoundLattice *> operands,
                   Interval range) const {
    bool reached = true, independent = true;
    for (Value data : op.getDataOperands()) {
      if (matchPattern(data, m_Constant()))
        continue;
      auto it = llvm::find(op->getOperands(), data);
      const Bound &operand =
          operands[std::distance(op->operand_begin(), it)]->getValue();
      reached &= operand.isReached();
      independent &= operand.isIndependent();
    }
    if (op.accumulates()) {
      reached &= independent;
      independent = false;
    }
    // A normalized value is bounded whatever its input: the interval
    // arithmetic alone sees (x - mean) times up to 1/sqrt(epsilon).
    if (std::optional<double> normalized = normalizations.getOutputBound(op)) {
      double limit = *normalized * kRoundingMargin;
      if (range.maxMagnitude() >= limit)
        return Bound(range.clip(-limit, limit), /*reached=*/true,
                     /*independent=*/false);
    }
    return Bound(range, reached, independent);
  }

  /// Room for the rounding of the statistics, which the exact bound of a
  /// normalized value does not count.
  static constexpr double kRoundingMargin = 1 + 1.0 / 64;

  DenseMap<Value, Interval> argumentRanges;
  ConstantValues &constants;
  const NormalizationAnalysis &normalizations;
};

} // namespace

RangeAnalysis::RangeAnalysis(Operation *root,
                             const DenseMap<Value, Interval> &argumentRanges)
    : normalizations(root) {
  loadControlFlowLiveness(solver);
  solver.load<BoundAnalysis>(argumentRanges, constants, normalizations);
  // The analyses only fail on ops they cannot handle, and these handle all.
  (void)solver.initializeAndRun(root);
}

Interval RangeAnalysis::getRange(Value value) const {
  const BoundLattice *lattice = solver.lookupState<BoundLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return Interval::unknown();
  return lattice->getValue().get();
}

bool RangeAnalysis::isReached(Value value) const {
  const BoundLattice *lattice = solver.lookupState<BoundLattice>(value);
  return !lattice || lattice->getValue().isUninitialized() ||
         lattice->getValue().isReached();
}

} // namespace prec
