//===- Passes.h - prec's precision passes -----------------------*- C++ -*-===//

#ifndef PREC_PASSES_PASSES_H
#define PREC_PASSES_PASSES_H

#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace prec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// Options of the `prec-legalize` pipeline: the union of its passes'.
struct LegalizePipelineOptions
    : public mlir::PassPipelineOptions<LegalizePipelineOptions> {
  Option<std::string> bindingLayout{
      *this, "binding-layout",
      llvm::cl::desc("nchw | nhwc: memory layout of 4-D bindings"),
      llvm::cl::init("nchw")};
  Option<std::string> typing{*this, "typing", llvm::cl::desc("strong | weak")};
  ListOption<std::string> enabled{
      *this, "enabled",
      llvm::cl::desc("reduced precisions the compiler may choose")};
  Option<std::string> constraints{
      *this, "constraints",
      llvm::cl::desc("default mode of pinned ops: obey | prefer | none")};
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
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("where to write the JSON report")};
  Option<std::string> reportTable{
      *this, "report-table",
      llvm::cl::desc("where to write the report table (- for stderr)")};
  Option<std::string> baseline{
      *this, "baseline",
      llvm::cl::desc("an earlier JSON report to diff against")};
};

/// [apply calibration] -> binding layout -> annotate -> range analysis ->
/// propagate -> legalize types -> materialize -> report.
void buildLegalizePipeline(mlir::OpPassManager &pm,
                           const LegalizePipelineOptions &options);

/// Registers the passes and the `prec-legalize` pipeline.
void registerPrecisionPasses();

} // namespace prec

#endif // PREC_PASSES_PASSES_H
