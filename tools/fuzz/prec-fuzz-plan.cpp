//===- prec-fuzz-plan.cpp - precision plan JSON ---------------------------===//
//
// What `prec-legalize="plan=FILE"` does with a plan (prec-debug writes
// them; users write them by hand): the JSON is parsed, and an accepted plan
// legalizes TRTorch's region example.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "passes/Passes.h"
#include "passes/PlanFile.h"

using namespace prec;

namespace {
struct Model {
  std::unique_ptr<mlir::MLIRContext> context = fuzz::makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module = fuzz::parseModule(
      fuzz::readSourceFile("examples/trtorch_conv_region.mlir"), *context);
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Model model;
  fuzz::require(static_cast<bool>(model.module), "the example does not parse");
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<PrecisionPlan> plan = parsePlan(text, model.context.get());
  fuzz::consume(plan);
  if (!plan)
    return 0;
  LegalizePipelineOptions options;
  options.plan = fuzz::writeScratchFile(text, ".plan.json");
  mlir::PassManager pm(model.context.get(), mlir::ModuleOp::getOperationName());
  buildLegalizePipeline(pm, options);
  fuzz::runOnClone(pm, *model.module);
  return 0;
}
