//===- OnnxTranslation.cpp - prec-translate --import-onnx -----------------===//

#include "import/OnnxImporter.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace prec {

void registerOnnxImportTranslation() {
  static llvm::cl::list<std::string> inputShapes(
      "input-shape",
      llvm::cl::desc("--import-onnx: static shape of an input with dynamic "
                     "dimensions, <name>:<d0>x<d1>... (repeatable)"));
  static llvm::cl::opt<bool> checkSupport(
      "check-support",
      llvm::cl::desc("--import-onnx: report every node that cannot be "
                     "imported, grouped by op type and reason, and fail if "
                     "there is one"));
  TranslateToMLIRRegistration registration(
      "import-onnx", "Import an ONNX model as func + TOSA",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        OnnxImportOptions options;
        options.checkSupport = checkSupport;
        std::string error;
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        llvm::StringRef path = buffer->getBufferIdentifier();
        if (!parseInputShapes(inputShapes, options, error)) {
          emitError(FileLineColLoc::get(context, path, 0, 0)) << error;
          return nullptr;
        }
        return importOnnxModel(buffer->getBuffer(), path, context, options);
      });
}

} // namespace prec
