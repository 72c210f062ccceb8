//===- OpNamesTest.cpp - the names ops and bindings are known by ----------===//

#include "dialects/Utils/OpNames.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class OpNamesTest : public ::testing::Test {
protected:
  Location named(StringRef name) {
    return NameLoc::get(StringAttr::get(&context, name), unknown());
  }
  Location file() { return FileLineColLoc::get(&context, "m.onnx", 3, 7); }
  Location unknown() { return UnknownLoc::get(&context); }

  MLIRContext context;
};

TEST_F(OpNamesTest, NameLocGivesItsName) {
  EXPECT_EQ(prec::getLocationName(named("conv1")), "conv1");
  EXPECT_EQ(prec::getLocationNameAttr(named("conv1")).getValue(), "conv1");
}

TEST_F(OpNamesTest, LocationsWithoutANameGiveNothing) {
  EXPECT_EQ(prec::getLocationName(file()), "");
  EXPECT_EQ(prec::getLocationName(unknown()), "");
  EXPECT_FALSE(prec::getLocationNameAttr(file()));
  EXPECT_EQ(prec::getLocationName(FusedLoc::get(&context, {file(), unknown()})),
            "");
}

TEST_F(OpNamesTest, FusedLocationsGiveTheirFirstName) {
  Location fused = FusedLoc::get(&context, {file(), named("a"), named("b")});
  EXPECT_EQ(prec::getLocationName(fused), "a");
  // Nested fusions are searched depth first, in order.
  Location nested = FusedLoc::get(
      &context,
      {FusedLoc::get(&context, {file(), named("inner")}), named("outer")});
  EXPECT_EQ(prec::getLocationName(nested), "inner");
}

TEST_F(OpNamesTest, CallSitesGiveTheCalleeNameBeforeTheCaller) {
  EXPECT_EQ(
      prec::getLocationName(CallSiteLoc::get(named("callee"), named("caller"))),
      "callee");
  EXPECT_EQ(prec::getLocationName(CallSiteLoc::get(file(), named("caller"))),
            "caller");
}

TEST_F(OpNamesTest, OpaqueLocationsGiveTheirFallbacksName) {
  Location opaque = OpaqueLoc::get(uintptr_t(42), TypeID::get<OpNamesTest>(),
                                   named("fallback"));
  EXPECT_EQ(prec::getLocationName(opaque), "fallback");
}

TEST_F(OpNamesTest, NamePatternsMatchLayerAndOpNames) {
  llvm::Expected<prec::NamePattern> pattern = prec::NamePattern::create("c*");
  ASSERT_TRUE(static_cast<bool>(pattern));
  EXPECT_TRUE(pattern->match("conv1"));
  EXPECT_FALSE(pattern->match("relu"));
}

} // namespace
