//===- Pipelines.cpp - prec's lowering pipelines --------------------------===//

#include "lowering/Pipelines.h"

#include "lowering/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace prec {

/// TOSA to linalg on tensors, elementwise ops fused, matmuls tiled.
static void addTosaToLinalg(OpPassManager &pm) {
  OpPassManager &function = pm.nest<func::FuncOp>();
  function.addPass(tosa::createTosaOptionalDecompositionsPass());
  function.addPass(tosa::createTosaToLinalgNamed());
  function.addPass(tosa::createTosaToLinalg());
  function.addPass(createTosaToArithPass());
  function.addPass(createTosaToTensorPass());
  // arith/math ops on tensors (Div, Sqrt: TOSA has no float division).
  function.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createPrecFuseElementwise());
  // Matmuls: cache blocks, register tiles, vector.contract.
  pm.addNestedPass<func::FuncOp>(createPrecTileContractions());
  pm.addPass(createCanonicalizerPass());
}

/// Buffers; results become caller-allocated out-parameters.
static void addBufferization(OpPassManager &pm) {
  // One buffer per result, even where a value is returned twice.
  pm.addNestedPass<func::FuncOp>(createPrecCopyRepeatedResults());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  outParams.hoistStaticAllocs = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
}

/// Loops and vectors, then the LLVM dialect.
static void addToLlvm(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createPrecHoistVectorTransfers());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createPrecOutlineLoopNests());
  // Reduced-precision floats: math functions are computed in f32 and
  // rounded; f16/bf16 arithmetic is left to LLVM, which promotes every op
  // to f32 and rounds its result (correctly rounded for + - * / sqrt).
  // arith-emulate-unsupported-floats is not used: the fast-math flags it
  // puts on its extf/truncf pairs let LLVM drop the rounding between ops.
  math::MathExtendToSupportedTypesOptions extend;
  extend.targetTypeStr = "f32";
  pm.addPass(math::createMathExtendToSupportedTypes(extend));
  // 8-bit floats live as bytes; their conversions become bit arithmetic.
  pm.addNestedPass<func::FuncOp>(createPrecExpandF8Casts());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  ConvertVectorToLLVMPassOptions vectorToLlvm;
  vectorToLlvm.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLlvm));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The rewrites both pipelines start with, so that the CPU computes what
/// the CUDA engine computes.
static void addSharedLowering(OpPassManager &pm) {
  pm.addPass(createPrecLowerPrecisionCasts());
  pm.addNestedPass<func::FuncOp>(createPrecFuseBias());
  pm.addNestedPass<func::FuncOp>(createPrecSquarePowers());
  pm.addNestedPass<func::FuncOp>(createPrecDropSaturatedBounds());
  pm.addNestedPass<func::FuncOp>(createPrecShrinkBroadcasts());
  // Equal ops computed once, whatever layer names they carry: the
  // quantization materialized for each Linear reading one activation
  // (LLaMA's q, k and v projections), the causal mask each layer rebuilds.
  pm.addNestedPass<func::FuncOp>(createPrecMergeLayerDuplicates());
}

void buildLowerToCpuPipeline(OpPassManager &pm) {
  addSharedLowering(pm);
  addTosaToLinalg(pm);
  addBufferization(pm);
  pm.addPass(createPrecBlasContractions());
  addToLlvm(pm);
}

void buildLowerToGpuPipeline(OpPassManager &pm) { addSharedLowering(pm); }

void buildEnginePlanPipeline(OpPassManager &pm,
                             const EnginePlanOptions &options) {
  pm.addPass(createPrecShareThroughSlices());
  pm.addPass(createPrecNarrowMaxPools());
  pm.addPass(createPrecFuseAttention());
  pm.addPass(createPrecFoldAttentionViews());
  pm.addPass(createPrecFuseAttentionQuantization());
  pm.addPass(createPrecFuseAttentionScales());
  pm.addPass(createPrecTransposeGemmOperands());
  pm.addPass(createPrecSpaceToDepth({options.convolutions}));
  pm.addPass(createPrecPlanBatch(
      {options.batch, llvm::to_vector(options.batchInputs)}));
  pm.addPass(
      createPrecChooseConvAlgorithms({options.convolutions, options.batch}));
  pm.addPass(createPrecPlanKernels());
  pm.addPass(createPrecMarkMetLowerBounds());
  pm.addPass(createPrecPlanWeightLayouts());
  pm.addPass(createPrecPlanCopyVectors());
  pm.addPass(createPrecPlanElementwiseVectors());
  pm.addPass(createPrecPlanBuffers());
  pm.addPass(createPrecPlanIndexWidth());
}

namespace {

/// prec-plan-engine's command-line options: those of prec-plan-batch,
/// prec-space-to-depth and prec-choose-conv-algorithms.
struct EnginePlanPipelineOptions
    : public PassPipelineOptions<EnginePlanPipelineOptions> {
  Option<ConvolutionPreference> convolutions{
      *this, "conv",
      llvm::cl::desc("how convolutions other than unit-stride 1x1 ones run"),
      llvm::cl::init(ConvolutionPreference::Auto),
      PREC_CONVOLUTION_PREFERENCE_VALUES};
  Option<std::optional<BatchRange>> batch{
      *this, "batch",
      llvm::cl::desc("a dynamic batch MIN:OPT:MAX (the module is at MAX)")};
  ListOption<std::string> batchInputs{
      *this, "batch-inputs",
      llvm::cl::desc("the inputs whose dimension 0 is the batch (default: "
                     "those of size MAX)")};
};

} // namespace

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
  PassPipelineRegistration<EnginePlanPipelineOptions>(
      "prec-plan-engine",
      "Record how each function of a lowered module runs as a CUDA engine",
      [](OpPassManager &pm, const EnginePlanPipelineOptions &options) {
        buildEnginePlanPipeline(
            pm.nest<func::FuncOp>(),
            {options.convolutions,
             options.batch,
             {options.batchInputs.begin(), options.batchInputs.end()}});
      });
}

} // namespace prec
