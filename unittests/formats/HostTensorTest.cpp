//===- HostTensorTest.cpp - element conversions ---------------------------===//

#include "formats/HostTensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace prec;

namespace {

uint16_t bitsAt(const HostTensor &tensor, int64_t index) {
  uint16_t bits;
  std::memcpy(&bits, tensor.data.data() + 2 * index, 2);
  return bits;
}

TEST(HostTensorTest, HalfPrecisionRoundsToNearestEven) {
  HostTensor half(ElementKind::F16, {4});
  half.setFromDouble(0, 1.0 + std::ldexp(1.0, -11));     // tie: down to 1
  half.setFromDouble(1, 1.0 + 3 * std::ldexp(1.0, -11)); // tie: up
  half.setFromDouble(2, 65520);                          // tie: to infinity
  half.setFromDouble(3, std::ldexp(1.0, -25));           // tie: to zero
  EXPECT_EQ(bitsAt(half, 0), 0x3C00);
  EXPECT_EQ(bitsAt(half, 1), 0x3C02);
  EXPECT_EQ(bitsAt(half, 2), 0x7C00);
  EXPECT_EQ(bitsAt(half, 3), 0x0000);
  EXPECT_EQ(half.getAsDouble(1), 1.0 + std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isinf(half.getAsDouble(2)));
}

TEST(HostTensorTest, BFloat16KeepsTheUpperHalfOfF32) {
  HostTensor bf16(ElementKind::BF16, {2});
  bf16.setFromDouble(0, 1.0);
  bf16.setFromDouble(1, 257.0); // tie between 256 and 258: even is 256
  EXPECT_EQ(bitsAt(bf16, 0), 0x3F80);
  EXPECT_EQ(bf16.getAsDouble(1), 256.0);
}

TEST(HostTensorTest, IntegersSaturateAndRoundHalfToEven) {
  HostTensor i8(ElementKind::I8, {5});
  for (auto [index, value] : std::initializer_list<std::pair<int, double>>{
           {0, 300}, {1, -300}, {2, 2.5}, {3, -3.5}, {4, NAN}})
    i8.setFromDouble(index, value);
  EXPECT_EQ(i8.getAsDouble(0), 127);
  EXPECT_EQ(i8.getAsDouble(1), -128);
  EXPECT_EQ(i8.getAsDouble(2), 2);
  EXPECT_EQ(i8.getAsDouble(3), -4);
  EXPECT_EQ(i8.getAsDouble(4), 0);
}

TEST(HostTensorTest, ConvertToRoundsEachElementAndKeepsTheShape) {
  HostTensor f64(ElementKind::F64, {1, 3});
  for (auto [index, value] : std::initializer_list<std::pair<int, double>>{
           {0, 1.0 + std::ldexp(1.0, -11)}, {1, 70000}, {2, -2.5}})
    f64.setFromDouble(index, value);
  HostTensor half = f64.convertTo(ElementKind::F16);
  EXPECT_EQ(half.shape, f64.shape);
  EXPECT_EQ(bitsAt(half, 0), 0x3C00);
  EXPECT_TRUE(std::isinf(half.getAsDouble(1)));
  HostTensor i8 = f64.convertTo(ElementKind::I8);
  EXPECT_EQ(i8.getAsDouble(1), 127);
  EXPECT_EQ(i8.getAsDouble(2), -2);
  EXPECT_EQ(f64.convertTo(ElementKind::F64).data, f64.data);
}

TEST(HostTensorTest, ShapesAndSizes) {
  HostTensor tensor(ElementKind::I64, {2, 3});
  EXPECT_EQ(tensor.getNumElements(), 6);
  EXPECT_EQ(tensor.data.size(), 48u);
  EXPECT_EQ(tensor.formatShape(), "2x3");
  EXPECT_EQ(formatShape({}), "scalar");
}

} // namespace
