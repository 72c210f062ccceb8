//===- prec-run.cpp - run a model on the CPU and compare ------------------===//

#include "drivers/PrecRun.h"
#include "registration/InitAll.h"
#include "tools/RunFlags.h"

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
  prec::InputFlags inputFlags(category);
  prec::ToleranceFlags toleranceFlags(category);
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "prec-run: run a model on the CPU, "
                                   "faithfully rounded, and compare\n",
                                   &llvm::errs()))
    return prec::kBadInput;

  prec::PrecRunOptions options;
  options.modelPath = model;
  options.functionName = function;
  options.inputs = inputFlags.get();
  options.tolerances = toleranceFlags.get();
  if (policy.getNumOccurrences())
    options.policy = policy;
  options.saveInputs = saveInputs;
  options.saveOutputs = saveOutputs;
  options.compareWith = compare;
  options.reference = reference;

  mlir::DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  return prec::runPrecRun(options, registry, llvm::outs(), llvm::errs());
}
