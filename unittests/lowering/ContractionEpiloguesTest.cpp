//===- ContractionEpiloguesTest.cpp - a GEMM's epilogue as planned --------===//

#include "lowering/ContractionEpilogues.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace prec;

namespace {

/// A matmul with an f16 bias (widened for the f32 add) and a conversion to
/// f16 after it, recorded as `record`.
std::string gemmWithBias(llvm::StringRef record) {
  return (R"mlir(
func.func @f(%x: tensor<1x4x16xf16>, %w: tensor<1x16x8xf16>, %b: tensor<1x1x8xf16>) -> tensor<1x4x8xf16> {
  %bw = tosa.cast %b : (tensor<1x1x8xf16>) -> tensor<1x1x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %p = tosa.matmul %x, %w, %zp, %zp )mlir" +
          record +
          R"mlir( : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %s = tosa.add %p, %bw : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %y = tosa.cast %s {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  return %y : tensor<1x4x8xf16>
})mlir")
      .str();
}

class ContractionEpiloguesTest : public ::testing::Test {
protected:
  ContractionEpiloguesTest() {
    context.loadDialect<func::FuncDialect, tosa::TosaDialect,
                        engine::EngineDialect, precision::PrecisionDialect>();
  }

  /// The planned epilogue of the matmul in `source`, and the error text.
  FailureOr<MatmulEpilogue> plannedEpilogue(const std::string &source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    tosa::MatMulOp matmul;
    module->walk([&](tosa::MatMulOp op) { matmul = op; });
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      error = diagnostic.str();
      return success();
    });
    return getPlannedEpilogue(matmul);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string error;
};

// cuBLASLt's bias epilogue writing f16, as recorded; the bias is read
// before its widening.
TEST_F(ContractionEpiloguesTest, ReadsTheRecordedSteps) {
  FailureOr<MatmulEpilogue> epilogue = plannedEpilogue(
      gemmWithBias("{engine.epilogue = #engine.epilogue<bias, convert>}"));
  ASSERT_TRUE(succeeded(epilogue)) << error;
  EXPECT_TRUE(epilogue->biasAdd);
  EXPECT_TRUE(epilogue->cast);
  EXPECT_FALSE(epilogue->scale);
  EXPECT_EQ(epilogue->bias,
            module->lookupSymbol<func::FuncOp>("f").getArgument(2));
  EXPECT_EQ(epilogue->result, epilogue->cast->getResult(0));
}

// A record the ops no longer match (or no record at all, before
// prec-plan-kernels ran) is an error, not an engine that disagrees with its
// plan.
TEST_F(ContractionEpiloguesTest, RejectsAStaleRecord) {
  EXPECT_TRUE(failed(plannedEpilogue(
      gemmWithBias("{engine.epilogue = #engine.epilogue<scale, convert>}"))));
  EXPECT_EQ(error, "engine.epilogue records {scale, convert}, but the ops "
                   "after it compute {bias, convert}: run prec-plan-kernels "
                   "again");
  EXPECT_TRUE(failed(plannedEpilogue(gemmWithBias(""))));
  EXPECT_EQ(error, "engine.epilogue records {}, but the ops after it compute "
                   "{bias, convert}: run prec-plan-kernels again");
}

} // namespace
