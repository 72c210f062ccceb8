//===- ContractionEpilogues.h - what a GEMM computes besides ----*- C++ -*-===//
//
// cuBLASLt and cuDNN compute more than a product: a scale, a bias, a ReLU
// and the conversion to the storage type in their epilogue, and they read
// B transposed for free. Which ops of the program those cover is decided
// here, for prec-plan-kernels and the emitter alike.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_CONTRACTIONEPILOGUES_H
#define PREC_LOWERING_CONTRACTIONEPILOGUES_H

#include "dialects/Engine/EngineDialect.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace prec {

/// What cuBLASLt computes after a matmul's product (its epilogue), and the
/// ops of the program that this covers.
struct MatmulEpilogue {
  mlir::Operation *scale = nullptr;        // multiplies by a constant: alpha
  mlir::Value alpha;                 // that constant, a float splat
  mlir::Operation *biasAdd = nullptr;      // adds a row bias in the accumulator type
  mlir::Value bias;                        // that bias, in the D type, as read
  mlir::Operation *biasWidening = nullptr; // the bias's widening, looked through
  mlir::Operation *cast = nullptr;         // converts the accumulator to the D type
  mlir::Value result;                      // what the GEMM writes

  /// The steps these ops are, as engine.epilogue records them.
  engine::Epilogue getSteps() const;
};

/// The epilogue of `op`, in cuBLASLt's order D = alpha * (A B) + bias: a
/// multiply by a constant (a dequantization scale), a bias added in the
/// accumulator type (prec-fuse-bias puts it there) and a conversion to
/// f16/bf16 (cuBLASLt's D type). Only an f32 accumulator scales and adds
/// (cuBLASLt does both in f32). The bias is read in the D type: an f16 bias
/// widened for the f32 add is read before its widening, which is exact.
MatmulEpilogue getMatmulEpilogue(mlir::tosa::MatMulOp op);

/// The epilogue prec-plan-kernels recorded on `op` (engine.epilogue, none
/// if absent), as the ops after it compute it; an error at `op` where those
/// ops no longer match the record.
mlir::FailureOr<MatmulEpilogue> getPlannedEpilogue(mlir::tosa::MatMulOp op);

/// The tensor whose transpose (batch kept, the two others swapped) is
/// `op`'s B operand: cuBLASLt reads it as it is with op T.
mlir::Value getTransposedB(mlir::tosa::MatMulOp op);

/// Whether cuBLASLt multiplies `op`'s inputs only with A transposed (the TN
/// layout): its integer and 8-bit float GEMMs.
bool needsTransposedB(mlir::tosa::MatMulOp op);

/// The ReLU (a clamp to [0, +inf) or to the end of f32) applied to a
/// convolution's only result, which cuBLASLt's RELU_BIAS epilogue and cuDNN
/// can apply; null for a convolution that runs a direct kernel.
mlir::Operation *getReluEpilogue(mlir::tosa::Conv2DOp op);

/// The ReLU prec-plan-kernels recorded on `op` (engine.epilogue), or null;
/// an error at `op` where the program no longer has it.
mlir::FailureOr<mlir::Operation *>
getPlannedReluEpilogue(mlir::tosa::Conv2DOp op);

} // namespace prec

#endif // PREC_LOWERING_CONTRACTIONEPILOGUES_H
