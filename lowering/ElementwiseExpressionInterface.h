//===- ElementwiseExpressionInterface.h - CUDA expressions ------*- C++ -*-===//

#ifndef PREC_LOWERING_ELEMENTWISEEXPRESSIONINTERFACE_H
#define PREC_LOWERING_ELEMENTWISEEXPRESSIONINTERFACE_H

#include "mlir/IR/OpDefinition.h"

#include <string>

#include "lowering/ElementwiseExpressionInterface.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace prec {

/// Whether an engine computes `op` element by element: it has an
/// ElementwiseExpressionOpInterface expression.
inline bool isElementwise(mlir::Operation *op) {
  return mlir::isa<ElementwiseExpressionOpInterface>(op);
}

/// Attaches ElementwiseExpressionOpInterface to the TOSA, arith, math and
/// precision ops the emitter computes element by element.
void registerElementwiseExpressionModels(mlir::DialectRegistry &registry);

} // namespace prec

#endif // PREC_LOWERING_ELEMENTWISEEXPRESSIONINTERFACE_H
