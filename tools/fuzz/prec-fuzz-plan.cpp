//===- prec-fuzz-plan.cpp - precision plan JSON ---------------------------===//
//
// What `prec-legalize="plan=FILE"` does with a plan (prec-debug writes
// them; users write them by hand): the JSON is parsed, and an accepted plan
// legalizes TRTorch's region example.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "formats/PlanFile.h"
#include "passes/Passes.h"

using namespace prec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const fuzz::ExampleModel example("examples/trtorch_conv_region.mlir");
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<PrecisionPlan> plan = parsePlan(text, example.context.get());
  fuzz::consume(plan);
  if (!plan)
    return 0;
  LegalizePipelineOptions options;
  options.plan = fuzz::writeScratchFile(text, ".plan.json");
  fuzz::legalizeCopy(example, options);
  return 0;
}
