//===- ElementIndexMapInterface.h - ops that only move elements -*- C++ -*-===//

#ifndef PREC_LOWERING_ELEMENTINDEXMAPINTERFACE_H
#define PREC_LOWERING_ELEMENTINDEXMAPINTERFACE_H

#include "mlir/IR/OpDefinition.h"

#include <string>

#include "lowering/ElementIndexMapInterface.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace prec {

/// Whether a fused kernel can read through `op`: it only moves elements,
/// by a map known at compile time.
inline bool isElementIndexMap(mlir::Operation *op) {
  auto map = mlir::dyn_cast<ElementIndexMapOpInterface>(op);
  return map && !map.getElementSources().empty();
}

/// Attaches ElementIndexMapOpInterface to TOSA's transpose, slice, concat,
/// tile and reverse.
void registerElementIndexMapModels(mlir::DialectRegistry &registry);

} // namespace prec

#endif // PREC_LOWERING_ELEMENTINDEXMAPINTERFACE_H
