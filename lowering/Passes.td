//===- Passes.td - prec's lowering passes ------------------*- tablegen -*-===//
//
// The passes of the lowering pipelines (prec-lower-to-cpu,
// prec-lower-to-gpu). They live beside
// the pipelines that use them, apart from passes/Passes.td: the precision
// passes register these pipelines, so one library cannot hold both.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_PASSES_TD
#define PREC_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrecLowerPrecisionCasts
    : Pass<"prec-lower-precision-casts", "::mlir::ModuleOp"> {
  let summary = "Turn the precision dialect's casts into tosa.cast";
  let description = [{
    The first step of the lowering pipelines (lowering/): a legalized module
    keeps the casts the model asked for as `precision.cast`; they have
    tosa.cast's semantics (round to nearest even, saturate to integers) and
    lower as such. A cast between two float types of one width (f16 and
    bf16, the two f8s), which no single extension or truncation performs,
    goes through f32, which holds both exactly. A `precision.region` left in
    the module means the precision pipeline did not run: an error says so.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecFuseBias : Pass<"prec-fuse-bias", "::mlir::func::FuncOp"> {
  let summary = "Add a matmul's bias in its accumulator, before the one "
                "rounding to the storage type";
  let description = [{
    A matmul accumulating in f32 and storing a narrower type rounds its
    result (the `precision.epilogue` cast) and a following bias add rounds
    again. GPU libraries add the bias in the accumulator (cuBLASLt's BIAS
    epilogue, TensorRT's fused bias) and round once; this pass rewrites the
    program to that form (bias widened, added in f32, then the epilogue
    cast) so the CPU and the CUDA engine compute the same values. A bias is
    a tensor broadcast over every dimension but the last.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecFuseElementwise
    : Pass<"prec-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops, in bodies of bounded size";
  let description = [{
    Upstream's linalg-fuse-elementwise-ops with one change: a fusion whose
    body would exceed `max-body-ops` operations is not made. Fusing a chain
    of n elementwise ops one producer at a time copies bodies of 1, 2, ...,
    n ops: quadratic, minutes for a 10^5-op chain. With the bound a chain
    becomes a sequence of loops of at most that many ops, in linear time;
    real models' elementwise chains are far shorter than the bound.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "unsigned", "256",
           "the most operations a fused body may hold">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def PrecCopyRepeatedResults
    : Pass<"prec-copy-repeated-results", "::mlir::func::FuncOp"> {
  let summary = "Return a copy where a function returns one value twice";
  let description = [{
    An ONNX graph may list one tensor as two outputs. Once results become
    caller-allocated out-parameters (buffer-results-to-out-params), one
    buffer cannot be both; upstream's pass crashes on such a function. Each
    repeated result is returned as a `linalg.copy` of the value instead, so
    every out-parameter is written by its own op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PrecTileContractions
    : Pass<"prec-tile-contractions", "::mlir::func::FuncOp"> {
  let summary = "Tile matmuls for the caches and the registers, and "
                "vectorize the register tiles";
  let description = [{
    On tensors, before bufferization: each statically shaped linalg matmul /
    batch matmul is tiled into cache blocks, each block into register tiles
    of rows x columns outputs over one step of the reduction, and the
    register tile becomes a vector.contract (on operands extended to the
    accumulator type, where they are narrower). Tile sizes are the largest
    divisors of the dimensions up to the options, so that every tile is
    static. Once bufferized, prec-hoist-vector-transfers keeps the
    accumulator tile in registers across the reduction loop.
  }];
  let options = [
    Option<"registerRows", "register-rows", "int64_t", /*default=*/"8",
           "rows of a register tile">,
    Option<"registerColumns", "register-columns", "int64_t",
           /*default=*/"16", "columns of a register tile">,
    Option<"cacheRows", "cache-rows", "int64_t", /*default=*/"64",
           "rows of a cache block">,
    Option<"cacheColumns", "cache-columns", "int64_t", /*default=*/"256",
           "columns of a cache block">,
    Option<"cacheDepth", "cache-depth", "int64_t", /*default=*/"256",
           "reduction length of a cache block">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def PrecHoistVectorTransfers
    : Pass<"prec-hoist-vector-transfers", "::mlir::func::FuncOp"> {
  let summary = "Keep loop-invariant vector transfers out of loops";
  let description = [{
    After bufferization, moves a vector.transfer_read / transfer_write pair
    of the same buffer slice out of the loops it does not depend on: a
    register tile's accumulator stays in registers across the reduction.
  }];
}

def PrecExpandF8Casts
    : Pass<"prec-expand-f8-casts", "::mlir::func::FuncOp"> {
  let summary = "Write f8E4M3FN / f8E5M2 conversions to and from f32 as "
                "integer and f32 arithmetic";
  let description = [{
    For the CPU: LLVM has no 8-bit floats, so 8-bit float values live as
    their bytes and `arith.extf` / `arith.truncf` between them and f32
    (scalars or vectors) become bit manipulation. Conversions to f8 round to
    nearest even and saturate to the largest finite value; NaN stays NaN:
    what the CUDA engine's conversions do.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // PREC_LOWERING_PASSES_TD
