//===- Interval.cpp - closed ranges of tensor values ----------------------===//

#include "dialects/Precision/Interval.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace prec {

bool Interval::isUnknown() const {
  return std::isinf(lo) && lo < 0 && std::isinf(hi) && hi > 0;
}

double Interval::maxMagnitude() const {
  return std::max(std::fabs(lo), std::fabs(hi));
}

Interval Interval::join(const Interval &other) const {
  return {std::min(lo, other.lo), std::max(hi, other.hi)};
}

Interval Interval::clip(double low, double high) const {
  return {std::clamp(lo, low, high), std::clamp(hi, low, high)};
}

double boundedProduct(double a, double b) {
  if (a == 0 || b == 0)
    return 0;
  return a * b;
}

Interval operator+(const Interval &a, const Interval &b) {
  // -inf + inf cannot occur for lo + lo or hi + hi of valid intervals except
  // for unknown operands, where the result is unknown anyway.
  double lo = a.lo + b.lo, hi = a.hi + b.hi;
  if (std::isnan(lo))
    lo = -std::numeric_limits<double>::infinity();
  if (std::isnan(hi))
    hi = std::numeric_limits<double>::infinity();
  return {lo, hi};
}

Interval operator-(const Interval &a, const Interval &b) {
  return a + Interval{-b.hi, -b.lo};
}

Interval operator*(const Interval &a, const Interval &b) {
  double products[] = {boundedProduct(a.lo, b.lo), boundedProduct(a.lo, b.hi),
                       boundedProduct(a.hi, b.lo), boundedProduct(a.hi, b.hi)};
  return {*std::min_element(std::begin(products), std::end(products)),
          *std::max_element(std::begin(products), std::end(products))};
}

Interval scale(const Interval &a, double count) {
  return a * Interval::point(count);
}

namespace {
/// What range checks ask of a float type, in doubles.
struct FloatLimits {
  double largestFinite;
  double smallestNormal;
};
} // namespace

/// The limits of `type`, worked out with APFloat once per format and thread:
/// range checks ask for them on every operand of every op.
static FloatLimits getFloatLimits(FloatType type) {
  thread_local llvm::SmallDenseMap<const llvm::fltSemantics *, FloatLimits, 8>
      known;
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  auto [entry, inserted] = known.try_emplace(&semantics);
  if (inserted)
    entry->second = {
        llvm::APFloat::getLargest(semantics).convertToDouble(),
        llvm::APFloat::getSmallestNormalized(semantics).convertToDouble()};
  return entry->second;
}

double getLargestFinite(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return getFloatLimits(floatType).largestFinite;
  if (auto intType = dyn_cast<IntegerType>(type))
    return std::ldexp(1.0, intType.getWidth() - 1) - 1;
  return std::numeric_limits<double>::infinity();
}

/// Whether `range` is one infinity and `type` holds it (f16, bf16, f32; not
/// f8 E4M3FN or an integer): a mask's -inf, which is no overflow.
static bool isHeldInfinity(const Interval &range, Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return range.lo == range.hi && std::isinf(range.lo) && floatType &&
         llvm::APFloat::semanticsHasInf(floatType.getFloatSemantics());
}

bool overflowsEverywhere(const Interval &range, Type type) {
  double largest = getLargestFinite(type);
  return !isHeldInfinity(range, type) &&
         (range.lo > largest || range.hi < -largest);
}

bool overflows(const Interval &range, Type type) {
  if (isHeldInfinity(range, type))
    return false;
  // Every value beyond the largest finite one: a certain overflow, even when
  // the other end is unbounded.
  if (overflowsEverywhere(range, type))
    return true;
  // An unbounded end only says the analysis knows no bound: no fact.
  if (std::isinf(range.lo) || std::isinf(range.hi))
    return false;
  return range.maxMagnitude() > getLargestFinite(type);
}

bool underflows(const Interval &range, Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return false;
  double smallestNormal = getFloatLimits(floatType).smallestNormal;
  double magnitude = range.maxMagnitude();
  return magnitude > 0 && magnitude < smallestNormal;
}

} // namespace prec
