//===- BlasContractions.h - contractions the CPU hands to BLAS --*- C++ -*-===//
//
// Batch matmuls and NHWC convolutions that accumulate in f32 over f32, f16
// or bf16 operands run on the CPU as calls to a BLAS sgemm
// (runtime/BlasContractions.cpp; a convolution through im2col): only the
// summation order differs from accumulating in program order, which the
// precision semantics leave free. The others (f16 or integer accumulators,
// which round or wrap at each step) are tiled by prec-tile-contractions or
// lowered to loops.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_BLASCONTRACTIONS_H
#define PREC_LOWERING_BLASCONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace prec {

/// The functions contractions are handed to, through the C interface, each
/// adding its result to the f32 output on strided memrefs:
/// `prec_blas_batch_matmul_<t>(A, B, C)`: C += A B, [batch, rows, depth] x
/// [batch, depth, columns];
/// `prec_blas_conv2d_nhwc_fhwc_<t>(X, W, Y, stride h, stride w, dilation h,
/// dilation w)`: Y += X (*) W, X already padded;
/// where <t> is the operands' element type, f32, f16 or bf16.
inline constexpr llvm::StringLiteral kBlasBatchMatmul =
    "prec_blas_batch_matmul";
inline constexpr llvm::StringLiteral kBlasConv2d = "prec_blas_conv2d_nhwc_fhwc";

/// The function `op` is handed to; none when BLAS does not take it.
std::optional<std::string> getBlasFunction(mlir::linalg::LinalgOp op);

} // namespace prec

#endif // PREC_LOWERING_BLASCONTRACTIONS_H
