//===- prec-translate.cpp - prec's translation driver ---------------------===//

#include "import/OnnxImporter.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  prec::registerOnnxImportTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv,
                                              "prec translation driver\n"))
             ? 1
             : 0;
}
