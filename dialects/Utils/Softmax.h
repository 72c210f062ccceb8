//===- Softmax.h - the parts of a softmax as TOSA writes it -----*- C++ -*-===//
//
// Importers and exporters write softmax(x) over an axis as
// exp(x - reduce_max(x)) * reciprocal(reduce_sum(exp(...))). Range
// analysis bounds its parts, and the engine plan fuses it into attention:
// both find them here.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_UTILS_SOFTMAX_H
#define PREC_DIALECTS_UTILS_SOFTMAX_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <optional>

namespace prec {

/// A softmax's normalization `terms * reciprocal(reduce_sum(terms))`, the
/// terms on either side of the product.
struct SoftmaxQuotient {
  mlir::tosa::MulOp product;
  mlir::tosa::ReciprocalOp reciprocal;
  mlir::tosa::ReduceSumOp sum;
  mlir::Value terms;
};

/// `op` as a softmax's normalization, or none (also for a null `op`).
std::optional<SoftmaxQuotient> matchSoftmaxQuotient(mlir::Operation *op);

/// A softmax's shift `x - reduce_max(x)`.
struct MaximumShift {
  mlir::tosa::SubOp shift;
  mlir::tosa::ReduceMaxOp maximum;
};

/// `op` as a shift of x by its own maximum over an axis, or none (also for
/// a null `op`).
std::optional<MaximumShift> matchMaximumShift(mlir::Operation *op);

} // namespace prec

#endif // PREC_DIALECTS_UTILS_SOFTMAX_H
