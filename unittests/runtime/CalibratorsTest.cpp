//===- CalibratorsTest.cpp - calibration on known distributions -----------===//

#include "runtime/Calibrators.h"

#include <gtest/gtest.h>

#include <random>

using namespace prec;

namespace {

/// Feeds `values` to a fresh observer in batches of `batch`.
double calibrate(CalibrationAlgorithm algorithm,
                 const std::vector<float> &values, size_t batch = 4096,
                 double percentile = 99.99) {
  TensorObserver observer(algorithm);
  for (size_t start = 0; start < values.size(); start += batch)
    observer.observe(llvm::ArrayRef<float>(values).slice(
        start, std::min(batch, values.size() - start)));
  return observer.computeAmax(percentile);
}

std::vector<float> uniform(size_t count, float lo, float hi) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> distribution(lo, hi);
  std::vector<float> values(count);
  for (float &value : values)
    value = distribution(generator);
  return values;
}

/// N(0, 1) with `outliers` values of +-50 spread through it.
std::vector<float> gaussianWithOutliers(size_t count, size_t outliers) {
  std::mt19937 generator(11);
  std::normal_distribution<float> distribution(0.0f, 1.0f);
  std::vector<float> values(count);
  for (float &value : values)
    value = distribution(generator);
  for (size_t i = 0; i < outliers; ++i)
    values[(i + 1) * (count / (outliers + 1))] = i % 2 ? -50.0f : 50.0f;
  return values;
}

TEST(CalibratorsTest, ParsesAlgorithmNames) {
  EXPECT_EQ(parseCalibrationAlgorithm("entropy"),
            CalibrationAlgorithm::Entropy);
  EXPECT_EQ(getCalibrationAlgorithmName(CalibrationAlgorithm::Percentile),
            "percentile");
  EXPECT_FALSE(parseCalibrationAlgorithm("kl"));
}

// On a uniform distribution nothing is an outlier: every algorithm keeps
// (nearly) the whole range.
TEST(CalibratorsTest, UniformKeepsTheRange) {
  std::vector<float> values = uniform(1 << 20, -2.0f, 2.0f);
  EXPECT_NEAR(calibrate(CalibrationAlgorithm::MinMax, values), 2.0, 1e-4);
  // 99.99% of |x| lie below 1.9998; one bin is 2 / 2048.
  EXPECT_NEAR(calibrate(CalibrationAlgorithm::Percentile, values), 1.9998,
              2.0 / 2048);
  EXPECT_GT(calibrate(CalibrationAlgorithm::Entropy, values), 1.9);
  EXPECT_LE(calibrate(CalibrationAlgorithm::Entropy, values), 2.0);
}

// Twenty values of +-50 among a million N(0, 1): minmax keeps them, entropy
// and percentile clip them to a few sigma.
TEST(CalibratorsTest, GaussianOutliersAreClippedByEntropyAndPercentile) {
  std::vector<float> values = gaussianWithOutliers(1 << 20, 20);
  EXPECT_DOUBLE_EQ(calibrate(CalibrationAlgorithm::MinMax, values), 50.0);
  // The two-sided 99.99% point of N(0, 1) is 3.89; bins are 50/2048 wide
  // once the outliers arrive.
  EXPECT_NEAR(calibrate(CalibrationAlgorithm::Percentile, values), 3.89, 0.1);
  double entropy = calibrate(CalibrationAlgorithm::Entropy, values);
  EXPECT_GT(entropy, 2.0);
  EXPECT_LT(entropy, 8.0);
}

TEST(CalibratorsTest, PercentileCutsTheRequestedShare) {
  // Magnitudes 0..999 evenly: the 90th percentile ends near 900.
  std::vector<float> values(1000);
  for (int i = 0; i < 1000; ++i)
    values[i] = i % 2 ? float(i) : -float(i);
  double amax = calibrate(CalibrationAlgorithm::Percentile, values, 1000, 90);
  EXPECT_NEAR(amax, 900.0, 999.0 / 2048 + 1);
}

// The first batch sets the resolution; later, larger batches double the
// range by merging bins, so counts are never lost.
TEST(CalibratorsTest, HistogramGrowsWithoutLosingCounts) {
  MagnitudeHistogram histogram;
  histogram.add({0.5f, -1.0f});
  EXPECT_DOUBLE_EQ(histogram.getBinWidth(), 1.0 / 2048);
  histogram.add({3.0f, std::numeric_limits<float>::infinity()});
  EXPECT_DOUBLE_EQ(histogram.getBinWidth(), 4.0 / 2048);
  uint64_t total = 0;
  for (uint64_t count : histogram.getCounts())
    total += count;
  EXPECT_EQ(total, 3u);
  // At 4 / 2048 per bin: 3.0 in bin 1536, 0.5 in 256, and 1.0, the first
  // range's maximum, in that range's top bin (now 511).
  EXPECT_EQ(histogram.getCounts()[1536], 1u);
  EXPECT_EQ(histogram.getCounts()[256], 1u);
  EXPECT_EQ(histogram.getCounts()[511], 1u);
}

TEST(CalibratorsTest, BatchSizeDecidesTheResolution) {
  // Small first batches see small values; the same data in one batch
  // starts at the full range. Both keep every count, so minmax agrees.
  std::vector<float> values = uniform(1 << 16, -1.0f, 1.0f);
  values.back() = 8.0f;
  EXPECT_DOUBLE_EQ(calibrate(CalibrationAlgorithm::MinMax, values, 16),
                   calibrate(CalibrationAlgorithm::MinMax, values, 1 << 16));
  EXPECT_DOUBLE_EQ(calibrate(CalibrationAlgorithm::MinMax, values, 16), 8.0);
}

TEST(CalibratorsTest, NaNsAreSkipped) {
  TensorObserver observer(CalibrationAlgorithm::MinMax);
  observer.observe({std::nanf(""), -3.0f, 2.0f});
  EXPECT_DOUBLE_EQ(observer.getMin(), -3.0);
  EXPECT_DOUBLE_EQ(observer.getMax(), 2.0);
  EXPECT_DOUBLE_EQ(observer.computeAmax(99.99), 3.0);
}

TEST(CalibratorsTest, AllZerosGiveZero) {
  std::vector<float> zeros(100, 0.0f);
  EXPECT_DOUBLE_EQ(calibrate(CalibrationAlgorithm::Entropy, zeros), 0.0);
}

} // namespace
