//===- Calibrators.cpp - dynamic ranges from observed values --------------===//

#include "runtime/Calibrators.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prec {

void MagnitudeHistogram::add(llvm::ArrayRef<float> values) {
  double largest = 0;
  for (float value : values)
    if (std::isfinite(value))
      largest = std::max(largest, double(std::abs(value)));
  if (range == 0) {
    if (largest == 0) {
      // All zeros so far: they belong to bin 0 whatever the range becomes.
      for (float value : values)
        counts[0] += std::isfinite(value);
      total += values.size();
      return;
    }
    range = largest;
  }
  // Double the range, merging neighbouring bins, until the values fit.
  while (largest > range) {
    for (int bin = 0; bin < kBins / 2; ++bin)
      counts[bin] = counts[2 * bin] + counts[2 * bin + 1];
    std::fill(counts.begin() + kBins / 2, counts.end(), 0);
    range *= 2;
  }
  double perBin = kBins / range;
  for (float value : values) {
    if (!std::isfinite(value))
      continue;
    int bin = std::min(int(std::abs(value) * perBin), kBins - 1);
    ++counts[bin];
    ++total;
  }
}

void TensorObserver::observe(llvm::ArrayRef<float> values) {
  for (float value : values) {
    if (std::isnan(value))
      continue;
    min = seen ? std::min(min, double(value)) : value;
    max = seen ? std::max(max, double(value)) : value;
    seen = true;
  }
  if (algorithm != CalibrationAlgorithm::MinMax)
    histogram.add(values);
}

double TensorObserver::computeAmax(double percentile) const {
  double largest = std::max(std::abs(min), std::abs(max));
  if (algorithm == CalibrationAlgorithm::MinMax || histogram.empty() ||
      histogram.getBinWidth() == 0)
    return largest;
  double amax =
      algorithm == CalibrationAlgorithm::Entropy
          ? computeEntropyAmax(histogram.getCounts(), histogram.getBinWidth())
          : computePercentileAmax(histogram.getCounts(),
                                  histogram.getBinWidth(), percentile);
  // A threshold past the largest finite value clips nothing.
  return std::min(amax, largest);
}

double computeEntropyAmax(llvm::ArrayRef<uint64_t> counts, double binWidth,
                          int quantizedLevels) {
  int bins = counts.size();
  if (bins <= quantizedLevels)
    return bins * binWidth;
  std::vector<double> histogram(counts.begin(), counts.end());
  // Bin 0 holds the zeros a ReLU makes; as TensorRT does, weigh it like its
  // neighbour so that they do not decide the threshold alone.
  histogram[0] = histogram[1];
  std::vector<double> outliersFrom(bins + 1, 0.0);
  for (int bin = bins - 1; bin >= 0; --bin)
    outliersFrom[bin] = outliersFrom[bin + 1] + histogram[bin];

  double bestDivergence = std::numeric_limits<double>::infinity();
  int bestThreshold = bins;
  std::vector<double> levelSum(quantizedLevels), levelNonZero(quantizedLevels);
  for (int threshold = quantizedLevels; threshold <= bins; ++threshold) {
    // P: the first `threshold` bins, the clipped ones added to the last.
    // Q: those bins quantized to the levels, each level's mass spread
    // evenly over its non-empty bins.
    std::fill(levelSum.begin(), levelSum.end(), 0.0);
    std::fill(levelNonZero.begin(), levelNonZero.end(), 0.0);
    auto levelOf = [&](int bin) {
      return int(int64_t(bin) * quantizedLevels / threshold);
    };
    for (int bin = 0; bin < threshold; ++bin) {
      if (histogram[bin] == 0)
        continue;
      levelSum[levelOf(bin)] += histogram[bin];
      levelNonZero[levelOf(bin)] += 1;
    }
    double totalP = outliersFrom[0];
    double totalQ = outliersFrom[0] - outliersFrom[threshold];
    double divergence = 0;
    for (int bin = 0; bin < threshold; ++bin) {
      double p = histogram[bin];
      if (bin == threshold - 1)
        p += outliersFrom[threshold];
      if (p == 0)
        continue;
      double q = histogram[bin] == 0
                     ? 0.0
                     : levelSum[levelOf(bin)] / levelNonZero[levelOf(bin)];
      if (q == 0) {
        divergence = std::numeric_limits<double>::infinity();
        break;
      }
      p /= totalP;
      q /= totalQ;
      divergence += p * std::log(p / q);
    }
    // Ties go to the larger threshold.
    if (divergence <= bestDivergence) {
      bestDivergence = divergence;
      bestThreshold = threshold;
    }
  }
  return bestThreshold * binWidth;
}

double computePercentileAmax(llvm::ArrayRef<uint64_t> counts, double binWidth,
                             double percentile) {
  uint64_t total = 0;
  for (uint64_t count : counts)
    total += count;
  double wanted = total * (percentile / 100.0);
  uint64_t cumulative = 0;
  for (size_t bin = 0; bin < counts.size(); ++bin) {
    cumulative += counts[bin];
    if (cumulative >= wanted)
      return (bin + 1) * binWidth;
  }
  return counts.size() * binWidth;
}

} // namespace prec
