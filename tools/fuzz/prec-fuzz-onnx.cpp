//===- prec-fuzz-onnx.cpp - ONNX protobufs through the importer ----------===//
//
// What `prec-translate --import-onnx` does with a model's bytes; an imported
// module must verify.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "import/OnnxImporter.h"

#include "mlir/IR/Verifier.h"

using namespace prec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<mlir::MLIRContext> context = fuzz::makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module = importOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx",
      context.get(), OnnxImportOptions());
  if (module)
    fuzz::require(mlir::succeeded(mlir::verify(*module)),
                  "the importer made a module that does not verify");
  return 0;
}
