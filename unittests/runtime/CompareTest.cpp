//===- CompareTest.cpp - Polygraphy-style comparison ----------------------===//

#include "runtime/Compare.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace prec;

namespace {

HostTensor fromValues(std::vector<double> values) {
  HostTensor tensor(ElementKind::F32, {int64_t(values.size())});
  for (size_t i = 0; i < values.size(); ++i)
    tensor.setFromDouble(i, values[i]);
  return tensor;
}

TEST(CompareTest, ElementwisePassesWhereEitherToleranceHolds) {
  Tolerances tolerances;
  tolerances.atol = 0.1;
  tolerances.rtol = 0.01;
  // 1000 vs 1005: abs 5 > atol, rel 0.005 <= rtol; 0.5 vs 0.55: abs 0.05.
  ComparisonResult result = compareTensors(fromValues({1005, 0.55}),
                                           fromValues({1000, 0.5}), tolerances);
  EXPECT_TRUE(result.passed);
  EXPECT_DOUBLE_EQ(result.maxAbsolute, 5);
  EXPECT_EQ(result.worstIndex, std::vector<int64_t>{0});
  result = compareTensors(fromValues({1020, 0.5}), fromValues({1000, 0.5}),
                          tolerances);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.failingElements, 1);
}

TEST(CompareTest, StatisticsDecideInTheirModes) {
  Tolerances tolerances;
  tolerances.atol = 0.5;
  tolerances.rtol = 0;
  HostTensor expected = fromValues({0, 0, 0, 0, 0});
  HostTensor actual = fromValues({0, 0, 0, 0, 10});
  tolerances.stat = ErrorStat::Median;
  EXPECT_TRUE(compareTensors(actual, expected, tolerances).passed);
  tolerances.stat = ErrorStat::Mean;
  EXPECT_FALSE(compareTensors(actual, expected, tolerances).passed);
  EXPECT_DOUBLE_EQ(compareTensors(actual, expected, tolerances).meanAbsolute,
                   2);
  tolerances.stat = ErrorStat::Max;
  EXPECT_FALSE(compareTensors(actual, expected, tolerances).passed);
  tolerances.stat = ErrorStat::Quantile;
  tolerances.quantile = 0.5;
  EXPECT_TRUE(compareTensors(actual, expected, tolerances).passed);
  tolerances.quantile = 0.9; // 0.9 * 4 = 3.6: 0.6 of the way to 10
  EXPECT_DOUBLE_EQ(compareTensors(actual, expected, tolerances).checkedAbsolute,
                   6);
}

TEST(CompareTest, NonFiniteValues) {
  Tolerances tolerances;
  double inf = INFINITY;
  ComparisonResult result =
      compareTensors(fromValues({inf, 1}), fromValues({inf, 1}), tolerances);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actualInfs, 1);
  tolerances.infinitiesCompareEqual = true;
  EXPECT_TRUE(
      compareTensors(fromValues({inf, 1}), fromValues({inf, 1}), tolerances)
          .passed);
  EXPECT_FALSE(
      compareTensors(fromValues({-inf, 1}), fromValues({inf, 1}), tolerances)
          .passed);
  result = compareTensors(fromValues({NAN, 1}), fromValues({0, 1}), tolerances);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actualNaNs, 1);
  EXPECT_TRUE(std::isinf(result.maxAbsolute));
}

TEST(CompareTest, ShapeMismatchFails) {
  HostTensor wide(ElementKind::F32, {2, 2});
  HostTensor flat(ElementKind::F32, {4});
  ComparisonResult result = compareTensors(wide, flat, Tolerances());
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.mismatch, "shape 2x2 differs from the reference's 4");
}

} // namespace
