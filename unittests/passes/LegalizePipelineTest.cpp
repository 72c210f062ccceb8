//===- LegalizePipelineTest.cpp - the legalize pipeline's builder ---------===//

#include "passes/Passes.h"

#include "dialects/ExternalModels/PrecisionModels.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

constexpr llvm::StringLiteral kModel = R"(
func.func @main(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32> loc("Abs")
  return %a : tensor<4xf32>
})";

class LegalizePipelineTest : public ::testing::Test {
protected:
  LegalizePipelineTest() {
    DialectRegistry registry;
    registerPrecisionExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<func::FuncDialect, tosa::TosaDialect,
                        precision::PrecisionDialect>();
    // The missing plan file's error is what one test expects.
    context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    options.enabled = {"f16"};
    options.plan = "/nonexistent/plan.json";
  }

  /// The element type of Abs's result once legalized, or null on failure.
  Type legalizeAbs(const LegalizeInputs &inputs) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kModel, &context);
    if (!module || failed(runLegalizePipeline(*module, options, inputs)))
      return Type();
    Type type;
    module->walk(
        [&](tosa::AbsOp abs) { type = getElementTypeOrSelf(abs.getType()); });
    return type;
  }

  MLIRContext context;
  std::string diagnostics;
  LegalizePipelineOptions options;
};

TEST_F(LegalizePipelineTest, AGivenPlanReplacesThePlanFile) {
  PrecisionPlan plan;
  PlanOpEntry entry;
  entry.name = llvm::cantFail(NamePattern::create("Abs"));
  entry.request.compute = entry.request.output = Float16Type::get(&context);
  plan.ops.push_back(std::move(entry));
  LegalizeInputs inputs;
  inputs.plan = std::make_shared<const PrecisionPlan>(std::move(plan));
  Type type = legalizeAbs(inputs);
  ASSERT_TRUE(type) << diagnostics;
  EXPECT_TRUE(type.isF16());
}

TEST_F(LegalizePipelineTest, WithoutAGivenPlanThePlanFileIsRead) {
  EXPECT_FALSE(legalizeAbs(LegalizeInputs()));
  EXPECT_NE(diagnostics.find("cannot read plan file '/nonexistent/plan.json'"),
            std::string::npos)
      << diagnostics;
}

} // namespace
