//===- Pipeline.cpp - the prec-legalize pipeline --------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace prec {

void buildLegalizePipeline(OpPassManager &pm,
                           const LegalizePipelineOptions &options,
                           const LegalizeInputs &inputs) {
  // On the model as written: that is what the calibration fingerprinted.
  if (!options.calibration.empty() || inputs.calibration) {
    PrecApplyCalibrationOptions calibration;
    calibration.calibration = options.calibration;
    pm.addPass(createPrecApplyCalibration(calibration, inputs.calibration));
  }
  PrecBindingLayoutOptions layout;
  layout.layout = options.bindingLayout;
  pm.addPass(createPrecBindingLayout(layout));

  PrecAnnotateOptions annotate;
  annotate.typing = options.typing;
  annotate.enabled = llvm::to_vector(options.enabled);
  annotate.constraints = options.constraints;
  annotate.target = options.target;
  annotate.layerPrecisions = llvm::to_vector(options.layerPrecisions);
  annotate.layerOutputTypes = llvm::to_vector(options.layerOutputTypes);
  annotate.planFile = options.plan;
  pm.addPass(createPrecAnnotate(annotate, inputs.plan));

  PrecRangeAnalysisOptions ranges;
  ranges.valRanges = llvm::to_vector(options.valRanges);
  pm.addPass(createPrecRangeAnalysis(ranges));

  pm.addPass(createPrecPropagate());
  pm.addPass(createPrecLegalizeTypes());

  PrecMaterializeOptions materialize;
  materialize.ioTypes = llvm::to_vector(options.ioTypes);
  pm.addPass(createPrecMaterialize(materialize));
  PrecQuantizeOptions quantize;
  quantize.residuals = options.quantizeResiduals;
  pm.addPass(createPrecQuantize(quantize));

  PrecReportOptions report;
  report.reportFile = options.report;
  report.tableFile = options.reportTable;
  report.baselineFile = options.baseline;
  report.graphFile = options.reportGraph;
  report.htmlFile = options.reportHtml;
  pm.addPass(createPrecReport(report));
}

LogicalResult runLegalizePipeline(ModuleOp module,
                                  const LegalizePipelineOptions &options,
                                  const LegalizeInputs &inputs) {
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  buildLegalizePipeline(pm, options, inputs);
  if (failed(pm.run(module)))
    return failure();
  return verify(module);
}

void registerPrecisionPasses() {
  registerPrecPasses();
  PassPipelineRegistration<LegalizePipelineOptions>(
      "prec-legalize",
      "Choose, check and materialize the precision of every op "
      "(apply a calibration, annotate, range analysis, propagate, legalize "
      "types, materialize, "
      "quantize, report)",
      [](OpPassManager &pm, const LegalizePipelineOptions &options) {
        buildLegalizePipeline(pm, options);
      });
}

} // namespace prec
