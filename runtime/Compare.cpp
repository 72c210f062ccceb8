//===- Compare.cpp - Polygraphy-style output comparison -------------------===//

#include "runtime/Compare.h"

#include "support/Errors.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace prec {

/// Parses `X` or `name:X` entries into a default and per-output values.
static llvm::Error parseTolerances(llvm::ArrayRef<std::string> entries,
                                   llvm::StringRef option, double &defaultValue,
                                   llvm::StringMap<double> &perOutput) {
  for (llvm::StringRef entry : entries) {
    auto [name, value] = entry.rsplit(':');
    if (value.empty()) {
      value = name;
      name = "";
    }
    double parsed = 0;
    if (value.getAsDouble(parsed) || parsed < 0)
      return makeError("--" + option + " '" + entry +
                       "' is not a non-negative number or <output>:<number>");
    if (name.empty())
      defaultValue = parsed;
    else
      perOutput[name] = parsed;
  }
  return llvm::Error::success();
}

Tolerances OutputTolerances::forOutput(llvm::StringRef name) const {
  Tolerances tolerances = defaults;
  if (auto it = atol.find(name); it != atol.end())
    tolerances.atol = it->second;
  if (auto it = rtol.find(name); it != rtol.end())
    tolerances.rtol = it->second;
  return tolerances;
}

llvm::Expected<OutputTolerances>
parseOutputTolerances(const ToleranceOptions &options) {
  OutputTolerances tolerances;
  if (llvm::Error error = parseTolerances(
          options.atol, "atol", tolerances.defaults.atol, tolerances.atol))
    return std::move(error);
  if (llvm::Error error = parseTolerances(
          options.rtol, "rtol", tolerances.defaults.rtol, tolerances.rtol))
    return std::move(error);
  std::optional<ErrorStat> parsed = parseErrorStat(options.checkErrorStat);
  if (!parsed)
    return makeError("--check-error-stat must be elemwise, max, mean, "
                     "median or quantile, not '" +
                     options.checkErrorStat + "'");
  tolerances.defaults.stat = *parsed;
  if (options.errorQuantile < 0 || options.errorQuantile > 1)
    return makeError("--error-quantile must lie in [0, 1]");
  tolerances.defaults.quantile = options.errorQuantile;
  tolerances.defaults.infinitiesCompareEqual = options.infinitiesCompareEqual;
  return tolerances;
}

std::optional<ErrorStat> parseErrorStat(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ErrorStat>>(name)
      .Case("elemwise", ErrorStat::Elemwise)
      .Case("max", ErrorStat::Max)
      .Case("mean", ErrorStat::Mean)
      .Case("median", ErrorStat::Median)
      .Case("quantile", ErrorStat::Quantile)
      .Default(std::nullopt);
}

/// The q-quantile of `values` (sorted in place), linearly interpolated as
/// numpy's default does.
static double quantileOf(std::vector<double> &values, double q) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  double position = q * (values.size() - 1);
  size_t below = static_cast<size_t>(std::floor(position));
  size_t above = std::min(below + 1, values.size() - 1);
  double fraction = position - below;
  return values[below] + fraction * (values[above] - values[below]);
}

static std::vector<int64_t> unflatten(int64_t index,
                                      llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> position(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    position[i] = shape[i] ? index % shape[i] : 0;
    index = shape[i] ? index / shape[i] : 0;
  }
  return position;
}

