//===- PrecisionTypesTest.cpp - precision types and target names ----------===//

#include "dialects/Precision/PrecisionTypes.h"
#include "dialects/Precision/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec::precision;

namespace {

TEST(PrecisionTypesTest, ParsesMlirAndFrameworkSpellings) {
  MLIRContext context;
  Builder builder(&context);
  EXPECT_EQ(parsePrecisionType(&context, "f16"), builder.getF16Type());
  EXPECT_EQ(parsePrecisionType(&context, "float16"), builder.getF16Type());
  EXPECT_EQ(parsePrecisionType(&context, "half"), builder.getF16Type());
  EXPECT_EQ(parsePrecisionType(&context, "float32"), builder.getF32Type());
  EXPECT_EQ(parsePrecisionType(&context, "bfloat16"), builder.getBF16Type());
  EXPECT_EQ(parsePrecisionType(&context, "int8"), builder.getI8Type());
  EXPECT_TRUE(isa<Float8E4M3FNType>(parsePrecisionType(&context, "fp8")));
  EXPECT_TRUE(isa<Float8E5M2Type>(parsePrecisionType(&context, "f8E5M2")));
  EXPECT_FALSE(parsePrecisionType(&context, "f64"));
  EXPECT_FALSE(parsePrecisionType(&context, "F16"));
  EXPECT_FALSE(parsePrecisionType(&context, ""));
}

TEST(PrecisionTypesTest, ClassifiesTypes) {
  MLIRContext context;
  Builder builder(&context);
  EXPECT_TRUE(isPrecisionType(builder.getBF16Type()));
  EXPECT_TRUE(isPrecisionType(builder.getI8Type()));
  EXPECT_FALSE(isPrecisionType(builder.getF64Type()));
  EXPECT_FALSE(isPrecisionType(builder.getI32Type()));
  EXPECT_FALSE(isPrecisionType(builder.getIntegerType(8, /*isSigned=*/false)));
  EXPECT_TRUE(isQuantizedPrecision(builder.getI8Type()));
  EXPECT_TRUE(isQuantizedPrecision(builder.getType<Float8E5M2Type>()));
  EXPECT_FALSE(isQuantizedPrecision(builder.getF16Type()));
}

TEST(PrecisionTypesTest, RepresentabilityFollowsExponentAndMantissa) {
  MLIRContext context;
  Builder builder(&context);
  Type f32 = builder.getF32Type(), f16 = builder.getF16Type(),
       bf16 = builder.getBF16Type(), e4m3 = builder.getType<Float8E4M3FNType>(),
       e5m2 = builder.getType<Float8E5M2Type>();
  EXPECT_TRUE(canRepresentAllValues(f32, f16));
  EXPECT_TRUE(canRepresentAllValues(f32, bf16));
  EXPECT_TRUE(canRepresentAllValues(f16, e4m3));
  EXPECT_TRUE(canRepresentAllValues(f16, e5m2));
  EXPECT_TRUE(canRepresentAllValues(bf16, e4m3));
  EXPECT_TRUE(canRepresentAllValues(f16, f16));
  // f16 lacks bf16's exponent range; bf16 lacks f16's mantissa.
  EXPECT_FALSE(canRepresentAllValues(f16, bf16));
  EXPECT_FALSE(canRepresentAllValues(bf16, f16));
  EXPECT_FALSE(canRepresentAllValues(f16, f32));
  EXPECT_FALSE(canRepresentAllValues(e4m3, e5m2));
  EXPECT_FALSE(canRepresentAllValues(f32, builder.getI8Type()));
}

TEST(TargetTest, ParsesCpuAndShippedArchitectures) {
  EXPECT_TRUE(parseTarget("cpu")->isCpu());
  EXPECT_EQ(parseTarget("sm_53")->computeCapability, 53u);
  EXPECT_EQ(parseTarget("sm_90a")->computeCapability, 90u);
  EXPECT_EQ(parseTarget("sm_120")->computeCapability, 120u);
  EXPECT_FALSE(parseTarget("sm_52"));
  EXPECT_FALSE(parseTarget("sm_99"));
  EXPECT_FALSE(parseTarget("sm_"));
  EXPECT_FALSE(parseTarget("sm_9x"));
  EXPECT_FALSE(parseTarget("gpu"));
  EXPECT_FALSE(parseTarget(""));
}

} // namespace
