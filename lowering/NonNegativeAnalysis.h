//===- NonNegativeAnalysis.h - values never NaN nor below 0 -*- C++ -*-===//
//
// A sparse forward dataflow analysis (mlir::dataflow) of an engine plan's
// function: which float values are numbers (never NaN, +inf allowed) at or
// above 0 in the engine. A clamp the engine computes to a lower bound of 0
// or more (its fmaxf or __hmax returns the bound for NaN) starts one; a
// constant whose elements are, float casts to types with infinities, scales
// by positive finite constants, sums, max pools, pads and moves of such
// values keep one. Runs after prec-plan-kernels: whether a clamp is the
// engine's (not in a cuBLASLt or cuDNN epilogue) is its kernel's kind.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_NONNEGATIVEANALYSIS_H
#define PREC_LOWERING_NONNEGATIVEANALYSIS_H

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tosa {
class ClampOp;
} // namespace mlir::tosa

namespace prec {

/// Whether the engine's own kernels compute `clamp` (with fmaxf or __hmax,
/// which return the bound for NaN), not cuBLASLt or cuDNN in an epilogue.
bool isEngineClamp(mlir::tosa::ClampOp clamp);

class NonNegativeAnalysis {
public:
  /// Analyzes `function`; fails (with an error) where the solver does.
  static mlir::FailureOr<NonNegativeAnalysis> run(mlir::func::FuncOp function);

  /// Whether `value` is proven a number at or above 0.
  bool isNonNegativeNumber(mlir::Value value) const;

private:
  NonNegativeAnalysis() = default;
  std::unique_ptr<mlir::DataFlowSolver> solver;
};

} // namespace prec

#endif // PREC_LOWERING_NONNEGATIVEANALYSIS_H
