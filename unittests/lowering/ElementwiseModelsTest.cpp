//===- ElementwiseModelsTest.cpp - the two interfaces agree ---------------===//
//
// What the precision passes know of an op (PrecisionOpInterface) and what
// the emitter knows (ElementwiseExpressionOpInterface) must agree: an op
// the passes treat as elementwise has an expression, and an expression
// names exactly the op's data operands. The module below holds one op of
// every kind with an expression model; a model added without a line here
// fails the first test.
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseExpressionInterface.h"

#include "dialects/ExternalModels/PrecisionModels.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

using namespace mlir;
using namespace prec;

namespace {

constexpr llvm::StringLiteral kModule = R"(
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %p: tensor<4xi1>,
             %q: tensor<4xi1>, %i: tensor<4xi32>, %j: tensor<4xi32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.sub %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.mul %x, %y, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %3 = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %4 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = tosa.maximum %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %7 = tosa.minimum %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %8 = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %9 = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %10 = tosa.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  %11 = tosa.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  %12 = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  %13 = tosa.sin %x : (tensor<4xf32>) -> tensor<4xf32>
  %14 = tosa.cos %x : (tensor<4xf32>) -> tensor<4xf32>
  %15 = tosa.select %p, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %16 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %17 = tosa.log %x : (tensor<4xf32>) -> tensor<4xf32>
  %18 = tosa.pow %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %19 = tosa.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>
  %20 = tosa.rsqrt %x : (tensor<4xf32>) -> tensor<4xf32>
  %21 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %22 = precision.cast %x : tensor<4xf32> to tensor<4xf16>
  %23 = arith.divf %x, %y : tensor<4xf32>
  %24 = math.sqrt %x : tensor<4xf32>
  %25 = tosa.greater %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %26 = tosa.greater_equal %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %27 = tosa.equal %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %28 = tosa.logical_and %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %29 = tosa.logical_or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %30 = tosa.logical_xor %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %31 = tosa.logical_not %p : (tensor<4xi1>) -> tensor<4xi1>
  %32 = tosa.intdiv %i, %j : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
})";

class ElementwiseModelsTest : public ::testing::Test {
protected:
  ElementwiseModelsTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, tosa::TosaDialect, arith::ArithDialect,
                    math::MathDialect, precision::PrecisionDialect>();
    registerPrecisionExternalModels(registry);
    registerElementwiseExpressionModels(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kModule, &context);
  }

  /// The ops of the module's function that compute (not constants).
  SmallVector<Operation *> getComputingOps() {
    SmallVector<Operation *> ops;
    module->walk([&](Operation *op) {
      if (op->getNumResults() && !op->hasTrait<OpTrait::ConstantLike>())
        ops.push_back(op);
    });
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ElementwiseModelsTest, EveryExpressionModelIsExercisedHere) {
  ASSERT_TRUE(module);
  llvm::StringSet<> present;
  for (Operation *op : getComputingOps())
    present.insert(op->getName().getStringRef());
  for (RegisteredOperationName name : context.getRegisteredOperations())
    if (name.hasInterface<ElementwiseExpressionOpInterface>())
      EXPECT_TRUE(present.contains(name.getStringRef()))
          << name.getStringRef().str()
          << " has an expression model but no line in this test";
}

TEST_F(ElementwiseModelsTest, EveryElementwiseOpHasAnExpression) {
  ASSERT_TRUE(module);
  for (Operation *op : getComputingOps())
    EXPECT_TRUE(isa<ElementwiseExpressionOpInterface>(op))
        << op->getName().getStringRef().str();
  // The precision passes' classes for them: the same ops seen two ways.
  for (Operation *op : getComputingOps()) {
    OpClass opClass = classifyOp(op);
    EXPECT_TRUE(opClass == OpClass::Elementwise ||
                opClass == OpClass::Sensitive || opClass == OpClass::Cast ||
                opClass == OpClass::Other)
        << op->getName().getStringRef().str() << " is "
        << getOpClassName(opClass).str();
  }
}

