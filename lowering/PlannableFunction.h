//===- PlannableFunction.h - what the engine plan accepts -------*- C++ -*-===//

#ifndef PREC_LOWERING_PLANNABLEFUNCTION_H
#define PREC_LOWERING_PLANNABLEFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace prec {

/// Whether the engine plan's passes can plan `function`: one block ended by
/// a return, whose ops' tensors all have static shapes (an engine's buffers
/// have fixed sizes). If not, an error at the op says why.
mlir::LogicalResult checkPlannable(mlir::func::FuncOp function);

} // namespace prec

#endif // PREC_LOWERING_PLANNABLEFUNCTION_H
