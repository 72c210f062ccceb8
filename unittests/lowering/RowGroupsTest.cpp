//===- RowGroupsTest.cpp - which ops one row kernel computes --------------===//

#include "lowering/RowGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

class RowGroupsTest : public ::testing::Test {
protected:
  RowGroupsTest() {
    context.loadDialect<func::FuncDialect, tosa::TosaDialect>();
  }

  /// The row groups of `source`'s function, with elementwise meaning the
  /// TOSA ops these tests use, every reduction allowed and `excluded` (by
  /// location name) computed elsewhere.
  std::vector<RowGroup> plan(const char *source, int64_t maxWidth = 8192,
                             llvm::StringRef excluded = "") {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto function = *module->getOps<func::FuncOp>().begin();
    return planRowGroups(
        function.getBody().front(), maxWidth,
        [](Operation *op) {
          return isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::ExpOp,
                     tosa::ReciprocalOp>(op);
        },
        [](Operation *) { return true; },
        [&](Operation *op) { return nameOf(op) == excluded; });
  }

  static std::string nameOf(Operation *op) {
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      return loc.getName().str();
    return "";
  }

  static std::vector<std::string> names(const RowGroup &group) {
    std::vector<std::string> result;
    for (Operation *op : group.ops)
      result.push_back(nameOf(op));
    return result;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// Softmax over rows of 16: max, shift, exp, sum, reciprocal, scale, and a
// reshape of the result between row shapes. The reshape at the end is left
// out: it launches nothing.
constexpr const char *softmax = R"mlir(
func.func @f(%x: tensor<2x3x16xf32>) -> tensor<6x16xf32> {
  %s = tosa.const_shape {values = dense<[6, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x3x16xf32>) -> tensor<2x3x1xf32> loc("max")
  %d = tosa.sub %x, %m : (tensor<2x3x16xf32>, tensor<2x3x1xf32>) -> tensor<2x3x16xf32> loc("shift")
  %e = tosa.exp %d : (tensor<2x3x16xf32>) -> tensor<2x3x16xf32> loc("exp")
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x3x16xf32>) -> tensor<2x3x1xf32> loc("sum")
  %r = tosa.reciprocal %sum : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32> loc("reciprocal")
  %p = tosa.mul %e, %r, %shift : (tensor<2x3x16xf32>, tensor<2x3x1xf32>, tensor<1xi8>) -> tensor<2x3x16xf32> loc("scale")
  %y = tosa.reshape %p, %s : (tensor<2x3x16xf32>, !tosa.shape<2>) -> tensor<6x16xf32> loc("reshape")
  return %y : tensor<6x16xf32>
}
)mlir";

TEST_F(RowGroupsTest, SoftmaxIsOneGroup) {
  std::vector<RowGroup> groups = plan(softmax);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].rows, 6);
  EXPECT_EQ(groups[0].width, 16);
  EXPECT_EQ(names(groups[0]),
            (std::vector<std::string>{"max", "shift", "exp", "sum",
                                      "reciprocal", "scale"}));
}

TEST_F(RowGroupsTest, RowsWiderThanTheLimitAreNotGrouped) {
  EXPECT_TRUE(plan(softmax, /*maxWidth=*/8).empty());
}

TEST_F(RowGroupsTest, AnExcludedOpEndsTheGroup) {
  // The shift is computed elsewhere: the max alone (a reduction) is a group
  // and the ops after the shift form another.
  std::vector<RowGroup> groups = plan(softmax, 8192, "shift");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(names(groups[0]), (std::vector<std::string>{"max"}));
  EXPECT_EQ(names(groups[1]),
            (std::vector<std::string>{"exp", "sum", "reciprocal", "scale"}));
}

TEST_F(RowGroupsTest, ElementwiseOnlyAndOtherAxesAreNotGroups) {
  // No reduction along the rows: nothing to gain over the fused
  // elementwise kernels. A sum over the middle axis is not a row reduction.
  std::vector<RowGroup> groups = plan(R"mlir(
func.func @f(%x: tensor<2x3x16xf32>) -> tensor<2x1x16xf32> {
  %e = tosa.exp %x : (tensor<2x3x16xf32>) -> tensor<2x3x16xf32> loc("exp")
  %a = tosa.add %e, %x : (tensor<2x3x16xf32>, tensor<2x3x16xf32>) -> tensor<2x3x16xf32> loc("add")
  %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x3x16xf32>) -> tensor<2x1x16xf32> loc("sum")
  return %s : tensor<2x1x16xf32>
}
)mlir");
  EXPECT_TRUE(groups.empty());
}

