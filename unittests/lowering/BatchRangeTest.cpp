//===- BatchRangeTest.cpp - parsing --batch=MIN:OPT:MAX -------------------===//

#include "lowering/BatchRange.h"

#include <gtest/gtest.h>

using namespace prec;

namespace {

TEST(BatchRangeTest, ParsesMinOptMax) {
  std::string error;
  std::optional<BatchRange> range = parseBatchRange("1:8:32", error);
  ASSERT_TRUE(range);
  EXPECT_EQ(range->min, 1);
  EXPECT_EQ(range->opt, 8);
  EXPECT_EQ(range->max, 32);
  // A fixed batch above 1 is a range of one.
  range = parseBatchRange("4:4:4", error);
  ASSERT_TRUE(range);
  EXPECT_EQ(range->opt, 4);
}

TEST(BatchRangeTest, RejectsMalformedAndDisorderedRanges) {
  for (const char *text : {"", "8", "1:8", "1:8:32:64", "a:b:c", "1:8:x"}) {
    std::string error;
    EXPECT_FALSE(parseBatchRange(text, error)) << text;
    EXPECT_NE(error.find("is not MIN:OPT:MAX"), std::string::npos) << error;
  }
  for (const char *text : {"0:1:2", "2:1:4", "1:5:4", "1:1:1", "-1:2:4"}) {
    std::string error;
    EXPECT_FALSE(parseBatchRange(text, error)) << text;
    EXPECT_NE(error.find("needs 1 <= MIN <= OPT <= MAX"), std::string::npos)
        << error;
  }
}

} // namespace
