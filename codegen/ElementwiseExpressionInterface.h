//===- ElementwiseExpressionInterface.h - CUDA expressions ------*- C++ -*-===//

#ifndef PREC_CODEGEN_ELEMENTWISEEXPRESSIONINTERFACE_H
#define PREC_CODEGEN_ELEMENTWISEEXPRESSIONINTERFACE_H

#include "mlir/IR/OpDefinition.h"

#include <string>

#include "codegen/ElementwiseExpressionInterface.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace prec::cuda {

/// Attaches ElementwiseExpressionOpInterface to the TOSA, arith, math and
/// precision ops the emitter computes element by element.
void registerElementwiseExpressionModels(mlir::DialectRegistry &registry);

} // namespace prec::cuda

#endif // PREC_CODEGEN_ELEMENTWISEEXPRESSIONINTERFACE_H
