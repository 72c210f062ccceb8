//===- prec-translate.cpp - prec's translation driver ---------------------===//

#include "codegen/CudaEmitter.h"
#include "import/OnnxImporter.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  prec::registerOnnxImportTranslation();
  prec::registerCudaEmitTranslation();
  // Imported ops carry their ONNX node names in their locations, which
  // layer-precisions, plans and reports match against: print locations
  // unless the command line says otherwise (a later flag wins).
  std::vector<char *> arguments(argv, argv + argc);
  static char printLocations[] = "--mlir-print-debuginfo";
  arguments.insert(arguments.begin() + 1, printLocations);
  return mlir::failed(mlir::mlirTranslateMain(
             static_cast<int>(arguments.size()), arguments.data(),
             "prec translation driver\n"))
             ? 1
             : 0;
}
