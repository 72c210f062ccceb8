//===- prec-debug.cpp - find the ops that need a higher precision ---------===//

#include "drivers/PrecDebug.h"
#include "drivers/PrecRun.h"
#include "registration/InitAll.h"
#include "tools/DeviceFlags.h"
#include "tools/RunFlags.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::OptionCategory category("prec-debug options");
  cl::opt<std::string> model(cl::Positional, cl::desc("<model.mlir>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> function("function", cl::desc("function to debug"),
                                cl::init("main"), cl::cat(category));
  cl::opt<prec::SearchMode> mode(
      "mode", cl::desc("how to search"),
      cl::values(
          clEnumValN(prec::SearchMode::Bisect, "bisect",
                     "the shortest prefix of ops that passes, by bisection"),
          clEnumValN(prec::SearchMode::Linear, "linear",
                     "the shortest prefix, one op at a time"),
          clEnumValN(prec::SearchMode::WorstFirst, "worst-first",
                     "ops by their own error, worst first"),
          clEnumValN(prec::SearchMode::Delta, "delta",
                     "a minimal set of ops, by delta debugging")),
      cl::init(prec::SearchMode::Bisect), cl::cat(category));
  cl::opt<prec::SearchDirection> direction(
      "dir", cl::desc("where bisect and linear start"),
      cl::values(clEnumValN(prec::SearchDirection::Forward, "forward",
                            "from the inputs"),
                 clEnumValN(prec::SearchDirection::Reverse, "reverse",
                            "from the outputs")),
      cl::init(prec::SearchDirection::Forward), cl::cat(category));
  cl::list<std::string> enabled(
      "enabled",
      cl::desc("the low precision first, then what else prec-legalize may "
               "use (default f16)"),
      cl::CommaSeparated, cl::cat(category));
  cl::opt<prec::precision::ConstraintMode> constraints(
      "constraints", cl::desc("the mode of the plan's entries"),
      cl::values(clEnumValN(prec::precision::ConstraintMode::Obey, "obey",
                            "a pin the target cannot honour is an error"),
                 clEnumValN(prec::precision::ConstraintMode::Prefer, "prefer",
                            "such a pin falls back, with a warning"),
                 clEnumValN(prec::precision::ConstraintMode::None, "none",
                            "such a pin falls back silently")),
      cl::init(prec::precision::ConstraintMode::Prefer), cl::cat(category));
  cl::opt<std::string> target("target", cl::desc("cpu or sm_53 ... sm_121"),
                              cl::cat(category));
  cl::opt<std::string> calibration(
      "calibration", cl::desc("a calibration (prec-calibrate) for i8/f8"),
      cl::cat(category));
  cl::opt<std::string> precision(
      "precision", cl::desc("what marked ops run in: f32 | f16 | bf16"),
      cl::init("f32"), cl::cat(category));
  cl::opt<std::string> golden("golden", cl::desc("golden outputs (.npz)"),
                              cl::cat(category));
  cl::opt<std::string> reference(
      "reference", cl::desc("f32: compare with the model in f32 (default)"),
      cl::cat(category));
  cl::opt<std::string> plan(
      "plan", cl::desc("write the passing configuration as a precision plan"),
      cl::cat(category));
  cl::opt<std::string> reportGraph(
      "report-graph",
      cl::desc("draw the model with the passing configuration (.svg, .png, "
               ".pdf or .dot): layers filled by the error each introduces "
               "(worst-first), the kept ones with a blue border"),
      cl::cat(category));
  cl::opt<bool> firstNonfinite(
      "first-nonfinite",
      cl::desc("report the first op whose output is Inf/NaN at the low "
               "precision, with its inputs' ranges"),
      cl::cat(category));
  cl::opt<bool> compileOnce(
      "compile-once",
      cl::desc("evaluate through one program with per-layer precision "
               "switches where the low precision is a float one and the "
               "high f32 (default); =false compiles every plan"),
      cl::init(true), cl::cat(category));
  cl::opt<bool> verifyCompileOnce(
      "verify-compile-once",
      cl::desc("also compile every evaluated plan and require equal outputs, "
               "bit for bit"),
      cl::cat(category));
  prec::DeviceFlags deviceFlags(category,
                                "evaluations and the f32 reference run");
  prec::InputFlags inputFlags(category);
  prec::ToleranceFlags toleranceFlags(category);
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "prec-debug: find the ops that must stay in a higher precision\n",
          &llvm::errs()))
    return 2;

  prec::PrecDebugOptions options;
  options.modelPath = model;
  options.functionName = function;
  options.inputs = inputFlags.get();
  options.tolerances = toleranceFlags.get();
  options.mode = mode;
  options.direction = direction;
  if (!enabled.empty())
    options.enabled.assign(enabled.begin(), enabled.end());
  options.constraints = constraints;
  options.target = target;
  options.calibration = calibration;
  options.precision = precision;
  options.golden = golden;
  options.reference = reference;
  options.plan = plan;
  options.firstNonfinite = firstNonfinite;
  options.compileOnce = compileOnce;
  options.verifyCompileOnce = verifyCompileOnce;
  options.reportGraph = reportGraph;
  options.device = deviceFlags.get();

  mlir::DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  return prec::runPrecDebug(options, registry, llvm::outs(), llvm::errs());
}
