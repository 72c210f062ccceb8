//===- RangeTransfers.h - how ops transform value ranges --------*- C++ -*-===//
//
// The range transfer functions the external models give TOSA and arith
// ops: interval arithmetic for elementwise ops, per-output-channel bounds
// from constant weights for contractions. Each takes the op, a bound of each
// operand (one per operand) and the constants it may read.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_EXTERNALMODELS_RANGETRANSFERS_H
#define PREC_DIALECTS_EXTERNALMODELS_RANGETRANSFERS_H

#include "dialects/Precision/ConstantValues.h"
#include "dialects/Precision/Interval.h"

#include "mlir/IR/Operation.h"

namespace prec {

using RangeTransfer = Interval (*)(mlir::Operation *op,
                                   llvm::ArrayRef<Interval> operands,
                                   ConstantValues &constants);

/// Number of input elements a reduction along its `axis` reduces into each
/// output; ShapedType::kDynamic when unknown.
int64_t getReductionLength(mlir::Operation *op);

#define PREC_RANGE_TRANSFER(name)                                              \
  Interval name(mlir::Operation *op, llvm::ArrayRef<Interval> operands,        \
                ConstantValues &constants)

/// Nothing known.
PREC_RANGE_TRANSFER(unknownRange);
/// The range of the first operand: ops that move or select its elements.
PREC_RANGE_TRANSFER(firstOperandRange);
/// The join of every operand's range (concatenation).
PREC_RANGE_TRANSFER(joinedRange);
/// The range of a constant's elements.
PREC_RANGE_TRANSFER(constantRange);

// Non-decreasing functions of the first operand.
PREC_RANGE_TRANSFER(expRange);
PREC_RANGE_TRANSFER(logRange);
PREC_RANGE_TRANSFER(tanhRange);
PREC_RANGE_TRANSFER(sigmoidRange);
PREC_RANGE_TRANSFER(erfRange);
PREC_RANGE_TRANSFER(floorRange);
PREC_RANGE_TRANSFER(ceilRange);

// Arithmetic.
PREC_RANGE_TRANSFER(addRange);
PREC_RANGE_TRANSFER(subRange);
/// x * x is a square: never negative (a variance's squares).
PREC_RANGE_TRANSFER(mulRange);
PREC_RANGE_TRANSFER(negateRange);
PREC_RANGE_TRANSFER(absRange);
PREC_RANGE_TRANSFER(maximumRange);
PREC_RANGE_TRANSFER(minimumRange);
PREC_RANGE_TRANSFER(clampRange);
/// [-1, 1]: sine and cosine.
PREC_RANGE_TRANSFER(unitRange);
PREC_RANGE_TRANSFER(reciprocalRange);
/// x / y: x times the reciprocal of y.
PREC_RANGE_TRANSFER(quotientRange);
PREC_RANGE_TRANSFER(sqrtRange);
PREC_RANGE_TRANSFER(rsqrtRange);
PREC_RANGE_TRANSFER(powerRange);
/// The join of the two selected operands.
PREC_RANGE_TRANSFER(selectRange);

// Reductions, pooling and padding.
/// The input's range scaled by the length of the summed axis.
PREC_RANGE_TRANSFER(reduceSumRange);
/// Padding averages zeros in.
PREC_RANGE_TRANSFER(avgPoolRange);
/// The input joined with the pad value.
PREC_RANGE_TRANSFER(padRange);

// Contractions: per output channel from constant weights where known.
PREC_RANGE_TRANSFER(matmulRange);
/// Conv2D, Conv3D and TransposeConv2D: weights [O, ...taps, C].
PREC_RANGE_TRANSFER(convolutionRange);
/// DepthwiseConv2D: weights [KH, KW, C, M].
PREC_RANGE_TRANSFER(depthwiseConvolutionRange);

#undef PREC_RANGE_TRANSFER

} // namespace prec

#endif // PREC_DIALECTS_EXTERNALMODELS_RANGETRANSFERS_H
