//===- Normalization.h - the statistics of normalization layers -*- C++ -*-===//
//
// LayerNorm, GroupNorm, InstanceNorm and RMSNorm reach prec as TOSA chains:
// the importer decomposes the ONNX ops, and exporters decompose them before
// that (ReduceMean, Sub, Pow or Mul, ReduceMean, Add, Sqrt or Rsqrt, Div or
// Reciprocal, Mul). Their statistics overflow f16 long before their inputs
// do: the square of a value of 300 already exceeds 65504. This analysis
// finds the ops computing the statistics and the ops applying them, so that
// the precision rules keep the statistics in f32 (DESIGN.md, "Op classes").
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_NORMALIZATION_H
#define PREC_PASSES_NORMALIZATION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace prec {

enum class NormalizationRole {
  /// The mean, the centred values, their squares, the variance (or mean
  /// square), epsilon, the root and its reciprocal.
  Statistic,
  /// The centred values (or the input, for RMSNorm) times the factor, or
  /// divided by the deviation: the normalized output.
  Output,
};

/// The normalization patterns under an op, matched backwards from each root
/// (rsqrt, sqrt, or a power of 0.5 or -0.5) of a mean of squares.
class NormalizationAnalysis {
public:
  explicit NormalizationAnalysis(mlir::Operation *root);

  std::optional<NormalizationRole> getRole(mlir::Operation *op) const;

  /// For an output op: the value being normalized.
  mlir::Value getNormalizedInput(mlir::Operation *op) const;

  /// For an output op: the largest magnitude its elements can take,
  /// whatever the input (sqrt(N - 1) for a LayerNorm over N elements,
  /// sqrt(N) for an RMSNorm), in exact arithmetic; none where a constant of
  /// the pattern is not a splat or epsilon is negative. A dynamic reduced
  /// size gives the bound without centring, 1/sqrt(the variance's scale).
  std::optional<double> getOutputBound(mlir::Operation *op) const;

private:
  void matchRoot(mlir::Operation *rootOp);

  llvm::DenseMap<mlir::Operation *, NormalizationRole> roles;
  llvm::DenseMap<mlir::Operation *, mlir::Value> normalizedInputs;
  llvm::DenseMap<mlir::Operation *, double> outputBounds;
};

} // namespace prec

#endif // PREC_PASSES_NORMALIZATION_H
