//===- ComputingAttributes.h - what an op's attributes compute --*- C++ -*-===//

#ifndef PREC_LOWERING_COMPUTINGATTRIBUTES_H
#define PREC_LOWERING_COMPUTINGATTRIBUTES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace prec {

/// The discardable attributes that say what `op` computes: all but its
/// names and the range analysis' notes; an assignment by its types alone
/// (its reason and detail explain the types, they change nothing). Ops of
/// equal computing attributes compute alike whatever layer they come from.
llvm::SmallVector<mlir::NamedAttribute> getComputingAttrs(mlir::Operation *op);

} // namespace prec

#endif // PREC_LOWERING_COMPUTINGATTRIBUTES_H