TEST_F(ElementwiseModelsTest, AnExpressionNamesExactlyTheDataOperands) {
  ASSERT_TRUE(module);
  const std::regex placeholder(R"(\$([0-9]+))");
  for (Operation *op : getComputingOps()) {
    auto model = dyn_cast<ElementwiseExpressionOpInterface>(op);
    if (!model)
      continue;
    std::set<size_t> expected;
    for (size_t i = 0; i < getDataOperands(op).size(); ++i)
      expected.insert(i);
    for (const std::string &expression :
         {model.getElementwiseExpression(), model.getHalfExpression()}) {
      if (expression.empty())
        continue;
      std::set<size_t> named;
      for (std::sregex_iterator
               it(expression.begin(), expression.end(), placeholder),
           end;
           it != end; ++it)
        named.insert(std::stoul((*it)[1]));
      EXPECT_EQ(named, expected)
          << op->getName().getStringRef().str() << ": " << expression;
    }
  }
}

// Only the operations IEEE rounds exactly as rounding their f32 result run in
// 16-bit types: not division (the reciprocal's exactness is checked per
// divisor in f32), nor minimum/maximum (NaN rules differ), nor functions.
// A clamp has one on 16-bit types only (ClampOfHalfValues).
TEST_F(ElementwiseModelsTest, HalfExpressionsAreTheExactOperations) {
  ASSERT_TRUE(module);
  for (Operation *op : getComputingOps()) {
    auto model = dyn_cast<ElementwiseExpressionOpInterface>(op);
    if (!model)
      continue;
    bool exact = isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::NegateOp>(op);
    EXPECT_EQ(!model.getHalfExpression().empty(), exact)
        << op->getName().getStringRef().str();
  }
}

TEST_F(ElementwiseModelsTest, NonDataOperandsAreLeftOut) {
  ASSERT_TRUE(module);
  for (Operation *op : getComputingOps()) {
    if (isa<tosa::MulOp>(op))
      EXPECT_EQ(getDataOperands(op).size(), 2u);
    if (isa<tosa::NegateOp>(op))
      EXPECT_EQ(getDataOperands(op).size(), 1u);
  }
}

// A clamp's bounds as literals of its type: on f16 and bf16 it computes in
// that type (__hmax and __hmin); an unbounded top bound is left out, and an
// f32 clamp writes its bounds exactly.
TEST_F(ElementwiseModelsTest, ClampOfHalfValues) {
  OwningOpRef<ModuleOp> clamps = parseSourceString<ModuleOp>(R"(
func.func @f(%h: tensor<4xf16>, %b: tensor<4xbf16>, %x: tensor<4xf32>) {
  %0 = tosa.clamp %h {min_val = 0.0 : f16, max_val = 0x7C00 : f16} : (tensor<4xf16>) -> tensor<4xf16>
  %1 = tosa.clamp %b {min_val = -1.0 : bf16, max_val = 6.0 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
  %2 = tosa.clamp %x {min_val = 0.1 : f32, max_val = 0x7F800000 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
})",
                                                             &context);
  ASSERT_TRUE(clamps);
  SmallVector<ElementwiseExpressionOpInterface> ops;
  clamps->walk([&](tosa::ClampOp op) {
    ops.push_back(cast<ElementwiseExpressionOpInterface>(op.getOperation()));
  });
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].getHalfExpression(),
            "__hmax($0, __ushort_as_half((unsigned short)0x0U))");
  EXPECT_EQ(ops[0].getElementwiseExpression(), "fmaxf($0, 0x0p+0f)");
  EXPECT_EQ(ops[1].getHalfExpression(),
            "__hmin(__hmax($0, __ushort_as_bfloat16((unsigned short)0xbf80U)), "
            "__ushort_as_bfloat16((unsigned short)0x40c0U))");
  EXPECT_EQ(ops[1].getElementwiseExpression(),
            "fminf(fmaxf($0, -0x1p+0f), 0x1.8p+2f)");
  EXPECT_EQ(ops[2].getHalfExpression(), "");
  EXPECT_EQ(ops[2].getElementwiseExpression(), "fmaxf($0, 0x1.99999ap-4f)");
}

} // namespace
