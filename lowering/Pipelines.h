//===- Pipelines.h - prec's lowering pipelines ------------------*- C++ -*-===//

#ifndef PREC_LOWERING_PIPELINES_H
#define PREC_LOWERING_PIPELINES_H

#include "lowering/BatchRange.h"
#include "lowering/ConvolutionPlan.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace prec {

/// `prec-lower-to-cpu`: a legalized module (TOSA with the precision
/// dialect's casts) to the LLVM dialect, for the JIT. Every function's
/// tensor results become out-parameters. Reduced-precision float arithmetic
/// is computed in f32 and rounded to its type after every op, exactly as the
/// GPU rounds; contractions accumulate in their result type (tosa.matmul's
/// result, a conv's acc_type).
void buildLowerToCpuPipeline(mlir::OpPassManager &pm);

/// `prec-lower-to-gpu`: a legalized module to the TOSA that the CUDA emitter
/// (codegen/, `prec-translate --emit-cuda`) turns into kernels and cuBLASLt
/// calls: casts as tosa.cast, biases in their matmul's accumulator. The
/// emitter reads TOSA rather than linalg: its kernels (fused elementwise
/// chains, row reductions) round after every op, which it writes directly
/// from the ops' types.
void buildLowerToGpuPipeline(mlir::OpPassManager &pm);

/// What prec-plan-engine is told about the engine.
struct EnginePlanOptions {
  ConvolutionPreference convolutions = ConvolutionPreference::Auto;
  /// A dynamic batch (the module is at its largest), or none.
  std::optional<BatchRange> batch;
  /// The inputs that carry it; empty: those whose dimension 0 is the
  /// largest batch.
  std::vector<std::string> batchInputs;
};

/// The decisions that shape a CUDA engine, recorded on a lowered function
/// as the engine dialect's attributes for the emitter to follow; `pm` runs
/// on func.func.
void buildEnginePlanPipeline(mlir::OpPassManager &pm,
                             const EnginePlanOptions &options);

/// Registers the lowering passes and pipelines with the pass registry.
void registerLoweringPipelines();

} // namespace prec

#endif // PREC_LOWERING_PIPELINES_H
