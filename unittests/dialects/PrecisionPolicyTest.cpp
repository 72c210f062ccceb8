//===- PrecisionPolicyTest.cpp - the module policy attribute --------------===//

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec::precision;

namespace {

class PrecisionPolicyTest : public ::testing::Test {
protected:
  PrecisionPolicyTest() { context.loadDialect<PrecisionDialect>(); }

  /// Parses `text` as an attribute; on failure returns null and keeps the
  /// diagnostic in `lastError`.
  PolicyAttr parsePolicy(StringRef text) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      lastError = diagnostic.str();
      return success();
    });
    return dyn_cast_or_null<PolicyAttr>(parseAttribute(text, &context));
  }

  MLIRContext context;
  std::string lastError;
};

TEST_F(PrecisionPolicyTest, DefaultsAreWeakPreferCpu) {
  PolicyAttr policy = parsePolicy("#precision.policy<>");
  ASSERT_TRUE(policy);
  EXPECT_EQ(policy.getTyping(), TypingMode::Weak);
  EXPECT_TRUE(policy.getEnabled().empty());
  EXPECT_EQ(policy.getConstraints(), ConstraintMode::Prefer);
  EXPECT_EQ(policy.getTarget(), "cpu");
}

TEST_F(PrecisionPolicyTest, ParsesEveryKeyInAnyOrder) {
  PolicyAttr policy = parsePolicy(
      "#precision.policy<target = \"sm_89\", enabled = [f8E4M3FN, f16], "
      "constraints = obey, typing = strong>");
  ASSERT_TRUE(policy);
  Builder builder(&context);
  EXPECT_EQ(policy.getTyping(), TypingMode::Strong);
  EXPECT_EQ(policy.getConstraints(), ConstraintMode::Obey);
  EXPECT_EQ(policy.getTarget(), "sm_89");
  ASSERT_EQ(policy.getEnabled().size(), 2u);
  EXPECT_EQ(policy.getEnabled()[1], builder.getF16Type());
}

TEST_F(PrecisionPolicyTest, F32IsAlwaysEnabled) {
  Builder builder(&context);
  PolicyAttr policy = parsePolicy("#precision.policy<enabled = [bf16]>");
  ASSERT_TRUE(policy);
  EXPECT_TRUE(policy.isEnabled(builder.getF32Type()));
  EXPECT_TRUE(policy.isEnabled(builder.getBF16Type()));
  EXPECT_FALSE(policy.isEnabled(builder.getF16Type()));
  EXPECT_FALSE(policy.isEnabled(builder.getI8Type()));
}

TEST_F(PrecisionPolicyTest, PrintsEveryKey) {
  Builder builder(&context);
  auto policy = PolicyAttr::get(&context, TypingMode::Weak,
                                {builder.getF16Type(), builder.getI8Type()},
                                ConstraintMode::None, "sm_75");
  std::string printed;
  llvm::raw_string_ostream(printed) << Attribute(policy);
  EXPECT_EQ(printed, "#precision.policy<typing = weak, enabled = [f16, i8], "
                     "constraints = none, target = \"sm_75\">");
  EXPECT_EQ(parsePolicy(printed), policy);
}

TEST_F(PrecisionPolicyTest, RejectsUnknownTargetWithTheAcceptedNames) {
  EXPECT_FALSE(parsePolicy("#precision.policy<target = \"gfx90a\">"));
  EXPECT_NE(lastError.find("unknown target 'gfx90a'; expected cpu, sm_53"),
            std::string::npos)
      << lastError;
}

TEST_F(PrecisionPolicyTest, RejectsUnsupportedEnabledType) {
  EXPECT_FALSE(parsePolicy("#precision.policy<enabled = [f64]>"));
  EXPECT_NE(lastError.find("enabled precision 'f64' is not one of"),
            std::string::npos)
      << lastError;
}

} // namespace
