//===- RangeAnalysis.h - value ranges of a module's tensors -----*- C++ -*-===//
//
// A sparse forward dataflow analysis (mlir::dataflow) over an interval
// lattice: given ranges for the functions' arguments, a [lo, hi] bound of
// every tensor the module computes. Each op's transfer is its
// PrecisionOpInterface::inferResultRange; ops without the interface give
// unknown ranges; the output of a normalization (NormalizationAnalysis) is
// bounded by its row size whatever its input. Each range also says whether
// an input is known to reach it, or it is a loose worst case (isReached).
// precision.region, a RegionBranchOpInterface op, passes ranges into its body
// and back out. A result with a range observed in calibration data
// (precision.observed_range) takes that range widened by kObservedRangeMargin,
// within what the arithmetic proves.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_RANGEANALYSIS_H
#define PREC_PASSES_RANGEANALYSIS_H

#include "dialects/Precision/ConstantValues.h"
#include "dialects/Precision/Interval.h"
#include "passes/Normalization.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace prec {

/// Data beyond the calibration's may go further: an observed range counts
/// with its magnitudes doubled (one more binade), so that values within a
/// factor 2 of f16's largest before calibration already keep their op in f32.
inline constexpr double kObservedRangeMargin = 2.0;

/// `proven`, the range arithmetic gives a result, within `observed` (from
/// calibration data) widened by kObservedRangeMargin; the widened observed
/// range alone when the two do not meet.
Interval withObservedRange(const Interval &proven, const Interval &observed);

/// The range prec-range-analysis recorded for `value` (on its defining op,
/// or on the function argument it is), looking through precision.region
/// boundaries; unknown if none was recorded.
Interval getRecordedRange(mlir::Value value);

/// Whether some input is known to reach the largest magnitude of `value`'s
/// recorded range: false where prec-range-analysis marked it loose.
bool isRecordedRangeReached(mlir::Value value);

class RangeAnalysis {
public:
  /// Bounds every value in `root` (a module). The arguments of its public
  /// functions take `argumentRanges` (unknown where absent); a private
  /// function's arguments take the ranges of its calls' operands.
  RangeAnalysis(mlir::Operation *root,
                const llvm::DenseMap<mlir::Value, Interval> &argumentRanges);

  /// The range of `value`; unknown for values the analysis did not reach.
  Interval getRange(mlir::Value value) const;

  /// Whether some input is known to reach the largest magnitude of
  /// `value`'s range; false for a loose worst case (a matmul of values that
  /// vary together, and what follows from it).
  bool isReached(mlir::Value value) const;

private:
  ConstantValues constants;
  NormalizationAnalysis normalizations;
  mlir::DataFlowSolver solver;
};

} // namespace prec

#endif // PREC_PASSES_RANGEANALYSIS_H
