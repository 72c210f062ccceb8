//===- Passes.h - prec's precision passes -----------------------*- C++ -*-===//

#ifndef PREC_PASSES_PASSES_H
#define PREC_PASSES_PASSES_H

#include "dialects/Precision/PrecisionDialect.h"
#include "formats/CalibrationFile.h"
#include "formats/PlanFile.h"
#include "passes/OptionChoices.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>

namespace prec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// Options of the `prec-legalize` pipeline: the union of its passes'.
struct LegalizePipelineOptions
    : public mlir::PassPipelineOptions<LegalizePipelineOptions> {
  Option<BindingLayout> bindingLayout{
      *this, "binding-layout", llvm::cl::desc("memory layout of 4-D bindings"),
      llvm::cl::init(BindingLayout::NCHW), PREC_BINDING_LAYOUT_VALUES};
  Option<TypingChoice> typing{
      *this, "typing", llvm::cl::desc("whether ops keep the model's types"),
      llvm::cl::init(TypingChoice::Module), PREC_TYPING_VALUES};
  ListOption<std::string> enabled{
      *this, "enabled",
      llvm::cl::desc("reduced precisions the compiler may choose")};
  Option<ConstraintsChoice> constraints{
      *this, "constraints", llvm::cl::desc("default mode of pinned ops"),
      llvm::cl::init(ConstraintsChoice::Module), PREC_CONSTRAINTS_VALUES};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("cpu or sm_53 ... sm_121")};
  ListOption<std::string> layerPrecisions{
      *this, "layer-precisions",
      llvm::cl::desc("<pattern>:<type> compute types of matching ops")};
  ListOption<std::string> layerOutputTypes{
      *this, "layer-output-types",
      llvm::cl::desc("<pattern>:<type> storage types of matching ops")};
  Option<std::string> plan{*this, "plan",
                           llvm::cl::desc("a precision plan JSON file")};
  ListOption<std::string> valRanges{
      *this, "val-range",
      llvm::cl::desc("<input>:[lo,hi] ranges of the inputs")};
  ListOption<std::string> ioTypes{
      *this, "io-types",
      llvm::cl::desc("<binding>:<type> element types of inputs and outputs")};
  Option<std::string> calibration{
      *this, "calibration",
      llvm::cl::desc("a calibration JSON file (prec-calibrate) for the ranges "
                     "of i8 and f8 ops")};
  Option<bool> quantizeResiduals{
      *this, "quantize-residuals",
      llvm::cl::desc("store the residual inputs of adds that i8/f8 products "
                     "feed in their 8-bit type (prec-quantize residuals)"),
      llvm::cl::init(false)};
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("where to write the JSON report")};
  Option<std::string> reportTable{
      *this, "report-table",
      llvm::cl::desc("where to write the report table (- for stderr)")};
  Option<std::string> reportGraph{
      *this, "report-graph",
      llvm::cl::desc("where to draw the report's graph (.dot, .svg, .png or "
                     ".pdf)")};
  Option<std::string> reportHtml{
      *this, "report-html",
      llvm::cl::desc("where to write the report as one HTML page")};
  Option<std::string> baseline{
      *this, "baseline",
      llvm::cl::desc("an earlier JSON report to diff against")};
};

/// A plan and a calibration already in memory: given to the prec-legalize
/// pipeline's builder, they replace the files its `plan` and `calibration`
/// options name, which are then only the names errors use.
struct LegalizeInputs {
  std::shared_ptr<const PrecisionPlan> plan;
  std::shared_ptr<const CalibrationFile> calibration;
};

/// prec-annotate with its plan given rather than read from `plan=`.
std::unique_ptr<mlir::Pass>
createPrecAnnotate(const PrecAnnotateOptions &options,
                   std::shared_ptr<const PrecisionPlan> plan);

/// prec-apply-calibration with its calibration given rather than read.
std::unique_ptr<mlir::Pass>
createPrecApplyCalibration(const PrecApplyCalibrationOptions &options,
                           std::shared_ptr<const CalibrationFile> calibration);

/// [apply calibration] -> binding layout -> annotate -> range analysis ->
/// propagate -> legalize types -> materialize -> quantize -> report.
void buildLegalizePipeline(mlir::OpPassManager &pm,
                           const LegalizePipelineOptions &options,
                           const LegalizeInputs &inputs = {});

/// Runs the prec-legalize pipeline on `module` as the tools do: the module
/// is verified once, after the last pass, rather than after every pass,
/// which on large models costs more than the passes themselves (prec-opt
/// still verifies after each pass unless told --verify-each=false).
mlir::LogicalResult runLegalizePipeline(mlir::ModuleOp module,
                                        const LegalizePipelineOptions &options,
                                        const LegalizeInputs &inputs = {});

/// Registers the passes and the `prec-legalize` pipeline.
void registerPrecisionPasses();

} // namespace prec

#endif // PREC_PASSES_PASSES_H
