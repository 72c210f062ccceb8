//===- BlasContractions.h - contractions the CPU hands to BLAS --*- C++ -*-===//
//
// Batch matmuls that accumulate in f32 over f32, f16 or bf16 operands run
// on the CPU as calls to a BLAS sgemm (runtime/BlasContractions.cpp): only
// the summation order differs from accumulating in program order, which
// the precision semantics leave free. The others (f16 or integer
// accumulators, which round or wrap at each step) are tiled by
// prec-tile-contractions.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_BLASCONTRACTIONS_H
#define PREC_LOWERING_BLASCONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace prec {

/// The functions contractions are handed to, by their operands' element
/// type: each computes C += A B on strided [batch, rows, depth] x [batch,
/// depth, columns] memrefs into an f32 C, through the C interface.
inline constexpr llvm::StringLiteral kBlasBatchMatmulF32 =
    "prec_blas_batch_matmul_f32";
inline constexpr llvm::StringLiteral kBlasBatchMatmulF16 =
    "prec_blas_batch_matmul_f16";
inline constexpr llvm::StringLiteral kBlasBatchMatmulBF16 =
    "prec_blas_batch_matmul_bf16";

/// The function `op` is handed to; none when BLAS does not take it.
std::optional<llvm::StringRef> getBlasFunction(mlir::linalg::LinalgOp op);

} // namespace prec

#endif // PREC_LOWERING_BLASCONTRACTIONS_H
