//===- NestingDepthTest.cpp - the bound on nested brackets ----------------===//

#include "support/NestingDepth.h"

#include <gtest/gtest.h>

#include <string>

using namespace prec;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Error error = checkNestingDepth(text, "in.mlir");
  return error ? llvm::toString(std::move(error)) : "";
}

std::string nested(char open, char close, unsigned depth) {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(NestingDepthTest, CountsEveryKindOfBracketUpToTheBound) {
  for (auto [open, close] : {std::pair('(', ')'), std::pair('[', ']'),
                             std::pair('{', '}'), std::pair('<', '>')}) {
    EXPECT_EQ(errorOf(nested(open, close, kMaxNestingDepth)), "");
    EXPECT_EQ(errorOf(nested(open, close, kMaxNestingDepth + 1)),
              "in.mlir:1:257: brackets nest more than 256 deep");
  }
  // Closed brackets give their level back; open ones of any kind add up.
  EXPECT_EQ(errorOf(nested('[', ']', 200) + nested('(', ')', 200)), "");
  EXPECT_EQ(errorOf("[" + std::string(200, '(') + std::string(56, '{')),
            "in.mlir:1:257: brackets nest more than 256 deep");
}

TEST(NestingDepthTest, GivesTheLineAndColumn) {
  std::string text = "func.func @f() {\n  " + nested('[', ']', 300);
  EXPECT_EQ(errorOf(text), "in.mlir:2:258: brackets nest more than 256 deep");
  llvm::Error unnamed = checkNestingDepth(nested('[', ']', 300), "");
  EXPECT_EQ(llvm::toString(std::move(unnamed)),
            "line 1, column 257: brackets nest more than 256 deep");
}

TEST(NestingDepthTest, IgnoresStringsCommentsArrowsAndComparisons) {
  std::string many(1000, '(');
  EXPECT_EQ(errorOf("\"" + many + "\""), "");
  EXPECT_EQ(errorOf("\"\\\"" + many + "\""), ""); // an escaped quote
  EXPECT_EQ(errorOf("// " + many + "\nx"), "");
  // `->` and `>=` close nothing, `<=` opens nothing.
  std::string arrows;
  for (int i = 0; i < 300; ++i)
    arrows += "(a) -> (b) <= c >= d ";
  EXPECT_EQ(errorOf("<" + arrows + ">"), "");
  // A comment marker inside a string is text.
  EXPECT_NE(errorOf("\"//\"" + std::string(300, '[')), "");
}

TEST(NestingDepthTest, PassesBytecode) {
  // Bytecode's magic, then bytes that would be brackets in text.
  EXPECT_EQ(errorOf("ML\xEFR" + std::string(300, '[')), "");
  EXPECT_NE(errorOf("ML\xEFX" + std::string(300, '[')), "");
}

} // namespace
