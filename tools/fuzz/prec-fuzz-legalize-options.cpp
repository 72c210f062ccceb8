//===- prec-fuzz-legalize-options.cpp - prec-legalize's option string ----===//
//
// What `prec-opt --prec-legalize="..."` does with its options: the string is
// parsed as the pipeline's options, which then legalize TRTorch's region
// example. Options naming files to write (the reports) are pointed at a
// scratch file so that the fuzzer cannot write elsewhere; the ones naming
// files to read (plan, calibration, baseline) are left as given.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "passes/Passes.h"

#include "llvm/Support/raw_ostream.h"

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
  LegalizePipelineOptions options;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (mlir::failed(options.parseFromString(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          errorStream)))
    return 0;
  for (auto *output : {&options.report, &options.reportTable})
    if (!output->empty())
      *output = fuzz::writeScratchFile("", ".report");
  mlir::PassManager pm(model.context.get(), mlir::ModuleOp::getOperationName());
  buildLegalizePipeline(pm, options);
  fuzz::runOnClone(pm, *model.module);
  return 0;
}
