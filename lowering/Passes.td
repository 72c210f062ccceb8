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
    goes through f32, which holds both exactly. A cast that rounds back to
    the type a widening cast came from (with only reshapes between) gives
    that value back unchanged, and goes: an exporter's f16 widened for an
    f32 op that legalization then ran in f16. A `precision.region` left in
    the module means the precision pipeline did not run: an error says so.

    Example:

    ```mlir
    // Input:
    %y = precision.cast %x : tensor<4xf16> to tensor<4xbf16>
    // Output:
    %0 = tosa.cast %x : (tensor<4xf16>) -> tensor<4xf32>
    %y = tosa.cast %0 : (tensor<4xf32>) -> tensor<4xbf16>

    // Input:
    %w = tosa.cast %h : (tensor<2x4xf16>) -> tensor<2x4xf32>
    %r = tosa.reshape %w, %shape : (tensor<2x4xf32>, !tosa.shape<1>) -> tensor<8xf32>
    %n = tosa.cast %r : (tensor<8xf32>) -> tensor<8xf16>
    // Output:
    %n = tosa.reshape %h, %shape : (tensor<2x4xf16>, !tosa.shape<1>) -> tensor<8xf16>
    ```
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

    Example:

    ```mlir
    // Input:
    %acc = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x4x8xf32>
    %d = tosa.cast %acc {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
    %y = tosa.add %d, %b : (tensor<1x4x8xf16>, tensor<1x1x8xf16>) -> tensor<1x4x8xf16>
    // Output:
    %acc = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x4x8xf32>
    %0 = tosa.cast %b {precision.inserted_cast} : (tensor<1x1x8xf16>) -> tensor<1x1x8xf32>
    %1 = tosa.add %acc, %0 : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
    %y = tosa.cast %1 {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecSquarePowers : Pass<"prec-square-powers", "::mlir::func::FuncOp"> {
  let summary = "Compute pow(x, 2) as x * x";
  let description = [{
    Part of the lowering both pipelines share. A `tosa.pow` whose exponent
    is a constant 2 (RMSNorm's and T5's LayerNorm's square) becomes a
    `tosa.mul` of its base by itself, with the pow's attributes: IEEE 754's
    pow(x, 2) is the square rounded once, which a multiply computes, where
    a library pow goes through a logarithm (CUDA's powf: 2.2x the square's
    time, and off by an ulp for 6% of f32 inputs). A base broadcast to the
    result's shape keeps its pow.

    Example:

    ```mlir
    // Input:
    %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %y = tosa.pow %x, %two : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
    // Output:
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %y = tosa.mul %x, %x, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
    ```
  }];
}

def PrecDropSaturatedBounds
    : Pass<"prec-drop-saturated-bounds", "::mlir::func::FuncOp"> {
  let summary = "Drop the upper bound of clamps that saturating integer "
                "casts read";
  let description = [{
    A float clamp whose readers are all casts to an integer type whose
    largest value is at most the clamp's upper bound (a quantization's
    clamp to +-127 before its i8 cast) gets +inf as its upper bound: the
    cast saturates there itself, so every value is the same, and the
    engine's clamp is one fmaxf rather than fmaxf and fminf.

    ```mlir
    %c = tosa.clamp %x {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    %q = tosa.cast %c : (tensor<4xf32>) -> tensor<4xi8>
    // becomes
    %c = tosa.clamp %x {max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def PrecShrinkBroadcasts
    : Pass<"prec-shrink-broadcasts", "::mlir::func::FuncOp"> {
  let summary = "Compute elementwise ops at the shape their operands vary "
                "over";
  let description = [{
    A splat constant varies along no axis, yet under broadcasting it can
    give an elementwise op its shape: exporters build an attention mask as
    `and(splat true [1, 1, S, 1], padding [B, 1, 1, S])`, computed and
    stored at [B, 1, S, S] though it varies over the batch and the keys
    only. Each elementwise TOSA op (and cast) whose readers are all
    elementwise is computed at the shape its operands span, reading splats
    of one element; its readers broadcast the smaller result. The values
    are the same: only what is computed and stored shrinks. An op read by
    anything else (a matmul, a reshape, a return), or whose operands would
    no longer span the shape it keeps, keeps its shape.

    Example:

    ```mlir
    // Input:
    %t = "tosa.const"() <{values = dense<true> : tensor<1x1x4x1xi1>}> ...
    %k = tosa.logical_and %t, %pad : (..., tensor<2x1x1x4xi1>) -> tensor<2x1x4x4xi1>
    %m = tosa.select %k, %zero, %ninf : (...) -> tensor<2x1x4x4xf32>
    %y = tosa.add %scores, %m : (tensor<2x3x4x4xf32>, ...) -> tensor<2x3x4x4xf32>
    // Output:
    %t = "tosa.const"() <{values = dense<true> : tensor<1x1x1x1xi1>}> ...
    %k = tosa.logical_and %t, %pad : (..., tensor<2x1x1x4xi1>) -> tensor<2x1x1x4xi1>
    %m = tosa.select %k, %zero, %ninf : (...) -> tensor<2x1x1x4xf32>
    %y = tosa.add %scores, %m : (tensor<2x3x4x4xf32>, ...) -> tensor<2x3x4x4xf32>
    ```
  }];
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

    Example (with `max-body-ops=3` the two generics stay apart):

    ```mlir
    // Input: two generics of two body ops each.
    %a = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = math.exp %in : f32
      linalg.yield %0 : f32
    } -> tensor<4xf32>
    %b = linalg.generic {...} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) { ... math.tanh ... }
    // Output: one generic.
    %b = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = math.exp %in : f32
      %1 = math.tanh %0 : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    ```
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

    Example:

    ```mlir
    // Input:
    %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    return %y, %y : tensor<4xf32>, tensor<4xf32>
    // Output:
    %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.copy ins(%y : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    return %y, %1 : tensor<4xf32>, tensor<4xf32>
    ```
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
    batch matmul that BLAS does not take (prec-blas-contractions) is tiled
    into cache blocks, each block into register tiles
    of rows x columns outputs over one step of the reduction, and the
    register tile becomes a vector.contract (on operands extended to the
    accumulator type, where they are narrower). Tile sizes are the largest
    divisors of the dimensions up to the options, so that every tile is
    static. Once bufferized, prec-hoist-vector-transfers keeps the
    accumulator tile in registers across the reduction loop.

    Example, an 8x4 by 4x16 matmul: one 8x16 register tile over the four
    reduction steps (shown after canonicalization, which folds the loops of
    one iteration and the constants the pass creates):

    ```mlir
    // Input:
    %r = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
    // Output:
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c) -> (tensor<8x16xf32>) {
      %sa = tensor.extract_slice %a[0, %k] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8x1xf32>
      %sb = tensor.extract_slice %b[%k, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<1x16xf32>
      %va = vector.transfer_read %sa[%c0, %c0], %cst {in_bounds = [true, true]} : tensor<8x1xf32>, vector<8x1xf32>
      %vb = vector.transfer_read %sb[%c0, %c0], %cst {in_bounds = [true, true]} : tensor<1x16xf32>, vector<1x16xf32>
      %vc = vector.transfer_read %acc[%c0, %c0], %cst {in_bounds = [true, true]} : tensor<8x16xf32>, vector<8x16xf32>
      %p = vector.contract {...} %va, %vb, %vc : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
      %w = vector.transfer_write %p, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, tensor<8x16xf32>
      scf.yield %w : tensor<8x16xf32>
    }
    ```
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

def PrecBlasContractions
    : Pass<"prec-blas-contractions", "::mlir::ModuleOp"> {
  let summary = "Hand the contractions that accumulate in f32 to BLAS";
  let description = [{
    On buffers: each linalg.batch_matmul (default indexing maps) and
    linalg.conv_2d_nhwc_fhwc with an f32 accumulator and f32, f16 or bf16
    operands becomes a call to `prec_blas_batch_matmul_<type>(A, B, C)`,
    which adds A B to C, or `prec_blas_conv2d_nhwc_fhwc_<type>(X, W, Y,
    stride h, stride w, dilation h, dilation w)`, which adds the convolution
    of the padded X to Y, on the operands cast to strided memrefs of any
    shape; the function is declared with the C interface, and the JIT
    provides it (OpenBLAS sgemm, a convolution through im2col; f16 and bf16
    operands widened to f32 exactly first). Only the summation
    order differs from accumulating in program order, which the precision
    semantics leave free. prec-tile-contractions leaves these matmuls alone.
    Depthwise convolutions and f16 or integer accumulators stay.

    Example:

    ```mlir
    // Input:
    linalg.batch_matmul ins(%a, %b : memref<1x4x8xf16>, memref<1x8x16xf16>)
                        outs(%c : memref<1x4x16xf32>)
    // Output:
    func.func private @prec_blas_batch_matmul_f16(
        memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>, ...,
        memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>)
        attributes {llvm.emit_c_interface}
    %ca = memref.cast %a : memref<1x4x8xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
    ...
    call @prec_blas_batch_matmul_f16(%ca, %cb, %cc) : (...) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def PrecHoistVectorTransfers
    : Pass<"prec-hoist-vector-transfers", "::mlir::func::FuncOp"> {
  let summary = "Keep loop-invariant vector transfers out of loops";
  let description = [{
    After bufferization, moves a vector.transfer_read / transfer_write pair
    of the same buffer slice out of the loops it does not depend on: a
    register tile's accumulator stays in registers across the reduction.
    Only loops known to run at least once are left: hoisted out of a loop
    that does not run, the write would store what the loop never computed.

    Example:

    ```mlir
    // Input:
    scf.for %k = %c0 to %c4 step %c1 {
      %x = vector.transfer_read %a[%c0, %k], %cst : memref<8x4xf32>, vector<8x1xf32>
      %y = vector.transfer_read %b[%k, %c0], %cst : memref<4x16xf32>, vector<1x16xf32>
      %acc = vector.transfer_read %c[%c0, %c0], %cst : memref<8x16xf32>, vector<8x16xf32>
      %r = vector.contract {...} %x, %y, %acc : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
      vector.transfer_write %r, %c[%c0, %c0] : vector<8x16xf32>, memref<8x16xf32>
    }
    // Output:
    %init = vector.transfer_read %c[%c0, %c0], %cst : memref<8x16xf32>, vector<8x16xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<8x16xf32>) {
      ... (the reads of %a and %b stay)
      %r = vector.contract {...} %x, %y, %acc : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
      scf.yield %r : vector<8x16xf32>
    }
    vector.transfer_write %sum, %c[%c0, %c0] : vector<8x16xf32>, memref<8x16xf32>
    ```
  }];
}

def PrecOutlineLoopNests
    : Pass<"prec-outline-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest into a function of its own";
  let description = [{
    On the CPU, after the loops are made: each loop nest at the top of a
    function's body (an op with regions and no results) becomes a private
    function that LLVM does not inline, called where the nest was. The values the
    nest reads from above are its arguments, except constants and
    `memref.get_global`s, which are cloned in so that bounds and weights stay
    known. LLVM's analyses (dominator trees, scalar evolution) cost more than
    linearly in a function's size: a model of thousands of ops as one
    function took minutes to compile, and a nest alone costs what it costs.
    What each nest computes does not change.

    Example:

    ```mlir
    // Input:
    func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      ...
      scf.for %i = %c0 to %c4 step %c1 {
        %v = memref.load %x[%i] : memref<4xf32>
        memref.store %v, %y[%i] : memref<4xf32>
      }
      return
    }
    // Output:
    func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
      call @main_nest0(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
      return
    }
    func.func private @main_nest0(%x: memref<4xf32>, %y: memref<4xf32>) attributes {passthrough = ["noinline"]} {
      %c0 = arith.constant 0 : index
      ...
      scf.for %i = %c0 to %c4 step %c1 { ... }
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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

    Example (abridged: the output is some 25 integer and f32 operations):

    ```mlir
    // Input:
    %y = arith.truncf %x : f32 to f8E4M3FN
    // Output:
    %0 = arith.bitcast %x : f32 to i32
    %3 = math.absf %x : f32
    %4 = arith.minimumf %3, %cst_448 : f32     // saturate
    ...                                        // round the mantissa to 3 bits, nearest even
    %21 = arith.cmpf uno, %x, %x : f32
    %22 = arith.select %21, %c127_i32, %20 : i32  // NaN stays NaN
    %23 = arith.ori %22, %2 : i32                 // the sign
    %24 = arith.trunci %23 : i32 to i8
    %y = arith.bitcast %24 : i8 to f8E4M3FN
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def PrecNarrowMaxPools : Pass<"prec-narrow-max-pools", "::mlir::func::FuncOp"> {
  let summary = "Compute a narrowing monotone chain before the max pool it follows";
  let description = [{
    A pass of `prec-plan-engine`, after `prec-share-through-slices` (not of
    the lowering, which prec-debug's switchable program shares). The chain
    of elementwise ops reading a `tosa.max_pool2d`'s result (each the only
    reader of the one before, at its shape), as far as each is monotone
    non-decreasing in what it reads (a `tosa.cast`, a `tosa.clamp`, a
    `tosa.mul` by a non-negative constant that varies at most per channel,
    without a shift), up to its narrowest result where that is narrower
    than the pool's, moves before the pool: the ops compute on the pool's
    input and the pool takes their result. The largest of values mapped by
    a monotone non-decreasing function is the mapping of their largest,
    and the pool's padding takes no part in either order, so the result is
    the same (for every input without NaNs). A quantization after a max
    pool (ResNet's stem) then joins the kernel producing the pool's input,
    and the pool moves i8 instead of f16.

    Example:

    ```mlir
    // Input:
    %p = tosa.max_pool2d %r {...} : (tensor<1x8x8x4xf16>) -> tensor<1x4x4x4xf16>
    %w = tosa.cast %p : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf32>
    %m = tosa.mul %w, %scale, %shift : (..., tensor<1x1x1x1xf32>, ...) -> tensor<1x4x4x4xf32>
    %c = tosa.clamp %m {max_val = 127.0 : f32, min_val = -127.0 : f32} : ...
    %q = tosa.cast %c : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>
    // Output:
    %w = tosa.cast %r : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf32>
    %m = tosa.mul %w, %scale, %shift : (..., tensor<1x1x1x1xf32>, ...) -> tensor<1x8x8x4xf32>
    %c = tosa.clamp %m {max_val = 127.0 : f32, min_val = -127.0 : f32} : ...
    %i = tosa.cast %c : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xi8>
    %q = tosa.max_pool2d %i {...} : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecSpaceToDepth : Pass<"prec-space-to-depth", "::mlir::func::FuncOp"> {
  let summary = "Rewrite strided int8 convolutions over few channels as "
                "unit-stride ones over their input's space-to-depth";
  let description = [{
    Runs in `prec-plan-engine` before `prec-choose-conv-algorithms`. prec's
    implicit-GEMM convolution needs an int8 input's C to be a multiple of 16
    (it copies 16 bytes of one tap at a time); an image's stem has 3
    channels. A convolution of stride s > 1 (both ways, no dilation, int8
    with i32 sums and zero points of zero, constant weights) is the same
    sum as a unit-stride convolution over its input's space-to-depth: each
    s x s block of positions of the padded input one position of s * s * C'
    channels (C' >= C the fewest that make s * s * C' a multiple of 16,
    zeros past C), with filters of ceil(KH / s) x ceil(KW / s) taps, zeros
    where the original has none. The input is padded (the convolution's
    padding, then zeros to whole blocks and C' channels), reshaped,
    transposed and reshaped; the weights are rearranged as a constant; the
    new ops carry the convolution's layer. A convolution is rewritten where
    its K then is smaller than with its taps' channels padded to 16, and
    not with `conv=im2col` (im2col pads K, not each tap). Integer sums are
    exact: the result is the same.

    Example (ResNet's stem in int8):

    ```mlir
    // Input:
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32,
           pad = array<i64: 3, 2, 3, 2>, stride = array<i64: 2, 2>, ...}
         : (tensor<1x224x224x3xi8>, tensor<64x7x7x3xi8>, ...)
         -> tensor<1x112x112x64xi32>
    // Output:
    %p = tosa.pad %x, ... : (tensor<1x224x224x3xi8>, ...) -> tensor<1x230x230x4xi8>
    %s = tosa.reshape %p, ... -> tensor<1x115x2x115x2x4xi8>
    %t = tosa.transpose %s {perms = array<i32: 0, 1, 3, 2, 4, 5>} ...
    %d = tosa.reshape %t, ... -> tensor<1x115x115x16xi8>
    %y = tosa.conv2d %d, %w4, %b, %zp, %zp {acc_type = i32,
           pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, ...}
         : (tensor<1x115x115x16xi8>, tensor<64x4x4x16xi8>, ...)
         -> tensor<1x112x112x64xi32>
    ```
  }];
  let options = [
    Option<"preference", "conv", "::prec::ConvolutionPreference",
           "::prec::ConvolutionPreference::Auto",
           "How convolutions run (as prec-choose-conv-algorithms' option): "
           "nothing is rewritten with im2col",
           [{PREC_CONVOLUTION_PREFERENCE_VALUES}]>,
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecChooseConvAlgorithms
    : Pass<"prec-choose-conv-algorithms", "::mlir::func::FuncOp"> {
  let summary = "Record how each convolution of an engine runs";
  let description = [{
    The second decision of `prec-plan-engine`. Each `tosa.conv2d` gets an
    `engine.conv_algorithm` (dialects/Engine), which the CUDA emitter
    follows:
    * `direct`: a kernel per output element, for types or biases cuBLASLt
      cannot take (f32 accumulation of f16 inputs and i32 of i8 it can);
    * `gemm`: a 1x1 convolution with unit strides and no padding, one
      cuBLASLt GEMM on its NHWC input as it is;
    * `cudnn` or `im2col`: the others. cuDNN takes f32, f16 and bf16
      convolutions whose padding it can express (both ends alike) and,
      with `conv=auto`, of at least 1 GFLOP at the optimum batch: below
      that its per-call host cost loses to an im2col kernel and a GEMM.

    Example (`conv=auto`):

    ```mlir
    // Input: a 3x3 f16 convolution of 3.7 GFLOP.
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, ...}
    // Output:
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, ...,
           engine.conv_algorithm = #engine.conv_algorithm<cudnn>}
    ```
  }];
  let options = [
    Option<"preference", "conv", "::prec::ConvolutionPreference",
           "::prec::ConvolutionPreference::Auto",
           "Which of cuDNN and im2col the convolutions that can take either take",
           [{PREC_CONVOLUTION_PREFERENCE_VALUES}]>,
    Option<"batch", "batch", "std::optional<::prec::BatchRange>",
           /*default=*/"",
           "A dynamic batch MIN:OPT:MAX (the module is at MAX): sizes are "
           "judged at OPT">,
  ];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanKernels : Pass<"prec-plan-kernels", "::mlir::func::FuncOp"> {
  let summary = "Group the ops of an engine into kernels";
  let description = [{
    The third decision of `prec-plan-engine`. Every op a kernel computes
    (all but constants, shapes and the reshapes and identities that alias
    their input) gets `engine.kernel = #engine.kernel<index, kind>`: ops of
    one index run in one launch, at the last of them; indices count
    launches in program order. Kinds:
    * `contraction`: a matmul or a convolution run by cuBLASLt or cuDNN,
      with the ops its epilogue performs (a scale by a constant, a row bias
      added in the f32 accumulator, the epilogue cast to f16/bf16; a
      convolution's ReLU);
    * `rows`: runs of elementwise ops and last-axis reductions (f32 sums or
      maxima) over the same rows, at most 8192 wide (LayerNorm, softmax);
    * `fused`: elementwise ops, each with one reader, inlined into that
      reader's kernel where it reads them at their own shape, directly or
      through reshapes nothing else reads (which join the kernel: the
      SiLU gate and the f8 quantization of its product are one kernel);
    * `single`: an op alone.

    The B transposes and bias widenings that only GEMMs read get
    `engine.read_through` instead: no kernel computes them, the GEMMs read
    their operand. Each kernel's ops then move, in order, to just before its
    last op, so that the block lists ops in the order the engine runs them
    (prec-plan-buffers relies on it).

    Example:

    ```mlir
    // Input:
    %p = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x4x8xf32>
    %s = tosa.add %p, %b : (...) -> tensor<1x4x8xf32>
    %d = tosa.cast %s {precision.epilogue} : (...) -> tensor<1x4x8xf16>
    %e = tosa.exp %d : (...) -> tensor<1x4x8xf16>
    %t = tosa.tanh %e : (...) -> tensor<1x4x8xf16>
    // Output:
    %p = tosa.matmul ... {engine.kernel = #engine.kernel<0, contraction>}
    %s = tosa.add ... {engine.kernel = #engine.kernel<0, contraction>}
    %d = tosa.cast ... {engine.kernel = #engine.kernel<0, contraction>, ...}
    %e = tosa.exp ... {engine.kernel = #engine.kernel<1, fused>}
    %t = tosa.tanh ... {engine.kernel = #engine.kernel<1, fused>}
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecMarkMetLowerBounds
    : Pass<"prec-mark-met-lower-bounds", "::mlir::func::FuncOp"> {
  let summary = "Mark the clamps whose input never falls below their lower "
                "bound";
  let description = [{
    A decision of `prec-plan-engine`, after `prec-plan-kernels`. A sparse
    forward dataflow analysis proves which float values are numbers (never
    NaN) at or above 0: the result of a clamp to a lower bound of 0 or more
    that the engine computes (its fmaxf or __hmax returns the bound for
    NaN; not one in a cuBLASLt or cuDNN epilogue), of a constant whose
    elements are, and what float casts (to types with infinities), scales
    by positive finite constants, sums, max pools, pads and moves of such
    values give. A float clamp the engine computes whose lower bound is at
    most 0 and whose input is such a value gets `engine.met_lower_bound`:
    that bound changes no element, and the emitter leaves it out (the
    quantization after a ReLU: one fmaxf an element fewer).

    ```mlir
    %r = tosa.clamp %x {max_val = 0x7C00 : f16, min_val = 0.0 : f16, engine.kernel = ...}
    %w = tosa.cast %r : (tensor<4xf16>) -> tensor<4xf32>
    %s = tosa.mul %w, %scale, %shift : (...) -> tensor<4xf32>    // %scale > 0
    %c = tosa.clamp %s {max_val = 0x7F800000 : f32, min_val = -127.0 : f32, engine.kernel = ...}
    // %c gets engine.met_lower_bound
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanBuffers : Pass<"prec-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Place an engine's activations in one arena";
  let description = [{
    A decision of `prec-plan-engine`, after `prec-plan-kernels`.
    The engine runs its kernels in order on one stream, so a buffer whose
    last reading kernel has run can hold a later value. In launch order,
    each kernel's outputs (a row kernel's values read after it, else the
    launch op's result) get `engine.arena_offset`, first fit on 256-byte
    boundaries; an im2col convolution's columns get `engine.columns_offset`
    for the duration of its GEMM; a buffer is released after the launch of
    the last kernel that reads it, through reshapes, which alias their
    input, and through the ops GEMMs read through (`engine.read_through`).
    A result written straight into an output binding takes no arena. The
    function gets the arena's size, `engine.arena_bytes`.

    Lifetimes come from mlir::Liveness: the last op to read a value, or an
    alias of it, belongs to the last kernel that reads it, because each
    kernel's ops are consecutive (as prec-plan-kernels leaves them; the pass
    refuses a plan where they are not).

    Example:

    ```mlir
    // Input: three kernels in a row, each reading the one before.
    func.func @f(%x: tensor<64xf32>) -> tensor<64xf32> {
      %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} ...
      %b = tosa.abs %a {engine.kernel = #engine.kernel<1, single>} ...
      %c = tosa.floor %b {engine.kernel = #engine.kernel<2, single>} ...
      return %c : tensor<64xf32>
    }
    // Output: %a is dead once %b is written, so %c would reuse its bytes,
    // but %c is the result and goes straight into its binding.
    func.func @f(...) attributes {engine.arena_bytes = 512 : i64} {
      %a = tosa.exp %x {engine.arena_offset = 0 : i64, ...}
      %b = tosa.abs %a {engine.arena_offset = 256 : i64, ...}
      %c = tosa.floor %b {...}
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanBatch : Pass<"prec-plan-batch", "::mlir::func::FuncOp"> {
  let summary = "Record which tensors of an engine follow its dynamic batch";
  let description = [{
    The first decision of `prec-plan-engine`, for an engine with a dynamic
    batch (TRTorch's Input(min_shape, opt_shape, max_shape)); without
    `batch` it does nothing. The module is at the largest batch, MAX. The
    inputs named by `batch-inputs` carry it, or else those whose dimension
    0 is MAX. From them BatchAnalysis finds each value's batch dimension and
    refuses ops that would mix samples (a reduction, slice, tile or concat
    along it, a transpose moving it inwards). The function gets
    `engine.batched_inputs` (argument indices) and each op whose result
    scales gets `engine.batch_dim`; kernels over those cover fewer elements
    and GEMMs fewer rows or batches when the engine runs at a smaller batch.

    Example (`batch=1:2:4`):

    ```mlir
    // Input:
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %y = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    // Output:
    func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
        attributes {engine.batched_inputs = array<i64: 0>} {
      %y = tosa.exp %x {engine.batch_dim = 0 : i64} : ...
    ```
  }];
  let options = [
    Option<"batch", "batch", "std::optional<::prec::BatchRange>",
           /*default=*/"",
           "A dynamic batch MIN:OPT:MAX; the module is at MAX">,
    ListOption<"batchInputs", "batch-inputs", "std::string",
               "The inputs whose dimension 0 is the batch (default: those of "
               "size MAX)">,
  ];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecFuseAttention : Pass<"prec-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Replace scaled dot-product attention by one engine.attention";
  let description = [{
    The first decision of `prec-plan-engine`. From each batched matmul
    P·V, it looks back through reshapes and casts for a softmax over the
    last axis (`exp(x - max(x)) * reciprocal(sum)`, optionally followed by
    the guard that makes NaN probabilities 0), then from its logits for at
    most one scale by a constant and one added mask, in either order, down
    to the matmul Q·Kᵀ. Both matmuls must accumulate in f32 and the
    exponential run in f32; every value in between must be read only by
    the attention, and be [N, Sq, Sk] or its per-head view [B, H, Sq, Sk].
    What does not match stays as it is. Every length of keys is fused:
    measured on an H100 (bench/gpu/run_attention.py), the tensor-core
    kernel takes less time than the unfused engine's cuBLASLt GEMMs and
    row kernel from 49 to 8192 keys.

    Each part's rounding comes with it (see `engine.attention`): the
    narrowest type the scores, the scaled and the masked scores pass
    through.

    Example:

    ```mlir
    // Input (reshapes and zero points left out):
    %s = tosa.matmul %q, %kt, ... -> tensor<8x16x16xf32>
    %x = tosa.mul %s, %quarter, %shift ...
    %y = tosa.add %x, %mask ...
    %m = tosa.reduce_max %y {axis = 2 : i32} ...
    %d = tosa.sub %y, %m ...
    %e = tosa.exp %d ...
    %l = tosa.reduce_sum %e {axis = 2 : i32} ...
    %r = tosa.reciprocal %l ...
    %p = tosa.mul %e, %r, %shift ...
    %pv = tosa.cast %p ... -> tensor<8x16x16xf16>
    %o = tosa.matmul %pv, %v, ... -> tensor<8x16x16xf32>
    // Output:
    %o = engine.attention %q, %kt, %v mask %mask4 {heads = 8 : i64,
           scale = 2.500000e-01 : f64, score_type = f32, scaled_type = f32,
           masked_type = f32} : (...) -> tensor<8x16x16xf32>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecFoldAttentionViews
    : Pass<"prec-fold-attention-views", "::mlir::func::FuncOp"> {
  let summary = "Let engine.attention read and write through the reshapes, "
                "transposes and tiles that move heads";
  let description = [{
    Runs after `prec-fuse-attention` in `prec-plan-engine`. Exporters split
    heads with a reshape and a transpose before attention, copy
    grouped-query keys and values to every head with a tile, and merge
    heads with a transpose after it: each transpose and tile a kernel that
    moves a whole tensor through memory. For
    each `engine.attention`, this pass follows its query, keys and values
    back through reshapes, transposes and tiles (a tile only where it
    repeats a dimension of 1) as far as the attention can read the tensor
    they started from by strides, and its result forward through reshapes
    and transposes that are their input's only reader. The op then reads
    and writes those tensors (`*_strides`, `sizes`, `kv_group`; see
    `engine.attention`) and the moves nothing else reads go. A move that
    something else reads stays for it. First, scalar elementwise ops on an
    operand's way (a multiply by a constant of one element: f16 exports
    scale Kᵀ after its transpose) move above the moves before them, onto
    the tensor the moves start from, whether or not the moves then fold.

    What the kernel reads by strides: one stride per batch, row and column
    of a matrix, and per head except that consecutive heads may share the
    keys and values (`kv_group`); columns contiguous (for keys, the keys or
    the head dimension); with more than one sample, the batch outermost.

    Example:

    ```mlir
    // Input (shape constants left out):
    %q4 = tosa.reshape %q : (tensor<2x16x64xf16>, ...) -> tensor<2x16x4x16xf16>
    %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} ... -> tensor<2x4x16x16xf16>
    %q3 = tosa.reshape %qt ... -> tensor<8x16x16xf16>
    %o = engine.attention %q3, %kt, %v {heads = 4 : i64, ...}
    %o4 = tosa.reshape %o ... -> tensor<2x4x16x16xf16>
    %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} ... -> tensor<2x16x4x16xf16>
    // Output:
    %ot = engine.attention %q, %kt, %v {heads = 4 : i64,
            sizes = array<i64: 8, 16, 16, 16, 16>,
            query_strides = array<i64: 1024, 16, 64, 1>,
            result_strides = array<i64: 1024, 16, 64, 1>, ...}
          : (tensor<2x16x64xf16>, ...) -> tensor<2x16x4x16xf16>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecMergeLayerDuplicates
    : Pass<"prec-merge-layer-duplicates", "::mlir::func::FuncOp"> {
  let summary = "Compute once what every layer repeats";
  let description = [{
    Part of both lowering pipelines: their CSE, blind to names. Exporters
    repeat in every layer what depends on the model's inputs alone: each
    decoder layer of a LLaMA export rebuilds the same causal mask, and each
    attention then records the same mask's tiles; materialization quantizes
    an activation once for each f8 Linear reading it. MLIR's CSE would keep
    the masks apart, as their names (`precision.layer`, `precision.tensor`) and the
    range analysis' notes (`precision.range`, `precision.loose_range`,
    `precision.observed_range`, `precision.request`) differ. This pass
    merges pure ops without regions (the lowered body has none) that differ
    in nothing else, as CSE merges equal ones: the same
    op, operands, result types and properties, and the same other
    attributes, an assignment compared by its types (its reason and detail
    explain them). The first op stays, with its names.

    Example:

    ```mlir
    // Input:
    %m0 = tosa.select %c, %zero, %lowest {precision.layer = "layers.0/Where"} : ...
    %m1 = tosa.select %c, %zero, %lowest {precision.layer = "layers.1/Where"} : ...
    // Output:
    %m0 = tosa.select %c, %zero, %lowest {precision.layer = "layers.0/Where"} : ...
    // (%m1's readers read %m0)
    ```
  }];
}

def PrecShareThroughSlices
    : Pass<"prec-share-through-slices", "::mlir::func::FuncOp"> {
  let summary = "Compute an elementwise op of a slice once, on the whole";
  let description = [{
    The first pass of `prec-plan-engine` (not of the lowering, which
    prec-debug's switchable program shares: there a layer's ops must be the same
    at every precision, and an i8 slice is not a float op). ONNX exports of
    strided 1x1 convolutions (ResNet's downsamples) slice their input so that
    TOSA's stride divides it, and legalization quantizes that slice for the
    convolution while the next block's first convolution quantizes the whole
    tensor with the same scale. Elementwise ops commute with a slice: the chain
    of ops reading a slice of `x` (each the only reader of the one before) is
    followed as far as each has an earlier twin computing the same from the
    whole (the same op, other operands, properties, result element type and
    computing attributes), and its last op becomes that slice of its twin's
    result, where that result is no wider than `x`: the slice then moves the
    chain's result (an i8 tensor rather than f16).

    Example:

    ```mlir
    // Input:
    %q = tosa.cast %x : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf16>
    %s = tosa.slice %x, %start, %size : (tensor<1x4x4x8xf32>, ...) -> tensor<1x3x3x8xf32>
    %p = tosa.cast %s : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf16>
    // Output:
    %q = tosa.cast %x : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf16>
    %p = tosa.slice %q, %start, %size : (tensor<1x4x4x8xf16>, ...) -> tensor<1x3x3x8xf16>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecFuseAttentionQuantization
    : Pass<"prec-fuse-attention-quantization", "::mlir::func::FuncOp"> {
  let summary = "Let engine.attention write the f8 activation an f8 op reads";
  let description = [{
    Runs after `prec-fold-attention-views` in `prec-plan-engine`. Where an
    f8 op (a Linear pinned to f8, LLaMA's output projection) reads an
    attention's result, the program widens it to f32, multiplies it by the
    activation's scale and casts it to f8: an elementwise kernel reading
    the whole result back from memory. Where those three ops follow the
    result, through reshapes, each the only reader of the one before, the
    attention takes them: it writes `f8(f32(round_U(o)) * scale)` with
    `result_scale` and `unscaled_type` U (its result type until then), and
    the reshapes carry the f8 tensor.

    Example:

    ```mlir
    // Input:
    %o = engine.attention %q, %kt, %v {...} : (...) -> tensor<4x16x16xf16>
    %w = tosa.cast %o : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
    %s = tosa.mul %w, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
    %q8 = tosa.cast %s : (tensor<4x16x16xf32>) -> tensor<4x16x16xf8E4M3FN>
    // Output:
    %q8 = engine.attention %q, %kt, %v {..., result_scale = 2.560000e+02 : f64,
            unscaled_type = f16} : (...) -> tensor<4x16x16xf8E4M3FN>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecFuseAttentionScales
    : Pass<"prec-fuse-attention-scales", "::mlir::func::FuncOp"> {
  let summary = "Let engine.attention multiply its query and keys by constants";
  let description = [{
    Runs after `prec-fold-attention-views` in `prec-plan-engine`. Exporters
    split the softmax scale over Q and K (PyTorch's export of
    scaled_dot_product_attention multiplies each by Sq^-1/4): two
    elementwise kernels reading and writing Q and K whole. Where the
    query or keys of a tensor-core attention without quantization are a
    multiply by a constant of one value in the operand's type, read only
    by the attention through views each the only reader of the one
    before, the attention reads the multiply's input and takes the
    constant as `query_factor` or `keys_factor`: its kernel multiplies the
    tiles it stages by it, rounding each product to the operand's type as
    the multiply did, so that the result is the same bit for bit.

    Example:

    ```mlir
    // Input:
    %qs = tosa.mul %q, %c, %shift : (tensor<4x16x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
    %o = engine.attention %qs, %kt, %v {...} : (...) -> tensor<4x16x16xf16>
    // Output (%c holds 0.353515625):
    %o = engine.attention %q, %kt, %v {..., query_factor = 0.353515625 : f64}
           : (...) -> tensor<4x16x16xf16>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecTransposeGemmOperands
    : Pass<"prec-transpose-gemm-operands", "::mlir::func::FuncOp"> {
  let summary = "Give 8-bit GEMMs their B operand transposed";
  let description = [{
    Runs in `prec-plan-engine` before the kernels are planned. cuBLASLt's
    i8 and f8 GEMMs read B only as a [batch, N, K] matrix with op T. A
    constant B is stored that way (`prec-plan-weight-layouts`), and a B
    that is a `tosa.transpose` (perms 0, 2, 1) is read through from the
    transpose's input. Any other B of an i8 or f8 `tosa.matmul` (the keys
    or values of a quantized attention that is not fused) becomes a
    transpose of a transpose: the inner one a kernel writing the
    [batch, N, K] copy, the outer one read through by the GEMM. Other
    matmuls are left alone.

    Example:

    ```mlir
    // Input:
    %c = tosa.matmul %a, %v, %zp, %zp : (tensor<2x8x16xi8>, tensor<2x16x4xi8>, ...) -> tensor<2x8x4xi32>
    // Output:
    %t = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x16x4xi8>) -> tensor<2x4x16xi8>
    %b = tosa.transpose %t {perms = array<i32: 0, 2, 1>} : (tensor<2x4x16xi8>) -> tensor<2x16x4xi8>
    %c = tosa.matmul %a, %b, %zp, %zp : (...) -> tensor<2x8x4xi32>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecPlanIndexWidth
    : Pass<"prec-plan-index-width", "::mlir::func::FuncOp"> {
  let summary = "Choose 32- or 64-bit indices for an engine's kernels";
  let description = [{
    A decision of `prec-plan-engine`, after `prec-choose-conv-algorithms`.
    Kernels index in 32 bits unless some index space, with room for a
    block's overrun, reaches 2^31 elements: any tensor of the function, or
    the columns of an im2col convolution. The GPU emulates 64-bit division,
    which broadcast and im2col offsets do by non-power-of-two extents
    (ResNet-50 batch 64 f16: 5.71 ms with 64-bit indices, 5.21 ms with
    32). The function gets `engine.index_bitwidth`.

    Example:

    ```mlir
    // Input:
    func.func @main(%x: tensor<2147483648xf32>) -> tensor<2147483648xf32> {
      %y = tosa.exp %x : (tensor<2147483648xf32>) -> tensor<2147483648xf32>
    // Output:
    func.func @main(%x: tensor<2147483648xf32>) -> tensor<2147483648xf32>
        attributes {engine.index_bitwidth = 64 : i64} {
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanWeightLayouts
    : Pass<"prec-plan-weight-layouts", "::mlir::func::FuncOp"> {
  let summary = "Choose how an engine stores its constant weights";
  let description = [{
    A decision of `prec-plan-engine`. The weights file holds constants as
    the GEMMs read them (a GEMM that reads a transpose of a constant reads
    through it, and the constant stays as it is):
    * an i8 or f8 `tosa.matmul`'s constant B, [batch, K, N], is stored as
      [batch, N, K] (cuBLASLt's TN layout), marked
      `engine.stored_transposed`.
    * an 8-bit `tosa.conv2d` whose KH * KW * C is not a multiple of 16 has
      its constant weights stored with rows zero-padded to its GEMM's depth,
      marked `engine.padded_depth`.
    A constant is stored once, in one layout: one that readers need in
    different layouts (the pipeline merges equal weights) is first
    copied, a copy for each layout but that of its plain readers. Marks
    already there are replaced, so that the plan is their only source.

    Example:

    ```mlir
    // Input:
    %w = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> : ...
    %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x32xi8>, tensor<1x32x16xi8>, ...) -> tensor<1x8x16xi32>
    // Output:
    %w = "tosa.const"() <{values = dense<1> : tensor<1x32x16xi8>}> {engine.stored_transposed} : ...
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanCopyVectors
    : Pass<"prec-plan-copy-vectors", "::mlir::func::FuncOp"> {
  let summary = "Let copy kernels move up to 16 bytes a thread";
  let description = [{
    A decision of `prec-plan-engine`, after `prec-plan-kernels`. A
    transpose, slice, concat, tile, reverse, gather, max or average pool
    that runs as a kernel of its own moves `engine.vector_bytes` bytes a
    thread (16, 8 or 4: the widest that holds two elements or more and
    fits) where its innermost dimension stays innermost and every extent
    and offset along it is a multiple of that many elements (for a pool,
    its channels, while 2^18 threads or more remain: each loops over its
    window); a pad, where its result's innermost row is that many elements
    (an image's 3 channels padded to 4: a thread writes the row whole and
    reads what is inside one by one). Its kernel then indexes vectors: one
    element a thread
    leaves a copy bound by its index arithmetic (LLaMA-8B's 2048 x 32 x 128
    f16 transpose of Q took 26.5 us on an H200, three times its bytes'
    time; ResNet-50's max-pool at batch 64, 72 us, 2.7 times). Only ops
    whose buffers are all the arena's or the weights', 256-byte aligned,
    take it: a binding's alignment is the caller's.

    Example:

    ```mlir
    // Input:
    %t = tosa.transpose %a {perms = array<i32: 1, 0, 2>, engine.kernel = #engine.kernel<1, single>}
        : (tensor<16x8x64xf16>) -> tensor<8x16x64xf16>
    // Output:
    %t = tosa.transpose %a {perms = array<i32: 1, 0, 2>, engine.kernel = #engine.kernel<1, single>,
                            engine.vector_bytes = 16 : i64}
        : (tensor<16x8x64xf16>) -> tensor<8x16x64xf16>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

def PrecPlanElementwiseVectors
    : Pass<"prec-plan-elementwise-vectors", "::mlir::func::FuncOp"> {
  let summary = "Let elementwise and row kernels load and store up to 16 bytes a thread";
  let description = [{
    A decision of `prec-plan-engine`, after `prec-plan-kernels`. The last
    op of an elementwise kernel (`single` or `fused`) gets
    `engine.vector_bytes` (16, 8 or 4: the widest that holds two result
    elements or more) where its result's innermost dimension is a multiple
    of that many elements: each thread then computes runs of that many
    consecutive elements, stores them as one vector, and loads as vectors
    the inputs it reads at the result's index whose elements are as wide as
    the result's (others, broadcast or read through moves, element by
    element). One 2-byte element a thread issues eight times the memory
    instructions: BERT-base's GELU kernel took 21 us on an H200 against its
    bytes' 10.5 us. Only kernels whose buffers are all the arena's or the
    weights', 256-byte aligned, take it (a binding's alignment is the
    caller's), and only where every input is loaded as vectors or
    broadcast: a kernel reading through moves (a rotary embedding's
    transposes and slices) or an input narrower or wider than its result
    would read runs a strided element at a time.

    The last op of a row kernel (`rows`: LayerNorm, RMSNorm, softmax) gets
    `engine.vector_bytes` sized by the widest element among the full rows
    and row vectors (a LayerNorm's weight) it moves (a reduced float splat
    included), where the row's width is a multiple of the run and holds 32
    runs or more: each thread then holds runs of that many consecutive
    elements of its row, loading and storing every full row and row vector
    a run at a time, and `engine.block_threads` becomes the threads that
    cover the row's runs, with at most 32 elements a thread where 256
    threads allow (rows of one warp run four to a block). BERT-base's
    residual add and LayerNorm, 4096 rows of 768 f16, took 7.95 us on an
    H200 a 2-byte element at a time (128 threads a row) and 5.90 us in runs
    of 8 (a warp a row). Other rows keep the threads `prec-plan-kernels`
    gave them.

    Example:

    ```mlir
    // Input:
    %y = tosa.sigmoid %x {engine.kernel = #engine.kernel<1, single>}
        : (tensor<16x64xf16>) -> tensor<16x64xf16>
    // Output:
    %y = tosa.sigmoid %x {engine.kernel = #engine.kernel<1, single>,
                          engine.vector_bytes = 16 : i64}
        : (tensor<16x64xf16>) -> tensor<16x64xf16>
    ```
  }];
  let dependentDialects = ["::prec::engine::EngineDialect"];
}

#endif // PREC_LOWERING_PASSES_TD