ComparisonResult compareTensors(const HostTensor &actual,
                                const HostTensor &expected,
                                const Tolerances &tolerances) {
  ComparisonResult result;
  if (actual.shape != expected.shape) {
    result.mismatch = "shape " + actual.formatShape() +
                      " differs from the reference's " + expected.formatShape();
    return result;
  }
  int64_t count = actual.getNumElements();
  std::vector<double> absolute(count), relative(count);
  double worst = -1;
  for (int64_t i = 0; i < count; ++i) {
    double a = actual.getAsDouble(i), e = expected.getAsDouble(i);
    result.actualNaNs += std::isnan(a);
    result.actualInfs += std::isinf(a);
    result.expectedNaNs += std::isnan(e);
    result.expectedInfs += std::isinf(e);
    double abs = 0, rel = 0;
    bool equalInfinities = std::isinf(a) && std::isinf(e) &&
                           std::signbit(a) == std::signbit(e) &&
                           tolerances.infinitiesCompareEqual;
    bool bothNaN = std::isnan(a) && std::isnan(e);
    if (!equalInfinities && !bothNaN) {
      abs = std::fabs(a - e);
      // NaN or Inf where the other is not: an infinite error.
      if (std::isnan(abs))
        abs = std::numeric_limits<double>::infinity();
      rel = abs == 0 ? 0 : abs / std::fabs(e);
    }
    absolute[i] = abs;
    relative[i] = rel;
    if (abs > worst) {
      worst = abs;
      result.worstIndex = unflatten(i, actual.shape);
      result.worstActual = a;
      result.worstExpected = e;
    }
    if (!(abs <= tolerances.atol || rel <= tolerances.rtol))
      ++result.failingElements;
  }
  if (count > 0) {
    result.maxAbsolute = *std::max_element(absolute.begin(), absolute.end());
    result.maxRelative = *std::max_element(relative.begin(), relative.end());
    result.meanAbsolute =
        std::accumulate(absolute.begin(), absolute.end(), 0.0) / count;
    result.meanRelative =
        std::accumulate(relative.begin(), relative.end(), 0.0) / count;
  }
  std::vector<double> sortedAbsolute = absolute, sortedRelative = relative;
  result.medianAbsolute = quantileOf(sortedAbsolute, 0.5);
  result.medianRelative = quantileOf(sortedRelative, 0.5);

  switch (tolerances.stat) {
  case ErrorStat::Elemwise:
    result.passed = result.failingElements == 0;
    return result;
  case ErrorStat::Max:
    result.checkedAbsolute = result.maxAbsolute;
    result.checkedRelative = result.maxRelative;
    break;
  case ErrorStat::Mean:
    result.checkedAbsolute = result.meanAbsolute;
    result.checkedRelative = result.meanRelative;
    break;
  case ErrorStat::Median:
    result.checkedAbsolute = result.medianAbsolute;
    result.checkedRelative = result.medianRelative;
    break;
  case ErrorStat::Quantile:
    result.checkedAbsolute = quantileOf(sortedAbsolute, tolerances.quantile);
    result.checkedRelative = quantileOf(sortedRelative, tolerances.quantile);
    break;
  }
  result.passed = result.checkedAbsolute <= tolerances.atol ||
                  result.checkedRelative <= tolerances.rtol;
  return result;
}

void printComparison(llvm::raw_ostream &os, llvm::StringRef name,
                     const ComparisonResult &result,
                     const Tolerances &tolerances) {
  os << "output '" << name << "': ";
  if (!result.mismatch.empty()) {
    os << result.mismatch << "\n  FAIL\n";
    return;
  }
  auto number = [](double value) { return llvm::format("%.6g", value); };
  os << "atol=" << number(tolerances.atol)
     << " rtol=" << number(tolerances.rtol) << "\n";
  os << "  absolute error: max " << number(result.maxAbsolute) << ", mean "
     << number(result.meanAbsolute) << ", median "
     << number(result.medianAbsolute) << "\n";
  os << "  relative error: max " << number(result.maxRelative) << ", mean "
     << number(result.meanRelative) << ", median "
     << number(result.medianRelative) << "\n";
  os << "  worst at [";
  llvm::interleaveComma(result.worstIndex, os);
  os << "]: " << number(result.worstActual) << " vs reference "
     << number(result.worstExpected) << "\n";
  os << "  NaN: " << result.actualNaNs << " (reference " << result.expectedNaNs
     << "), Inf: " << result.actualInfs << " (reference " << result.expectedInfs
     << ")\n";
  if (tolerances.stat == ErrorStat::Elemwise)
    os << "  elements outside tolerance: " << result.failingElements << "\n";
  else
    os << "  checked statistic: absolute " << number(result.checkedAbsolute)
       << ", relative " << number(result.checkedRelative) << "\n";
  os << "  " << (result.passed ? "PASS" : "FAIL") << "\n";
}

} // namespace prec
