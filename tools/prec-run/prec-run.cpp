//===- prec-run.cpp - run a model on the CPU and compare ------------------===//

#include "dialects/InitAll.h"
#include "runtime/PrecRun.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::OptionCategory category("prec-run options");
  cl::opt<std::string> model(cl::Positional, cl::desc("<model.mlir>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> function("function", cl::desc("function to run"),
                                cl::init("main"), cl::cat(category));
  cl::opt<std::string> policy(
      "policy",
      cl::desc("prec-legalize options to apply first, e.g. \"enabled=f16\""),
      cl::cat(category));
  cl::opt<std::string> loadInputs(
      "load-inputs", cl::desc("inputs from an .npz"), cl::cat(category));
  cl::list<std::string> valRanges(
      "val-range",
      cl::desc("<input>:[lo,hi] of generated inputs (repeat the option or "
               "separate with commas)"),
      cl::cat(category));
  cl::opt<uint64_t> seed("seed", cl::desc("seed of generated inputs"),
                         cl::init(1), cl::cat(category));
  cl::opt<std::string> saveInputs("save-inputs",
                                  cl::desc("write the inputs to an .npz"),
                                  cl::cat(category));
  cl::opt<std::string> saveOutputs("save-outputs",
                                   cl::desc("write the outputs to an .npz"),
                                   cl::cat(category));
  cl::opt<std::string> compare(
      "compare", cl::desc("golden outputs (.npz) to compare with"),
      cl::cat(category));
  cl::opt<std::string> reference(
      "reference",
      cl::desc("f32: also run the model without precision "
               "choices and compare"),
      cl::cat(category));
  cl::list<std::string> atol("atol",
                             cl::desc("absolute tolerance, or <output>:<x>"),
                             cl::cat(category));
  cl::list<std::string> rtol("rtol",
                             cl::desc("relative tolerance, or <output>:<x>"),
                             cl::cat(category));
  cl::opt<std::string> checkErrorStat(
      "check-error-stat", cl::desc("elemwise | max | mean | median | quantile"),
      cl::init("elemwise"), cl::cat(category));
  cl::opt<double> errorQuantile("error-quantile",
                                cl::desc("quantile for --check-error-stat"),
                                cl::init(0.99), cl::cat(category));
  cl::opt<bool> infinitiesCompareEqual(
      "infinities-compare-equal", cl::desc("equal infinities are no error"),
      cl::cat(category));
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "prec-run: run a model on the CPU, "
                                   "faithfully rounded, and compare\n",
                                   &llvm::errs()))
    return prec::kBadInput;

  prec::PrecRunOptions options;
  options.modelPath = model;
  options.functionName = function;
  if (policy.getNumOccurrences())
    options.policy = policy;
  options.loadInputs = loadInputs;
  for (const std::string &entries : valRanges)
    for (llvm::StringRef entry : prec::splitOutsideBrackets(entries))
      options.valRanges.push_back(entry.str());
  options.seed = seed;
  options.saveInputs = saveInputs;
  options.saveOutputs = saveOutputs;
  options.compareWith = compare;
  options.reference = reference;
  options.atol.assign(atol.begin(), atol.end());
  options.rtol.assign(rtol.begin(), rtol.end());
  options.checkErrorStat = checkErrorStat;
  options.errorQuantile = errorQuantile;
  options.infinitiesCompareEqual = infinitiesCompareEqual;

  mlir::DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  return prec::runPrecRun(options, registry, llvm::outs(), llvm::errs());
}
