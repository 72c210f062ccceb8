//===- Calibrators.h - dynamic ranges from observed values ------*- C++ -*-===//
//
// What TensorRT's calibrators compute, over a stream of batches: the
// symmetric range (amax) to quantize a tensor with. `minmax` keeps the
// largest magnitude; `entropy` keeps a 2048-bin histogram of magnitudes and
// picks the threshold whose 128-level quantization loses the least
// information (KL divergence, TensorRT's entropy calibration); `percentile`
// picks the magnitude below which the given share of values lie.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_CALIBRATORS_H
#define PREC_RUNTIME_CALIBRATORS_H

#include "formats/CalibrationFile.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace prec {

/// A histogram of |x| over [0, range) in a fixed number of bins. The range
/// is set by the first values seen and doubles (merging neighbouring bins)
/// whenever larger ones come: like TensorRT's, the first batch decides the
/// resolution, so the calibration batch size matters.
class MagnitudeHistogram {
public:
  static constexpr int kBins = 2048;

  void add(llvm::ArrayRef<float> values);
  bool empty() const { return total == 0; }
  double getBinWidth() const { return range / kBins; }
  const std::vector<uint64_t> &getCounts() const { return counts; }

private:
  double range = 0;
  uint64_t total = 0;
  std::vector<uint64_t> counts = std::vector<uint64_t>(kBins, 0);
};

/// What one tensor's calibration observed.
class TensorObserver {
public:
  explicit TensorObserver(CalibrationAlgorithm algorithm)
      : algorithm(algorithm) {}

  /// Observes a batch of the tensor's values; NaNs are skipped, infinities
  /// are counted in min/max but not in the histogram.
  void observe(llvm::ArrayRef<float> values);

  double getMin() const { return min; }
  double getMax() const { return max; }
  bool hasValues() const { return seen; }
  /// The symmetric range the algorithm chooses; `percentile` in (0, 100].
  double computeAmax(double percentile) const;

private:
  CalibrationAlgorithm algorithm;
  bool seen = false;
  double min = 0, max = 0;
  MagnitudeHistogram histogram;
};

/// The threshold of a magnitude histogram, with `quantizedLevels` levels
/// (128 for int8), minimizing KL(P || Q) over thresholds of 128..bins bins.
double computeEntropyAmax(llvm::ArrayRef<uint64_t> counts, double binWidth,
                          int quantizedLevels = 128);

/// The upper edge of the bin where the cumulative share of a magnitude
/// histogram reaches `percentile` / 100.
double computePercentileAmax(llvm::ArrayRef<uint64_t> counts, double binWidth,
                             double percentile);

} // namespace prec

#endif // PREC_RUNTIME_CALIBRATORS_H
