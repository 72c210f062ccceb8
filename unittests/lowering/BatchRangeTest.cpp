//===- BatchRangeTest.cpp - parsing --batch=MIN:OPT:MAX -------------------===//

#include "lowering/BatchRange.h"

#include <gtest/gtest.h>

using namespace prec;

namespace {

TEST(BatchRangeTest, ParsesMinOptMax) {
  llvm::Expected<BatchRange> range = parseBatchRange("1:8:32");
  ASSERT_TRUE(bool(range));
  EXPECT_EQ(range->min, 1);
  EXPECT_EQ(range->opt, 8);
  EXPECT_EQ(range->max, 32);
  // A fixed batch above 1 is a range of one.
  range = parseBatchRange("4:4:4");
  ASSERT_TRUE(bool(range));
  EXPECT_EQ(range->opt, 4);
}

TEST(BatchRangeTest, RejectsMalformedAndDisorderedRanges) {
  auto errorOf = [](const char *text) {
    llvm::Expected<BatchRange> range = parseBatchRange(text);
    return range ? std::string() : llvm::toString(range.takeError());
  };
  for (const char *text : {"", "8", "1:8", "1:8:32:64", "a:b:c", "1:8:x"})
    EXPECT_NE(errorOf(text).find("is not MIN:OPT:MAX"), std::string::npos)
        << text;
  for (const char *text : {"0:1:2", "2:1:4", "1:5:4", "1:1:1", "-1:2:4"})
    EXPECT_NE(errorOf(text).find("needs 1 <= MIN <= OPT <= MAX"),
              std::string::npos)
        << text;
}

TEST(BatchRangeTest, OptionParsesPrintsAndRejects) {
  llvm::cl::opt<std::optional<BatchRange>> option("test-batch");
  EXPECT_FALSE(option.getValue());
  std::string printed;
  llvm::raw_string_ostream os(printed);
  std::optional<BatchRange> value;
  llvm::cl::parser<std::optional<BatchRange>> parser(option);
  EXPECT_FALSE(parser.parse(option, "test-batch", "2:4:8", value));
  ASSERT_TRUE(value);
  parser.print(os, value);
  EXPECT_EQ(printed, "2:4:8");
  std::optional<BatchRange> untouched;
  // cl reports the error on stderr and returns true.
  EXPECT_TRUE(parser.parse(option, "test-batch", "8:4:2", untouched));
  EXPECT_FALSE(untouched);
  option.removeArgument();
}

} // namespace