TEST_F(RowGroupsTest, AnOpOverOtherRowsStartsANewGroup) {
  // The first sum is over rows of 16, the add after it over rows of 3:
  // two groups, and the add's group has no reduction of its own until the
  // second sum joins it.
  std::vector<RowGroup> groups = plan(R"mlir(
func.func @f(%x: tensor<4x16xf32>, %y: tensor<16x3xf32>) -> (tensor<4x1xf32>, tensor<16x1xf32>) {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32> loc("sum16")
  %a = tosa.add %y, %y : (tensor<16x3xf32>, tensor<16x3xf32>) -> tensor<16x3xf32> loc("add")
  %t = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<16x3xf32>) -> tensor<16x1xf32> loc("sum3")
  return %s, %t : tensor<4x1xf32>, tensor<16x1xf32>
}
)mlir");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(names(groups[0]), (std::vector<std::string>{"sum16"}));
  EXPECT_EQ(groups[1].rows, 16);
  EXPECT_EQ(groups[1].width, 3);
  EXPECT_EQ(names(groups[1]), (std::vector<std::string>{"add", "sum3"}));
}

TEST_F(RowGroupsTest, ValueKinds) {
  module = parseSourceString<ModuleOp>(softmax, &context);
  auto function = *module->getOps<func::FuncOp>().begin();
  Value x = function.getArgument(0);
  EXPECT_EQ(getRowValueKind(x, 6, 16), RowValueKind::Full);
  EXPECT_EQ(getRowValueKind(x, 3, 16), RowValueKind::Other);
  Operation &max = *std::next(function.getBody().front().begin(), 2);
  EXPECT_EQ(getRowValueKind(max.getResult(0), 6, 16), RowValueKind::PerRow);
}

// A LayerNorm-like group over f16 rows of 8 read from an f32 row: its runs
// are sized by the widest element among what it reads as rows or row
// vectors (the f32 input, 4 bytes); a per-row value and a float splat do
// not count, and neither do the values it computes and keeps.
TEST_F(RowGroupsTest, RunElementBytes) {
  std::vector<RowGroup> groups = plan(R"mlir(
func.func @f(%x: tensor<4x8xf32>, %g: tensor<1x8xf16>, %h: tensor<8xf16>) -> (tensor<4x8xf16>, tensor<4x1xf16>) {
  %c = "tosa.const"() <{values = dense<2.0> : tensor<4x8xf16>}> : () -> tensor<4x8xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("wide")
  %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32> loc("sum")
  %n = tosa.sub %a, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32> loc("center")
  %b = tosa.exp %g : (tensor<1x8xf16>) -> tensor<1x8xf16> loc("outside")
  %m = tosa.sub %c, %b : (tensor<4x8xf16>, tensor<1x8xf16>) -> tensor<4x8xf16> loc("narrow")
  %t = tosa.reduce_sum %m {axis = 1 : i32} : (tensor<4x8xf16>) -> tensor<4x1xf16> loc("narrow_sum")
  %u = tosa.mul %m, %t, %shift : (tensor<4x8xf16>, tensor<4x1xf16>, tensor<1xi8>) -> tensor<4x8xf16> loc("scaled")
  return %u, %t : tensor<4x8xf16>, tensor<4x1xf16>
}
)mlir");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(getRowRunElementBytes(getRowRunValues(groups[0]).getArrayRef()), 4);
  // The second reads the f16 row vector and writes f16 rows.
  EXPECT_EQ(names(groups[1]),
            (std::vector<std::string>{"narrow", "narrow_sum", "scaled"}));
  // What it moves as runs: the row vector it reads, the rows it writes.
  llvm::SetVector<Value> runs = getRowRunValues(groups[1]);
  EXPECT_EQ(getRowRunElementBytes(runs.getArrayRef()), 2);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(nameOf(runs[0].getDefiningOp()), "outside");
  EXPECT_EQ(nameOf(runs[1].getDefiningOp()), "scaled");
  auto function = *module->getOps<func::FuncOp>().begin();
  EXPECT_TRUE(isRowVector(function.getArgument(1), 8));
  EXPECT_TRUE(isRowVector(function.getArgument(2), 8));
  EXPECT_FALSE(isRowVector(function.getArgument(0), 8));
  EXPECT_FALSE(isRowVector(function.getArgument(2), 4));
}

// Threads for rows in runs: as for a row of that many elements, doubled
// while a thread would hold more than 32 elements, up to 256.
TEST(RowRunThreadsTest, Threads) {
  EXPECT_EQ(getRowRunThreads(96, 8), 32);    // BERT-base's 768 f16
  EXPECT_EQ(getRowRunThreads(512, 8), 128);  // 4096 f16: 32 elements each
  EXPECT_EQ(getRowRunThreads(1024, 4), 128); // 4096 f32
  EXPECT_EQ(getRowRunThreads(1024, 8), 256); // 8192 f16: not 64 each
  EXPECT_EQ(getRowRunThreads(2048, 8), 256); // at most 256
}

} // namespace
