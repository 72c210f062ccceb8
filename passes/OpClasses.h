//===- OpClasses.h - which class each op belongs to -------------*- C++ -*-===//
//
// The classes themselves are in dialects/Precision/OpClass.h.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_OPCLASSES_H
#define PREC_PASSES_OPCLASSES_H

#include "dialects/Precision/OpClass.h"

#include "mlir/IR/Operation.h"

namespace prec {

/// Reductions of at least this many elements per output are sensitive: the
/// rounding error of a reduced-precision sum grows with its length.
inline constexpr int64_t kSensitiveReductionLength = 256;

/// The class of `op`.
OpClass classifyOp(mlir::Operation *op);

/// Whether `op` sums many products or values, so that its accumulate type
/// matters: contractions and summing reductions.
bool accumulates(mlir::Operation *op);

} // namespace prec

#endif // PREC_PASSES_OPCLASSES_H
