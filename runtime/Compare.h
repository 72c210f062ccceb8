//===- Compare.h - Polygraphy-style output comparison -----------*- C++ -*-===//
//
// Compares an output with its reference the way `polygraphy run` does: per
// element absolute and relative errors, checked element-wise (each element
// within atol or rtol) or through a statistic of them (max, mean, median,
// a quantile), with NaN and Inf accounted for.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_COMPARE_H
#define PREC_RUNTIME_COMPARE_H

#include "formats/HostTensor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

enum class ErrorStat { Elemwise, Max, Mean, Median, Quantile };

std::optional<ErrorStat> parseErrorStat(llvm::StringRef name);

struct Tolerances {
  double atol = 1e-5;
  double rtol = 1e-5;
  ErrorStat stat = ErrorStat::Elemwise;
  double quantile = 0.99;
  /// Inf compared with an Inf of the same sign is no error.
  bool infinitiesCompareEqual = false;
};

struct ComparisonResult {
  bool passed = false;
  double maxAbsolute = 0, meanAbsolute = 0, medianAbsolute = 0;
  double maxRelative = 0, meanRelative = 0, medianRelative = 0;
  /// The statistics the check used (stat modes only).
  double checkedAbsolute = 0, checkedRelative = 0;
  /// Where the largest absolute error is, and the two values there.
  std::vector<int64_t> worstIndex;
  double worstActual = 0, worstExpected = 0;
  int64_t actualNaNs = 0, actualInfs = 0, expectedNaNs = 0, expectedInfs = 0;
  /// Elements outside both tolerances (element-wise mode).
  int64_t failingElements = 0;
  std::string mismatch; // non-empty when kinds or shapes differ
};

/// Tolerances per output: the defaults, and `--atol out:X` overrides.
struct OutputTolerances {
  Tolerances defaults;
  llvm::StringMap<double> atol, rtol;

  Tolerances forOutput(llvm::StringRef name) const;
};

/// The tolerance options of prec-run and prec-debug, as given.
struct ToleranceOptions {
  std::vector<std::string> atol; // "X" or "output:X"
  std::vector<std::string> rtol;
  std::string checkErrorStat = "elemwise";
  double errorQuantile = 0.99;
  bool infinitiesCompareEqual = false;
};

/// Parses the tolerance options; an error names the bad one.
llvm::Expected<OutputTolerances>
parseOutputTolerances(const ToleranceOptions &options);

/// Compares `actual` with `expected`.
ComparisonResult compareTensors(const HostTensor &actual,
                                const HostTensor &expected,
                                const Tolerances &tolerances);

/// Prints the result for output `name` as prec-run does.
void printComparison(llvm::raw_ostream &os, llvm::StringRef name,
                     const ComparisonResult &result,
                     const Tolerances &tolerances);

} // namespace prec

#endif // PREC_RUNTIME_COMPARE_H
