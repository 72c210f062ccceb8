//===- LayerPatternsTest.cpp - <pattern>:<type> entries -------------------===//

#include "passes/LayerPatterns.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

class LayerPatternsTest : public ::testing::Test {
protected:
  FailureOr<std::vector<LayerPattern>> parse(std::vector<std::string> entries) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      lastError = diagnostic.str();
      return success();
    });
    return parseLayerPatterns(entries, "layer-precisions", &context, [&] {
      return emitError(UnknownLoc::get(&context));
    });
  }

  MLIRContext context;
  std::string lastError;
};

TEST_F(LayerPatternsTest, SplitsAtTheLastColon) {
  // ONNX node names may contain ':'.
  auto patterns = parse({"encoder/layer:0/Add:float16", "*:bf16"});
  ASSERT_TRUE(succeeded(patterns));
  ASSERT_EQ(patterns->size(), 2u);
  EXPECT_EQ((*patterns)[0].pattern.getText(), "encoder/layer:0/Add");
  EXPECT_TRUE((*patterns)[0].type.isF16());
  EXPECT_TRUE((*patterns)[0].pattern.match("encoder/layer:0/Add"));
  EXPECT_TRUE((*patterns)[1].pattern.match("anything"));
  EXPECT_TRUE((*patterns)[1].type.isBF16());
}

TEST_F(LayerPatternsTest, PatternsOutliveTheirEntries) {
  FailureOr<std::vector<LayerPattern>> patterns;
  {
    std::vector<std::string> entries = {std::string(64, 'x') + "*:f16"};
    patterns = parseLayerPatterns(entries, "layer-precisions", &context, [&] {
      return emitError(UnknownLoc::get(&context));
    });
  }
  ASSERT_TRUE(succeeded(patterns));
  std::vector<LayerPattern> copy = *patterns;
  patterns->clear();
  EXPECT_TRUE(copy[0].pattern.match(std::string(64, 'x') + "tail"));
  EXPECT_FALSE(copy[0].pattern.match("y"));
}

TEST_F(LayerPatternsTest, RejectsMalformedEntries) {
  EXPECT_TRUE(failed(parse({"Add"})));
  EXPECT_EQ(lastError, "layer-precisions entry 'Add' is not <pattern>:<type>");
  EXPECT_TRUE(failed(parse({"Add:f64"})));
  EXPECT_NE(lastError.find("names unknown precision 'f64'"), std::string::npos);
  EXPECT_TRUE(failed(parse({":f16"})));
  EXPECT_EQ(lastError, "layer-precisions entry ':f16' has an empty pattern");
  EXPECT_TRUE(failed(parse({"[a:f16"})));
  EXPECT_NE(lastError.find("malformed pattern '[a'"), std::string::npos);
}

} // namespace
