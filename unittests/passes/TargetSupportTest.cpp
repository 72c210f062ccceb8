//===- TargetSupportTest.cpp - the target support table -------------------===//

#include "passes/TargetSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;
using precision::parseTarget;

namespace {

class TargetSupportTest : public ::testing::Test {
protected:
  MLIRContext context;
  Builder builder{&context};
  Type f32 = builder.getF32Type(), f16 = builder.getF16Type(),
       bf16 = builder.getBF16Type(), i8 = builder.getI8Type(),
       e4m3 = builder.getType<Float8E4M3FNType>();
};

TEST_F(TargetSupportTest, ArchitecturesBringTypes) {
  auto sm53 = *parseTarget("sm_53"), sm61 = *parseTarget("sm_61"),
       sm75 = *parseTarget("sm_75"), sm80 = *parseTarget("sm_80"),
       sm89 = *parseTarget("sm_89");
  EXPECT_TRUE(isSupported(sm53, OpClass::Elementwise, f16));
  EXPECT_FALSE(isSupported(sm53, OpClass::Contraction, i8));
  EXPECT_TRUE(isSupported(sm61, OpClass::Contraction, i8));
  EXPECT_FALSE(isSupported(sm75, OpClass::Elementwise, bf16));
  EXPECT_TRUE(isSupported(sm80, OpClass::Elementwise, bf16));
  EXPECT_FALSE(isSupported(sm80, OpClass::Contraction, e4m3));
  EXPECT_TRUE(isSupported(sm89, OpClass::Contraction, e4m3));
  // Scaled types have no transcendental or summing implementations.
  EXPECT_FALSE(isSupported(sm89, OpClass::Sensitive, e4m3));
  EXPECT_FALSE(isSupported(sm89, OpClass::Elementwise, i8));
  EXPECT_TRUE(isSupported(sm53, OpClass::Sensitive, f32));
}

TEST_F(TargetSupportTest, CpuRunsWhatPrecImplements) {
  auto cpu = *parseTarget("cpu");
  for (Type type : {f32, f16, bf16})
    EXPECT_TRUE(isSupported(cpu, OpClass::Elementwise, type));
  for (Type type : {i8, e4m3}) {
    EXPECT_TRUE(isSupported(cpu, OpClass::Contraction, type));
    EXPECT_FALSE(isSupported(cpu, OpClass::Elementwise, type));
  }
}

// i8 and f8 have scales for contractions only: a layer's transposes and
// pooling pinned with it fall back.
TEST_F(TargetSupportTest, QuantizedTypesAreForContractions) {
  auto sm90 = *parseTarget("sm_90");
  EXPECT_TRUE(isSupported(sm90, OpClass::Contraction, i8));
  EXPECT_FALSE(isSupported(sm90, OpClass::DataMovement, i8));
  EXPECT_FALSE(isSupported(sm90, OpClass::Pooling, e4m3));
  EXPECT_EQ(getFallbackType(sm90, OpClass::DataMovement, i8), f16);
}

TEST_F(TargetSupportTest, FallbackIsTheNearestWiderSupportedType) {
  auto sm53 = *parseTarget("sm_53"), sm75 = *parseTarget("sm_75"),
       sm80 = *parseTarget("sm_80");
  // bf16 does not fit in f16: f32.
  EXPECT_EQ(getFallbackType(sm75, OpClass::Elementwise, bf16), f32);
  // i8 values fit in f16.
  EXPECT_EQ(getFallbackType(sm53, OpClass::Contraction, i8), f16);
  // f8E4M3FN fits in f16.
  EXPECT_EQ(getFallbackType(sm80, OpClass::Contraction, e4m3), f16);
  EXPECT_EQ(getFallbackType(sm80, OpClass::Elementwise, f16), f32);
}

TEST_F(TargetSupportTest, ExplanationsNameWhatIsMissing) {
  EXPECT_EQ(
      explainUnsupported(*parseTarget("sm_75"), OpClass::Elementwise, bf16),
      "bf16 arithmetic needs sm_80 or later; the target is sm_75");
  EXPECT_EQ(explainUnsupported(*parseTarget("sm_90"), OpClass::Sensitive, i8),
            "no i8 implementation exists for sensitive ops");
}

} // namespace
