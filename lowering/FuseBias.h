//===- FuseBias.h - what counts as a contraction's bias ---------*- C++ -*-===//
//
// prec-fuse-bias moves such a bias into a matmul's accumulator; the CUDA
// emitter gives the same bias to cuBLASLt's epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_FUSEBIAS_H
#define PREC_LOWERING_FUSEBIAS_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace prec {

/// Whether `bias` is a vector along the last dimension of `result`: every
/// other dimension 1, so it broadcasts over the rows.
bool isRowBias(mlir::RankedTensorType bias, mlir::RankedTensorType result);

/// The matmul in whose accumulator prec-fuse-bias added `sum`'s bias: the
/// matmul `sum` reads, directly or through a constant scale; null if none.
mlir::tosa::MatMulOp getAccumulatingMatmul(mlir::tosa::AddOp sum);

} // namespace prec

#endif // PREC_LOWERING_FUSEBIAS_H
