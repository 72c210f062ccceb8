//===- PrecBuild.h - what prec-build does -----------------------*- C++ -*-===//
//
// prec-build's logic, reachable from tests: trtexec's one command. An ONNX
// or MLIR model goes in; it is imported, calibrated when data is given,
// legalized with a policy, emitted as a CUDA engine and compiled with nvcc
// into a shared library beside its weights and manifest; the precision
// report is printed, and on request the engine is timed.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_PRECBUILD_H
#define PREC_DRIVERS_PRECBUILD_H

#include "formats/CalibrationFile.h"
#include "lowering/BatchRange.h"
#include "lowering/ConvolutionPlan.h"
#include "passes/OptionChoices.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

struct PrecBuildOptions {
  std::string modelPath; // .onnx, or .mlir / .mlirbc
  std::string outputDir = ".";
  std::string engineName;               // empty: the model file's stem
  std::vector<std::string> inputShapes; // ONNX `name:1x3x224x224`

  // The policy, as prec-legalize names its options.
  std::vector<std::string> enabled;
  TypingChoice typing = TypingChoice::Module;
  ConstraintsChoice constraints = ConstraintsChoice::Module;
  std::string target; // empty: the model's policy's GPU, else sm_90
  std::vector<std::string> layerPrecisions, layerOutputTypes, valRanges,
      ioTypes;
  std::string plan;
  bool quantizeResiduals = false; // prec-legalize's quantize-residuals=
  BindingLayout bindingLayout = BindingLayout::NCHW;
  std::string reportGraph; // prec-legalize's report-graph=

  // Calibration: a calibration JSON, or data to calibrate on (written to
  // <engine>.calibration.json).
  std::string calibration;
  std::string calibrationData;
  CalibrationAlgorithm calibrationAlgorithm = CalibrationAlgorithm::Entropy;
  double percentile = 99.99;

  // The engine.
  std::optional<BatchRange> batch;
  std::vector<std::string> batchInputs;
  ConvolutionPreference convolutions = ConvolutionPreference::Auto;

  // The compiler: empty finds nvcc on PATH, then /usr/local/cuda/bin.
  std::string nvcc;
  std::string arch; // empty: the target, with sm_90's `a` features
  bool benchmark = false;
  int iterations = 100;
};

/// What buildEngine made.
struct EngineBuild {
  /// `<outputDir>/<name>.so`; empty when nvcc was not found.
  std::string library;
  /// The nvcc command that compiles the engine (run, or to run by hand).
  std::vector<std::string> command;
  std::optional<std::string> nvcc; // where nvcc was found
  std::string arch;
  std::vector<std::string> libraries; // what the engine links
  bool compileFailed = false;         // nvcc ran and failed
};

/// Emits the legalized `module` as the engine `name` in `options.outputDir`
/// (sources, weights and manifest, as options.batch, batchInputs and
/// convolutions say) and compiles it with nvcc (options.nvcc, options.arch)
/// into a shared library. The emitter's errors are diagnostics on the
/// module's context; `build` says how far it got.
llvm::Error buildEngine(mlir::ModuleOp module, const PrecBuildOptions &options,
                        llvm::StringRef name, EngineBuild &build);

/// Runs prec-build; prints the report and what it did to `out`, errors to
/// `err`; returns 0 on success, 1 when the engine fails to compile, build
/// or run, and 2 on bad usage or input.
int runPrecBuild(const PrecBuildOptions &options,
                 const mlir::DialectRegistry &registry, llvm::raw_ostream &out,
                 llvm::raw_ostream &err);

} // namespace prec

#endif // PREC_DRIVERS_PRECBUILD_H
