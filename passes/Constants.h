//===- Constants.h - questions about constant tensors -----------*- C++ -*-===//

#ifndef PREC_PASSES_CONSTANTS_H
#define PREC_PASSES_CONSTANTS_H

#include "mlir/IR/Value.h"

namespace prec {

/// Whether `value` is a tosa.const whose elements are all zero.
bool isZeroConstant(mlir::Value value);

} // namespace prec

#endif // PREC_PASSES_CONSTANTS_H
