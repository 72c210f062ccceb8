//===- PlanFileTest.cpp - precision plan parsing --------------------------===//

#include "formats/PlanFile.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

std::string errorOf(llvm::Expected<PrecisionPlan> plan) {
  if (plan)
    return "";
  return llvm::toString(plan.takeError());
}

TEST(PlanFileTest, ParsesOpsAndClasses) {
  MLIRContext context;
  llvm::Expected<PrecisionPlan> plan = parsePlan(R"({
    "version": 1,
    "ops": [{"name": "layer*", "op": "tosa.add", "compute": "float16",
             "accumulate": "f32", "output": "f32", "mode": "obey"},
            {"op": "tosa.exp", "output": "bf16"}],
    "classes": [{"class": "contraction", "compute": "bf16"}]
  })",
                                                 &context);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  ASSERT_EQ(plan->ops.size(), 2u);
  const PlanOpEntry &first = plan->ops[0];
  ASSERT_TRUE(first.name && first.opName);
  EXPECT_TRUE(first.name->match("layer3"));
  EXPECT_TRUE(first.request.compute.isF16());
  EXPECT_TRUE(first.request.accumulate.isF32());
  EXPECT_TRUE(first.request.output.isF32());
  EXPECT_EQ(first.request.mode, precision::ConstraintMode::Obey);
  const PlanOpEntry &second = plan->ops[1];
  EXPECT_FALSE(second.name);
  EXPECT_FALSE(second.request.compute);
  EXPECT_TRUE(second.request.output.isBF16());
  EXPECT_FALSE(second.request.mode);
  ASSERT_EQ(plan->classes.size(), 1u);
  EXPECT_EQ(plan->classes[0].opClass, OpClass::Contraction);
}

TEST(PlanFileTest, SerializesWhatItParses) {
  MLIRContext context;
  const char *text = R"({
  "version": 1,
  "ops": [
    {
      "name": "layer\\*",
      "op": "tosa.add",
      "compute": "f16",
      "accumulate": "f32",
      "output": "f32",
      "mode": "obey"
    },
    {
      "op": "tosa.exp",
      "output": "f8E4M3FN"
    }
  ],
  "classes": [
    {
      "class": "contraction",
      "compute": "bf16",
      "mode": "none"
    }
  ]
}
)";
  llvm::Expected<PrecisionPlan> plan = parsePlan(text, &context);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(serializePlan(*plan), text);
}

TEST(PlanFileTest, ErrorsSayWhere) {
  MLIRContext context;
  EXPECT_EQ(errorOf(parsePlan("[]", &context)),
            "must be an object when parsing plan");
  EXPECT_EQ(errorOf(parsePlan(R"({"ops": []})", &context)),
            "must be 1 at plan.version");
  EXPECT_EQ(errorOf(parsePlan(R"({"version": 1, "layers": []})", &context)),
            "unknown key at plan.layers; expected version, ops, classes");
  EXPECT_EQ(errorOf(parsePlan(R"({"version": 1, "ops": {}})", &context)),
            "must be an array at plan.ops");
  EXPECT_EQ(
      errorOf(parsePlan(R"({"version": 1, "ops": [{"name": "A"}]})", &context)),
      "needs 'compute' or 'output' at plan.ops[0]");
  EXPECT_EQ(errorOf(parsePlan(
                R"({"version": 1, "ops": [{"name": 3, "compute": "f16"}]})",
                &context)),
            "must be a string at plan.ops[0].name");
  EXPECT_EQ(
      errorOf(parsePlan(R"({"version": 1, "classes": [{"compute": "f16"}]})",
                        &context)),
      "needs 'class' at plan.classes[0]");
  EXPECT_NE(
      errorOf(parsePlan(R"({"version": 1,)", &context)).find("not valid JSON"),
      std::string::npos);
}

TEST(PlanFileTest, MissingFileIsAnError) {
  MLIRContext context;
  std::string error = errorOf(loadPlanFile("/nonexistent/plan.json", &context));
  EXPECT_NE(error.find("cannot read plan file '/nonexistent/plan.json'"),
            std::string::npos)
      << error;
}

} // namespace
