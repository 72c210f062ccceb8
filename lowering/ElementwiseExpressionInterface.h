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

/// Attaches ElementwiseExpressionOpInterface to the TOSA, arith, math and
/// precision ops the emitter computes element by element.
void registerElementwiseExpressionModels(mlir::DialectRegistry &registry);

} // namespace prec

#endif // PREC_LOWERING_ELEMENTWISEEXPRESSIONINTERFACE_H
