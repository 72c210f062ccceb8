//===- Interval.h - closed ranges of tensor values --------------*- C++ -*-===//
//
// A closed interval [lo, hi] bounding every element of a tensor, with the
// arithmetic range analysis needs. Endpoints may be infinite; "unknown" is
// [-inf, +inf]. Products treat 0 * inf as 0 (a zero factor bounds the term).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_INTERVAL_H
#define PREC_DIALECTS_PRECISION_INTERVAL_H

#include "mlir/IR/Types.h"

#include <limits>

namespace prec {

struct Interval {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();

  static Interval unknown() { return {}; }
  static Interval point(double value) { return {value, value}; }

  bool isUnknown() const;
  bool contains(double value) const { return lo <= value && value <= hi; }
  /// The largest magnitude of any value in the interval.
  double maxMagnitude() const;

  Interval join(const Interval &other) const;
  /// Clips to [lo, hi] (a clamp).
  Interval clip(double low, double high) const;
  /// Images of a non-decreasing function.
  template <typename Fn> Interval mapMonotone(Fn fn) const {
    return {fn(lo), fn(hi)};
  }

  bool operator==(const Interval &other) const {
    return lo == other.lo && hi == other.hi;
  }
};

Interval operator+(const Interval &a, const Interval &b);
Interval operator-(const Interval &a, const Interval &b);
Interval operator*(const Interval &a, const Interval &b);
/// `a` scaled by `count` (the sum of `count` values each in `a`).
Interval scale(const Interval &a, double count);

/// Product of two numbers where a zero factor wins over an infinite one.
double boundedProduct(double a, double b);

/// Whether values in `range` overflow `type`'s largest finite value. An
/// unbounded end is no evidence of overflow (the analysis knows no bound)
/// unless the whole range lies beyond the largest finite value. An infinity
/// ([-inf, -inf]: the value is that infinity) overflows only a type without
/// infinities.
bool overflows(const Interval &range, mlir::Type type);

/// Whether every value in `range` overflows `type`: the whole range lies
/// beyond its largest finite value (an infinity, only in a type without
/// infinities).
bool overflowsEverywhere(const Interval &range, mlir::Type type);

/// Whether every non-zero value in `range` lies below `type`'s smallest
/// normal value, so that relative error is no longer bounded by the
/// precision (subnormals or flush to zero).
bool underflows(const Interval &range, mlir::Type type);

/// `type`'s largest finite value (f16: 65504).
double getLargestFinite(mlir::Type type);

} // namespace prec

#endif // PREC_DIALECTS_PRECISION_INTERVAL_H
