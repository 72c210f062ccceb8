//===- PrecisionOpInterface.h - what prec knows of an op --------*- C++ -*-===//
//
// The op interface of PrecisionOpInterface.td, and the questions passes ask
// of any op through it (ops without it: class `other`, no accumulation,
// every tensor operand carries data).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_PRECISIONOPINTERFACE_H
#define PREC_DIALECTS_PRECISION_PRECISIONOPINTERFACE_H

#include "dialects/Precision/ConstantValues.h"
#include "dialects/Precision/Interval.h"
#include "dialects/Precision/OpClass.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

namespace prec {
/// Where an op's TOSA form holds the type it accumulates in, which says how
/// prec-materialize types it.
enum class AccumulatorForm {
  /// It computes in one type, its result's.
  None,
  /// Its result is the accumulator (tosa.matmul).
  Result,
  /// It sums in its operand's type (tosa.reduce_sum): the operand is rounded
  /// to the compute type, then widened to the accumulator.
  Operand,
  /// `acc_type` names it and the result may be narrower (convolutions): the
  /// bias, operand 2, is added in the result's type.
  Attribute,
};

/// The ranked tensor operands of `op`: the data operands of most ops.
llvm::SmallVector<mlir::Value> getTensorOperands(mlir::Operation *op);
} // namespace prec

#include "dialects/Precision/PrecisionOpInterface.h.inc"

namespace prec {

/// The class of `op`.
OpClass classifyOp(mlir::Operation *op);

/// Whether `op` sums many products or values, so that its accumulate type
/// matters: contractions and summing reductions.
bool accumulates(mlir::Operation *op);

/// Whether `op` can run in i8 or f8 on scaled operands (prec-quantize).
bool isQuantizable(mlir::Operation *op);

/// Where `op` holds its accumulate type (None for ops without the interface).
AccumulatorForm getAccumulatorForm(mlir::Operation *op);

/// The operands of `op` that carry the data it computes on.
llvm::SmallVector<mlir::Value> getDataOperands(mlir::Operation *op);

} // namespace prec

#endif // PREC_DIALECTS_PRECISION_PRECISIONOPINTERFACE_H
