//===- RunFlags.h - flags prec-run and prec-debug share ---------*- C++ -*-===//
//
// Inputs and tolerances are given to prec-debug exactly as to prec-run:
// both declare them here.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_TOOLS_RUNFLAGS_H
#define PREC_TOOLS_RUNFLAGS_H

#include "drivers/PrecRun.h"
#include "runtime/Compare.h"

#include "llvm/Support/CommandLine.h"

namespace prec {

/// --load-inputs, --val-range, --seed.
struct InputFlags {
  explicit InputFlags(llvm::cl::OptionCategory &category)
      : loadInputs("load-inputs", llvm::cl::desc("inputs from an .npz"),
                   llvm::cl::cat(category)),
        valRanges("val-range",
                  llvm::cl::desc("<input>:[lo,hi] of generated inputs "
                                 "(repeat the option or separate with "
                                 "commas)"),
                  llvm::cl::cat(category)),
        seed("seed", llvm::cl::desc("seed of generated inputs"),
             llvm::cl::init(1), llvm::cl::cat(category)) {}

  InputOptions get() const {
    InputOptions options;
    options.loadInputs = loadInputs;
    for (const std::string &entries : valRanges)
      for (llvm::StringRef entry : splitOutsideBrackets(entries))
        options.valRanges.push_back(entry.str());
    options.seed = seed;
    return options;
  }

  llvm::cl::opt<std::string> loadInputs;
  llvm::cl::list<std::string> valRanges;
  llvm::cl::opt<uint64_t> seed;
};

/// --atol, --rtol, --check-error-stat, --error-quantile,
/// --infinities-compare-equal.
struct ToleranceFlags {
  explicit ToleranceFlags(llvm::cl::OptionCategory &category)
      : atol("atol", llvm::cl::desc("absolute tolerance, or <output>:<x>"),
             llvm::cl::cat(category)),
        rtol("rtol", llvm::cl::desc("relative tolerance, or <output>:<x>"),
             llvm::cl::cat(category)),
        checkErrorStat(
            "check-error-stat",
            llvm::cl::desc("elemwise | max | mean | median | quantile"),
            llvm::cl::init("elemwise"), llvm::cl::cat(category)),
        errorQuantile("error-quantile",
                      llvm::cl::desc("quantile for --check-error-stat"),
                      llvm::cl::init(0.99), llvm::cl::cat(category)),
        infinitiesCompareEqual("infinities-compare-equal",
                               llvm::cl::desc("equal infinities are no error"),
                               llvm::cl::cat(category)) {}

  ToleranceOptions get() const {
    ToleranceOptions options;
    options.atol.assign(atol.begin(), atol.end());
    options.rtol.assign(rtol.begin(), rtol.end());
    options.checkErrorStat = checkErrorStat;
    options.errorQuantile = errorQuantile;
    options.infinitiesCompareEqual = infinitiesCompareEqual;
    return options;
  }

  llvm::cl::list<std::string> atol;
  llvm::cl::list<std::string> rtol;
  llvm::cl::opt<std::string> checkErrorStat;
  llvm::cl::opt<double> errorQuantile;
  llvm::cl::opt<bool> infinitiesCompareEqual;
};

} // namespace prec

#endif // PREC_TOOLS_RUNFLAGS_H
