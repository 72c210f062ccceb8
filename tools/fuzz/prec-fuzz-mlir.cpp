//===- prec-fuzz-mlir.cpp - MLIR text through legalize and lowering ------===//
//
// What `prec-opt --prec-legalize --prec-lower-to-cpu` does with a file: the
// text is parsed, legalized with the module's own policy and lowered to the
// LLVM dialect (not run). Verification failures and pass errors are answers;
// crashes, sanitizer reports, leaks and hangs are bugs.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "lowering/Pipelines.h"
#include "passes/Passes.h"

using namespace prec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<mlir::MLIRContext> context = fuzz::makeContext();
  // MLIR's lexer stops at a NUL after the text, as files read by the tools
  // have: a std::string has one.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = fuzz::parseModule(text, *context);
  if (!module)
    return 0;
  mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
  buildLegalizePipeline(pm, LegalizePipelineOptions());
  buildLowerToCpuPipeline(pm);
  (void)pm.run(*module);
  return 0;
}
