//===- prec-build.cpp - model in, compiled CUDA engine out ----------------===//

#include "drivers/PrecBuild.h"
#include "registration/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::OptionCategory category("prec-build options");
  cl::opt<std::string> model(cl::Positional,
                             cl::desc("<model.onnx | model.mlir>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> output(
      "o", cl::desc("the directory the engine goes to (default: .)"),
      cl::value_desc("DIR"), cl::init("."), cl::cat(category));
  cl::opt<std::string> engineName(
      "engine-name",
      cl::desc("the engine's file stem and C prefix (default: the model's "
               "file stem)"),
      cl::cat(category));
  cl::list<std::string> inputShapes(
      "input-shape",
      cl::desc("<input>:<d0>x<d1>... static shape of an ONNX input"),
      cl::cat(category));
  cl::list<std::string> enabled(
      "enabled", cl::desc("reduced precisions the compiler may choose"),
      cl::CommaSeparated, cl::cat(category));
  cl::opt<prec::TypingChoice> typing(
      "typing", cl::desc("whether ops keep the model's types"),
      PREC_TYPING_VALUES, cl::init(prec::TypingChoice::Module),
      cl::cat(category));
  cl::opt<prec::ConstraintsChoice> constraints(
      "constraints", cl::desc("default mode of pinned ops"),
      PREC_CONSTRAINTS_VALUES, cl::init(prec::ConstraintsChoice::Module),
      cl::cat(category));
  cl::opt<std::string> target(
      "target",
      cl::desc("sm_53 ... sm_121 (default: the model's policy's, else sm_90)"),
      cl::cat(category));
  cl::list<std::string> layerPrecisions(
      "layer-precisions",
      cl::desc("<pattern>:<type> compute types of matching ops"),
      cl::CommaSeparated, cl::cat(category));
  cl::list<std::string> layerOutputTypes(
      "layer-output-types",
      cl::desc("<pattern>:<type> storage types of matching ops"),
      cl::CommaSeparated, cl::cat(category));
  cl::opt<std::string> plan("plan", cl::desc("a precision plan JSON file"),
                            cl::cat(category));
  cl::opt<bool> quantizeResiduals(
      "quantize-residuals",
      cl::desc("store the residual inputs of adds that i8/f8 products feed "
               "in their 8-bit type"),
      cl::cat(category));
  cl::list<std::string> valRanges(
      "val-range", cl::desc("<input>:[lo,hi] ranges of the inputs"),
      cl::cat(category));
  cl::list<std::string> ioTypes(
      "io-types", cl::desc("<binding>:<type> element types of bindings"),
      cl::CommaSeparated, cl::cat(category));
  cl::opt<prec::BindingLayout> bindingLayout(
      "binding-layout", cl::desc("memory layout of 4-D bindings"),
      PREC_BINDING_LAYOUT_VALUES, cl::init(prec::BindingLayout::NCHW),
      cl::cat(category));
  cl::opt<std::string> reportGraph(
      "report-graph",
      cl::desc("draw the precision report (.svg, .png, .pdf or .dot)"),
      cl::cat(category));
  cl::opt<std::string> calibration(
      "calibration",
      cl::desc("a calibration JSON (prec-calibrate) for i8 and f8 ops"),
      cl::cat(category));
  cl::opt<std::string> calibrationData(
      "calibration-data",
      cl::desc("calibrate on this data first (a directory of .npy/.npz "
               "files, or an .npz with a batch axis)"),
      cl::cat(category));
  cl::opt<prec::CalibrationAlgorithm> calibrationAlgorithm(
      "calibration-algorithm", cl::desc("how --calibration-data calibrates"),
      PREC_CALIBRATION_ALGORITHM_VALUES,
      cl::init(prec::CalibrationAlgorithm::Entropy), cl::cat(category));
  cl::opt<double> percentile(
      "percentile",
      cl::desc("the percentile of |x| the percentile algorithm keeps"),
      cl::init(99.99), cl::cat(category));
  cl::opt<std::optional<prec::BatchRange>> batch(
      "batch", cl::desc("a dynamic batch MIN:OPT:MAX; the model is at MAX"),
      cl::cat(category));
  cl::list<std::string> batchInputs(
      "batch-inputs", cl::CommaSeparated,
      cl::desc("the inputs whose dimension 0 is the batch (default: those "
               "of size MAX)"),
      cl::cat(category));
  cl::opt<prec::ConvolutionPreference> convolutions(
      "conv", cl::desc("how convolutions other than unit-stride 1x1 run"),
      PREC_CONVOLUTION_PREFERENCE_VALUES,
      cl::init(prec::ConvolutionPreference::Auto), cl::cat(category));
  cl::opt<std::string> nvcc(
      "nvcc",
      cl::desc("the CUDA compiler (default: nvcc on PATH, then "
               "/usr/local/cuda/bin/nvcc)"),
      cl::cat(category));
  cl::opt<std::string> arch(
      "arch", cl::desc("nvcc's -arch (default: the target; sm_90a for sm_90)"),
      cl::cat(category));
  cl::opt<bool> benchmark(
      "benchmark",
      cl::desc("time the engine on this machine's GPU (median, percentiles)"),
      cl::cat(category));
  cl::opt<int> iterations("iterations",
                          cl::desc("timed runs of --benchmark (default 100)"),
                          cl::init(100), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "prec-build: import, calibrate, legalize, emit and compile a CUDA "
          "engine in one command\n",
          &llvm::errs()))
    return 2;

  prec::PrecBuildOptions options;
  options.modelPath = model;
  options.outputDir = output;
  options.engineName = engineName;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.enabled.assign(enabled.begin(), enabled.end());
  options.typing = typing;
  options.constraints = constraints;
  options.target = target;
  options.layerPrecisions.assign(layerPrecisions.begin(),
                                 layerPrecisions.end());
  options.layerOutputTypes.assign(layerOutputTypes.begin(),
                                  layerOutputTypes.end());
  options.plan = plan;
  options.quantizeResiduals = quantizeResiduals;
  options.valRanges.assign(valRanges.begin(), valRanges.end());
  options.ioTypes.assign(ioTypes.begin(), ioTypes.end());
  options.bindingLayout = bindingLayout;
  options.reportGraph = reportGraph;
  options.calibration = calibration;
  options.calibrationData = calibrationData;
  options.calibrationAlgorithm = calibrationAlgorithm;
  options.percentile = percentile;
  options.batch = batch.getValue();
  options.batchInputs.assign(batchInputs.begin(), batchInputs.end());
  options.convolutions = convolutions;
  options.nvcc = nvcc;
  options.arch = arch;
  options.benchmark = benchmark;
  options.iterations = iterations;

  mlir::DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  return prec::runPrecBuild(options, registry, llvm::outs(), llvm::errs());
}
