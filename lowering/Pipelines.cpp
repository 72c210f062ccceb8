//===- Pipelines.cpp - prec's lowering pipelines --------------------------===//

#include "lowering/Pipelines.h"

#include "lowering/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace prec {

// The upstream passes after the shared lowering, in order. Written as
// a pipeline string so that it reads like the pipeline it is.
static constexpr const char *kCpuPipeline =
    // TOSA to linalg on tensors, elementwise ops fused.
    "func.func(tosa-optional-decompositions,tosa-to-linalg-named,"
    "tosa-to-linalg,tosa-to-arith,"
    "tosa-to-tensor),"
    // arith/math ops on tensors (Div, Sqrt: TOSA has no float division).
    "func.func(convert-elementwise-to-linalg),"
    "canonicalize,func.func(prec-fuse-elementwise),"
    // Matmuls: cache blocks, register tiles, vector.contract.
    "func.func(prec-tile-contractions),canonicalize,"
    // One buffer per result, even where a value is returned twice.
    "func.func(prec-copy-repeated-results),"
    // Buffers; results become caller-allocated out-parameters.
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions "
    "hoist-static-allocs},"
    "buffer-deallocation-pipeline,"
    "func.func(prec-hoist-vector-transfers),"
    "func.func(convert-linalg-to-loops),convert-vector-to-scf,"
    // Reduced-precision floats: math functions are computed in f32 and
    // rounded; f16/bf16 arithmetic is left to LLVM, which promotes every op
    // to f32 and rounds its result (correctly rounded for + - * / sqrt).
    // arith-emulate-unsupported-floats is not used: the fast-math flags it
    // puts on its extf/truncf pairs let LLVM drop the rounding between ops.
    "math-extend-to-supported-types{target-type=f32},"
    // 8-bit floats live as bytes; their conversions become bit arithmetic.
    "func.func(prec-expand-f8-casts),"
    // To LLVM.
    "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "convert-vector-to-llvm{vector-contract-lowering=outerproduct},"
    "convert-math-to-llvm,"
    "convert-math-to-libm,finalize-memref-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,"
    "convert-cf-to-llvm,reconcile-unrealized-casts";

/// The rewrites both pipelines start with, so that the CPU computes what
/// the CUDA engine computes.
static void addSharedLowering(OpPassManager &pm) {
  pm.addPass(createPrecLowerPrecisionCasts());
  pm.addNestedPass<func::FuncOp>(createPrecFuseBias());
}

void buildLowerToCpuPipeline(OpPassManager &pm) {
  addSharedLowering(pm);
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(kCpuPipeline, pm, errorStream)))
    llvm::report_fatal_error(llvm::Twine("prec-lower-to-cpu: ") + error);
}

void buildLowerToGpuPipeline(OpPassManager &pm) { addSharedLowering(pm); }

void registerLoweringPipelines() {
  registerPrecLoweringPasses();
  PassPipelineRegistration<>(
      "prec-lower-to-cpu",
      "Lower a legalized module to the LLVM dialect for the CPU JIT",
      buildLowerToCpuPipeline);
  PassPipelineRegistration<>(
      "prec-lower-to-gpu",
      "Rewrite a legalized module into the TOSA the CUDA emitter reads",
      buildLowerToGpuPipeline);
}

} // namespace prec
