//===- prec-calibrate.cpp - calibrate i8 and f8 ranges --------------------===//

#include "drivers/PrecCalibrate.h"
#include "drivers/PrecRun.h"
#include "registration/InitAll.h"
#include "tools/DeviceFlags.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::OptionCategory category("prec-calibrate options");
  cl::opt<std::string> model(cl::Positional, cl::desc("<model.mlir>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> function("function", cl::desc("function to calibrate"),
                                cl::init("main"), cl::cat(category));
  cl::opt<std::string> data(
      "data",
      cl::desc("calibration data: a directory of .npy/.npz files, or an .npz "
               "whose arrays have a batch axis"),
      cl::cat(category));
  cl::list<std::string> valRanges(
      "val-range",
      cl::desc("<input>:[lo,hi] of generated samples (repeat or separate "
               "with commas)"),
      cl::cat(category));
  cl::opt<int64_t> samples("samples", cl::desc("number of generated samples"),
                           cl::init(0), cl::cat(category));
  cl::opt<uint64_t> seed("seed", cl::desc("seed of generated samples"),
                         cl::init(1), cl::cat(category));
  cl::opt<int64_t> batchSize(
      "batch-size",
      cl::desc("samples per calibration batch (a multiple of the model's "
               "batch; default: the model's batch)"),
      cl::init(0), cl::cat(category));
  cl::opt<prec::CalibrationAlgorithm> algorithm(
      "algorithm", cl::desc("how to choose each tensor's amax"),
      PREC_CALIBRATION_ALGORITHM_VALUES,
      cl::cat(category));
  cl::opt<double> percentile("percentile",
                             cl::desc("the percentile of |x| to keep"),
                             cl::init(99.99), cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("the calibration JSON to write"),
                              cl::value_desc("CALIB.json"), cl::cat(category));
  cl::opt<std::string> trtCache(
      "trt-cache", cl::desc("also write a TensorRT calibration cache"),
      cl::cat(category));
  cl::opt<std::string> loadTrtCache(
      "load-trt-cache",
      cl::desc("calibrate from a TensorRT calibration cache instead of data"),
      cl::cat(category));
  cl::opt<bool> progress("progress",
                         cl::desc("draw a progress bar (default: on a "
                                  "terminal)"),
                         cl::cat(category));
  prec::DeviceFlags deviceFlags(category, "the f32 model runs");
  cl::opt<std::string> target(
      "target",
      cl::desc("with --device gpu, the GPU the engine is built for, sm_53 ... "
               "sm_121 (default: the model's, else sm_90)"),
      cl::cat(category));
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "prec-calibrate: choose the ranges of i8 and f8 ops from data\n",
          &llvm::errs()))
    return 2;

  prec::PrecCalibrateOptions options;
  options.modelPath = model;
  options.functionName = function;
  options.data = data;
  for (const std::string &entries : valRanges)
    for (llvm::StringRef entry : prec::splitOutsideBrackets(entries))
      options.valRanges.push_back(entry.str());
  options.samples = samples;
  options.seed = seed;
  options.batchSize = batchSize;
  if (algorithm.getNumOccurrences())
    options.algorithm = algorithm;
  options.percentile = percentile;
  options.output = output;
  options.trtCache = trtCache;
  options.loadTrtCache = loadTrtCache;
  options.device = deviceFlags.get();
  options.target = target;
  if (progress.getNumOccurrences())
    options.progress = progress;

  mlir::DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  return prec::runPrecCalibrate(options, registry, llvm::outs(), llvm::errs());
}
