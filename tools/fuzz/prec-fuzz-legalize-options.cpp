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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const fuzz::ExampleModel example("examples/trtorch_conv_region.mlir");
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
  fuzz::legalizeCopy(example, options);
  return 0;
}
