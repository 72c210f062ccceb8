//===- RegionBoundariesTest.cpp - values across region boundaries ---------===//

#include "dialects/Utils/RegionBoundaries.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

constexpr llvm::StringLiteral kModule = R"(
func.func @f(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r = precision.region f16 (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %s = precision.region bf16 (%b = %a : tensor<4xf32>) -> tensor<4xf32> {
      %y = tosa.abs %b {inner} : (tensor<4xf32>) -> tensor<4xf32>
      precision.yield %y : tensor<4xf32>
    }
    precision.yield %s : tensor<4xf32>
  }
  %e = scf.execute_region -> tensor<4xf32> {
    %z = tosa.abs %x {executed} : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %x) -> tensor<4xf32> {
    %w = tosa.abs %carried {looped} : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  return %r, %e, %l : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
})";

class RegionBoundariesTest : public ::testing::Test {
protected:
  RegionBoundariesTest() {
    context.loadDialect<func::FuncDialect, tosa::TosaDialect,
                        arith::ArithDialect, scf::SCFDialect,
                        precision::PrecisionDialect>();
    module = parseSourceString<ModuleOp>(kModule, &context);
    function = cast<func::FuncOp>(module->getBody()->front());
  }

  /// The tosa.abs carrying the unit attribute `marker`.
  Operation *getAbs(llvm::StringRef marker) {
    Operation *found = nullptr;
    function.walk([&](tosa::AbsOp abs) {
      if (abs->hasAttr(marker))
        found = abs;
    });
    return found;
  }

  Value getReturned(unsigned index) {
    return function.getBody().front().getTerminator()->getOperand(index);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp function;
};

TEST_F(RegionBoundariesTest, AnArgumentOfNestedRegionsStandsForTheOperand) {
  ASSERT_TRUE(module);
  Value innerArgument = getAbs("inner")->getOperand(0);
  ASSERT_TRUE(isa<BlockArgument>(innerArgument));
  EXPECT_EQ(lookThroughRegions(innerArgument), function.getArgument(0));
}

TEST_F(RegionBoundariesTest, AResultOfNestedRegionsStandsForTheYield) {
  ASSERT_TRUE(module);
  EXPECT_EQ(lookThroughRegions(getReturned(0)),
            getAbs("inner")->getResult(0));
}

TEST_F(RegionBoundariesTest, AnyRegionBranchWithOneSourceIsSeenThrough) {
  ASSERT_TRUE(module);
  EXPECT_EQ(lookThroughRegions(getReturned(1)),
            getAbs("executed")->getResult(0));
}

TEST_F(RegionBoundariesTest, ALoopCarriedValueHasTwoSourcesAndStays) {
  ASSERT_TRUE(module);
  Value carried = getAbs("looped")->getOperand(0);
  EXPECT_EQ(lookThroughRegions(carried), carried);
  EXPECT_EQ(lookThroughRegions(getReturned(2)), getReturned(2));
}

TEST_F(RegionBoundariesTest, OtherValuesStandForThemselves) {
  ASSERT_TRUE(module);
  Value abs = getAbs("inner")->getResult(0);
  EXPECT_EQ(lookThroughRegions(abs), abs);
  EXPECT_EQ(lookThroughRegions(function.getArgument(0)),
            function.getArgument(0));
}

} // namespace
