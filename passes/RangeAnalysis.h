//===- RangeAnalysis.h - value ranges of a function's tensors ---*- C++ -*-===//
//
// Forward interval propagation over the TOSA ops prec handles: given ranges
// for a function's arguments, a [lo, hi] bound of every tensor it computes.
// Contractions with constant weights are bounded per output channel from the
// weight values; elementwise ops use interval arithmetic; ops the analysis
// does not know give unknown ranges. A result with a range observed in
// calibration data (precision.observed_range) takes that range widened by
// kObservedRangeMargin, within what the arithmetic proves.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_RANGEANALYSIS_H
#define PREC_PASSES_RANGEANALYSIS_H

#include "passes/Interval.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace prec {

/// Data beyond the calibration's may go further: an observed range counts
/// with its magnitudes doubled (one more binade), so that values within a
/// factor 2 of f16's largest before calibration already keep their op in f32.
inline constexpr double kObservedRangeMargin = 2.0;

/// The elements of a constant tensor (through casts), as doubles, or
/// std::nullopt when `value` is not a constant prec can read.
std::optional<std::vector<double>> getConstantValues(mlir::Value value);

/// `proven`, the range arithmetic gives a result, within `observed` (from
/// calibration data) widened by kObservedRangeMargin; the widened observed
/// range alone when the two do not meet.
Interval withObservedRange(const Interval &proven, const Interval &observed);

/// The range prec-range-analysis recorded for `value` (on its defining op,
/// or on the function argument it is), looking through precision.region
/// boundaries; unknown if none was recorded.
Interval getRecordedRange(mlir::Value value);

class RangeAnalysis {
public:
  /// Computes ranges for every value defined in `root`'s regions; the
  /// entry block arguments take `argumentRanges` (unknown where absent).
  RangeAnalysis(mlir::Operation *root,
                llvm::ArrayRef<std::optional<Interval>> argumentRanges);

  /// The range of `value`; unknown for values the analysis did not see.
  Interval getRange(mlir::Value value) const;

private:
  /// getConstantValues, read once per constant: a weight shared by many
  /// ops is converted to doubles only once.
  const std::optional<std::vector<double>> &getWeights(mlir::Value value);

  void visitBlock(mlir::Block &block);
  void visitOp(mlir::Operation *op);
  Interval computeResultRange(mlir::Operation *op);

  llvm::DenseMap<mlir::Value, Interval> ranges;
  // Node-based: references handed out stay valid as entries are added.
  std::unordered_map<const void *, std::optional<std::vector<double>>> weights;
};

} // namespace prec

#endif // PREC_PASSES_RANGEANALYSIS_H
