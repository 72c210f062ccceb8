//===- RangeAnalysis.cpp - value ranges of a module's tensors -------------===//

#include "passes/RangeAnalysis.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/RegionBoundaries.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
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
/// analysis reaches the value.
class Bound {
public:
  Bound() = default;
  Bound(const Interval &interval) : interval(interval) {}

  bool isUninitialized() const { return !interval; }
  const Interval &get() const { return *interval; }

  static Bound join(const Bound &a, const Bound &b) {
    if (!a.interval)
      return b;
    if (!b.interval)
      return a;
    return a.interval->join(*b.interval);
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
           same(interval->hi, other.interval->hi);
  }

  void print(raw_ostream &os) const {
    if (!interval)
      os << "<uninitialized>";
    else
      os << "[" << interval->lo << ", " << interval->hi << "]";
  }

private:
  std::optional<Interval> interval;
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
    Interval range = Interval::unknown();
    if (auto known = dyn_cast<precision::PrecisionOpInterface>(op)) {
      SmallVector<Interval> operandRanges;
      for (const BoundLattice *operand : operands) {
        // Wait for every operand: the solver visits the op again when one
        // is reached.
        if (operand->getValue().isUninitialized())
          return success();
        operandRanges.push_back(operand->getValue().get());
      }
      range = known.inferResultRange(operandRanges, constants);
    }
    // A normalized value is bounded whatever its input: the interval
    // arithmetic alone sees (x - mean) times up to 1/sqrt(epsilon).
    if (std::optional<double> bound = normalizations.getOutputBound(op))
      range = range.clip(-*bound * kRoundingMargin, *bound * kRoundingMargin);
    if (auto observed = op->getAttrOfType<DenseF64ArrayAttr>(
            precision::PrecisionDialect::getObservedRangeAttrName()))
      range = withObservedRange(range, Interval{observed[0], observed[1]});
    for (BoundLattice *result : results)
      propagateIfChanged(result, result->join(range));
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
  dataflow::loadBaselineAnalyses(solver);
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

} // namespace prec
