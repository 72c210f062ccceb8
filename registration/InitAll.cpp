//===- InitAll.cpp - everything prec's tools register ---------------------===//

#include "registration/InitAll.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/ExternalModels/PrecisionModels.h"
#include "dialects/Precision/PrecisionDialect.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/Pipelines.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace prec {

void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<precision::PrecisionDialect, engine::EngineDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerPrecisionExternalModels(registry);
  registerElementwiseExpressionModels(registry);
  registerElementIndexMapModels(registry);
}

void registerAllPasses() {
  mlir::registerAllPasses();
  registerPrecisionPasses();
  registerLoweringPipelines();
}

} // namespace prec
