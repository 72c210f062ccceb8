//===- Shapes.h - the shape and element type of a value ---*- C++ -*-===//

#ifndef PREC_DIALECTS_UTILS_SHAPES_H
#define PREC_DIALECTS_UTILS_SHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Value.h"

namespace prec {

/// The shape of `value`, a ranked tensor.
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType()).getShape();
}

/// The element type of `value`, or its type where it is not shaped.
inline mlir::Type elementOf(mlir::Value value) {
  return mlir::getElementTypeOrSelf(value.getType());
}

} // namespace prec

#endif // PREC_DIALECTS_UTILS_SHAPES_H
