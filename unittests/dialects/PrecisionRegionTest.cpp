//===- PrecisionRegionTest.cpp - building precision regions in C++ --------===//

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec::precision;

namespace {

class PrecisionRegionTest : public ::testing::Test {
protected:
  PrecisionRegionTest() : builder(&context) {
    context.loadDialect<PrecisionDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    tensorType = RankedTensorType::get({4, 8}, builder.getF32Type());
    auto function =
        func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                             builder.getFunctionType({tensorType}, {}));
    Block *entry = function.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    argument = entry->getArgument(0);
  }

  /// Verifies the module and returns the diagnostics it produced.
  std::string verifyAndCollectErrors() {
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      errors += diagnostic.str();
      return success();
    });
    (void)verify(*module);
    return errors;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  RankedTensorType tensorType;
  Value argument;
};

TEST_F(PrecisionRegionTest, BuilderMirrorsOperandsAsBlockArguments) {
  auto region =
      RegionOp::create(builder, builder.getUnknownLoc(), TypeRange{tensorType},
                       ValueRange{argument}, builder.getF16Type());
  ASSERT_EQ(region.getBodyBlock().getNumArguments(), 1u);
  EXPECT_EQ(region.getBodyBlock().getArgument(0).getType(), tensorType);

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&region.getBodyBlock());
  YieldOp::create(builder, builder.getUnknownLoc(),
                  region.getBodyBlock().getArgument(0));
  builder.setInsertionPointAfter(region);
  func::ReturnOp::create(builder, builder.getUnknownLoc());

  EXPECT_EQ(verifyAndCollectErrors(), "");
  EXPECT_EQ(region.getPrecision(), builder.getF16Type());
  EXPECT_FALSE(region.getMode().has_value());
  EXPECT_FALSE(region.getAccumulate().has_value());
  EXPECT_FALSE(region.hasDynamicRanges());
  EXPECT_EQ(region.getYield().getValues().size(), 1u);
}

TEST_F(PrecisionRegionTest, OptionalAttributesReadBack) {
  auto region = RegionOp::create(builder, builder.getUnknownLoc(), TypeRange{},
                                 ValueRange{argument}, builder.getI8Type());
  region.setMode(ConstraintMode::Obey);
  region.setOutput(builder.getF16Type());
  region.setInputMinAttr(builder.getF64FloatAttr(-6.0));
  region.setInputMaxAttr(builder.getF64FloatAttr(6.0));
  region.setOutputMinAttr(builder.getF64FloatAttr(0.0));
  region.setOutputMaxAttr(builder.getF64FloatAttr(2.5));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&region.getBodyBlock());
    YieldOp::create(builder, builder.getUnknownLoc(), ValueRange{});
  }
  func::ReturnOp::create(builder, builder.getUnknownLoc());

  EXPECT_EQ(verifyAndCollectErrors(), "");
  EXPECT_EQ(region.getMode(), ConstraintMode::Obey);
  EXPECT_EQ(region.getOutput(), builder.getF16Type());
  ASSERT_TRUE(region.hasDynamicRanges());
  EXPECT_DOUBLE_EQ(region.getInputMin()->convertToDouble(), -6.0);
  EXPECT_DOUBLE_EQ(region.getOutputMax()->convertToDouble(), 2.5);
}

TEST_F(PrecisionRegionTest, VerifierRejectsYieldOfTheWrongType) {
  auto region =
      RegionOp::create(builder, builder.getUnknownLoc(), TypeRange{tensorType},
                       ValueRange{argument}, builder.getF16Type());
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&region.getBodyBlock());
    YieldOp::create(builder, builder.getUnknownLoc(), ValueRange{});
  }
  func::ReturnOp::create(builder, builder.getUnknownLoc());

  EXPECT_EQ(verifyAndCollectErrors(),
            "'precision.yield' op yields 0 values but the enclosing "
            "precision.region has 1 results");
}

TEST_F(PrecisionRegionTest, VerifierRejectsNarrowAccumulate) {
  auto region = RegionOp::create(builder, builder.getUnknownLoc(), TypeRange{},
                                 ValueRange{argument}, builder.getF16Type());
  region.setAccumulate(builder.getBF16Type());
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&region.getBodyBlock());
    YieldOp::create(builder, builder.getUnknownLoc(), ValueRange{});
  }
  func::ReturnOp::create(builder, builder.getUnknownLoc());

  EXPECT_EQ(verifyAndCollectErrors(),
            "'precision.region' op accumulate type 'bf16' is narrower than "
            "precision 'f16': it cannot hold every 'f16' value");
}

} // namespace
