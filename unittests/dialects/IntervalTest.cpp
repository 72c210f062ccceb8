//===- IntervalTest.cpp - interval arithmetic and range facts -------------===//

#include "dialects/Precision/Interval.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace prec;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(IntervalTest, ArithmeticCoversEverySignCombination) {
  Interval a{-2, 3}, b{-5, 4};
  EXPECT_EQ(a + b, (Interval{-7, 7}));
  EXPECT_EQ(a - b, (Interval{-6, 8}));
  EXPECT_EQ(a * b, (Interval{-15, 12}));
  EXPECT_EQ(scale(a, 4), (Interval{-8, 12}));
  EXPECT_EQ((Interval{-3, -1}) * (Interval{-2, -1}), (Interval{1, 6}));
}

TEST(IntervalTest, ZeroTimesInfinityIsZero) {
  // A zero weight bounds its term even when the activation is unbounded.
  EXPECT_EQ(Interval::unknown() * Interval::point(0), (Interval{0, 0}));
  EXPECT_EQ(boundedProduct(0, kInf), 0);
  EXPECT_TRUE((Interval::unknown() + Interval{1, 2}).isUnknown());
}

TEST(IntervalTest, JoinClipAndMonotoneMaps) {
  EXPECT_EQ((Interval{1, 2}).join(Interval{-1, 0}), (Interval{-1, 2}));
  EXPECT_EQ((Interval{-5, 5}).clip(0, 6), (Interval{0, 5}));
  Interval exp =
      (Interval{0, 1}).mapMonotone([](double x) { return std::exp(x); });
  EXPECT_DOUBLE_EQ(exp.lo, 1);
  EXPECT_DOUBLE_EQ(exp.hi, std::exp(1.0));
  EXPECT_EQ((Interval{-7, 3}).maxMagnitude(), 7);
}

TEST(IntervalTest, OverflowFactsNeedKnownBounds) {
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  mlir::Type f16 = builder.getF16Type(), bf16 = builder.getBF16Type();
  EXPECT_EQ(getLargestFinite(f16), 65504);
  EXPECT_TRUE(overflows({65505, 65506}, f16));
  EXPECT_TRUE(overflows({-70000, 0}, f16));
  EXPECT_FALSE(overflows({-65504, 65504}, f16));
  EXPECT_FALSE(overflows({65505, 65506}, bf16));
  // Unbounded ends are no evidence...
  EXPECT_FALSE(overflows({0, kInf}, f16));
  EXPECT_FALSE(overflows(Interval::unknown(), f16));
  // ...unless every value lies beyond the largest finite one.
  EXPECT_TRUE(overflows({70000, kInf}, f16));
  // An infinity is a value f16 and bf16 hold; f8 E4M3FN and i8 do not.
  EXPECT_FALSE(overflows(Interval::point(-kInf), f16));
  EXPECT_FALSE(overflows(Interval::point(kInf), bf16));
  EXPECT_TRUE(
      overflows(Interval::point(-kInf), mlir::Float8E4M3FNType::get(&context)));
  EXPECT_TRUE(overflows(Interval::point(-kInf), builder.getI8Type()));
}

TEST(IntervalTest, EachFormatHasItsOwnLimits) {
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  mlir::Type e4m3 = mlir::Float8E4M3FNType::get(&context);
  mlir::Type e5m2 = mlir::Float8E5M2Type::get(&context);
  // Asked in turn, and again: each format's limits, not the last one's.
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(getLargestFinite(builder.getF16Type()), 65504);
    EXPECT_EQ(getLargestFinite(e4m3), 448);
    EXPECT_EQ(getLargestFinite(e5m2), 57344);
    EXPECT_EQ(getLargestFinite(builder.getBF16Type()), 0x1.FEp127);
    EXPECT_EQ(getLargestFinite(builder.getF32Type()), 0x1.FFFFFEp127);
    EXPECT_TRUE(underflows({1e-3, 1e-3}, e4m3)); // smallest normal 2^-6
    EXPECT_FALSE(underflows({1e-3, 1e-3}, builder.getF16Type()));
  }
}

TEST(IntervalTest, OverflowEverywhereNeedsTheWholeRangeBeyond) {
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  mlir::Type f16 = builder.getF16Type();
  EXPECT_TRUE(overflowsEverywhere({65505, 65506}, f16));
  EXPECT_TRUE(overflowsEverywhere({-kInf, -70000}, f16));
  EXPECT_TRUE(overflowsEverywhere(Interval::point(-3.4e38), f16));
  EXPECT_FALSE(overflowsEverywhere({-70000, 0}, f16));
  EXPECT_FALSE(overflowsEverywhere({60000, 70000}, f16));
  EXPECT_FALSE(overflowsEverywhere({65505, 65506}, builder.getF32Type()));
  EXPECT_FALSE(overflowsEverywhere(Interval::point(-kInf), f16));
  EXPECT_TRUE(overflowsEverywhere(Interval::point(-kInf),
                                  mlir::Float8E4M3FNType::get(&context)));
}

TEST(IntervalTest, UnderflowMeansBelowTheSmallestNormal) {
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  mlir::Type f16 = builder.getF16Type(), f32 = builder.getF32Type();
  EXPECT_TRUE(underflows({1e-7, 2e-6}, f16));
  EXPECT_TRUE(underflows({-1e-5, 1e-5}, f16));
  EXPECT_FALSE(underflows({0, 0}, f16));
  EXPECT_FALSE(underflows({0, 1}, f16));
  EXPECT_FALSE(underflows({1e-7, 2e-6}, f32));
}

} // namespace
