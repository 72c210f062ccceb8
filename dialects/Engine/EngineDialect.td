//===- EngineDialect.td - the engine plan ------------------*- tablegen -*-===//

#ifndef PREC_ENGINE_DIALECT_TD
#define PREC_ENGINE_DIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Engine_Dialect : Dialect {
  let name = "engine";
  let cppNamespace = "::prec::engine";
  let summary = "The decisions that shape a CUDA engine, as attributes";
  let description = [{
    The passes of `prec-plan-engine` (lowering/) decide how the lowered TOSA
    of a function runs as a CUDA engine and record each decision on the op
    it concerns; the emitter (codegen/) reads them and decides nothing:

    * `engine.conv_algorithm` on a `tosa.conv2d`: how the convolution runs.
    * `engine.kernel` on every op that computes something: the kernel (or
      library call) that computes it. Ops with one kernel index are
      consecutive and run in one launch, at the last of them.
    * `engine.block_threads` on the last op of a `rows` kernel: the threads
      that compute each row (rows of 32 threads run four to a block).
    * `engine.epilogue` on a `tosa.matmul` or `tosa.conv2d` whose kernel is
      a contraction: what the library computes after the product, each step
      being the only user of the value before it.
    * `engine.read_through` on a transpose of B, a bias widening or a crop
      of an implicit-GEMM convolution's input that only GEMMs read: no
      kernel computes it, the GEMMs read its operand.
    * `engine.arena_offset` on an op whose result lives in the activation
      arena: where (bytes); `engine.columns_offset` on an im2col
      convolution: where its columns go; `engine.arena_bytes` on the
      function: the arena's size.
    * With a dynamic batch, `engine.batched_inputs` on the function (the
      arguments that carry the batch) and `engine.batch_dim` on each op
      whose result scales with it.
    * `engine.index_bitwidth` on the function: 32 or 64, the width of the
      kernels' indices.
    * `engine.vector_bytes` on a copy op (transpose, slice, concat, tile,
      reverse, gather) that runs as a kernel of its own, or on the last op
      of an elementwise kernel: 4, 8 or 16, the bytes of consecutive
      innermost elements each thread moves or stores at a time. On the last
      op of a `rows` kernel: the bytes of the widest element's runs, each
      full row and row vector moving as many elements at a time.
    * `engine.met_lower_bound` on a float `tosa.clamp` the engine computes
      whose input is never NaN nor below its lower bound
      (prec-mark-met-lower-bounds): the kernel leaves that bound out.
    * How a constant's weights are laid out in the weights file:
      `engine.stored_transposed` on a [batch, K, N] tosa.const that 8-bit
      GEMMs read as [batch, N, K]; `engine.padded_depth` on a tosa.const of
      8-bit convolution weights whose rows are zero-padded to that many
      elements.

    One op stands for a kernel whose ops the plan replaces: `engine.attention`
    (prec-fuse-attention).

    ```mlir
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {..., engine.conv_algorithm = #engine.conv_algorithm<cudnn>,
                                                engine.epilogue = #engine.epilogue<relu>,
                                                engine.kernel = #engine.kernel<0, contraction>}
    %r = tosa.clamp %y {..., engine.kernel = #engine.kernel<0, contraction>}
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The dialect in `context`, where a pass that declares it runs (its
    /// attribute helpers name the plan's attributes).
    static EngineDialect &get(::mlir::MLIRContext *context) {
      EngineDialect *dialect = context->getLoadedDialect<EngineDialect>();
      assert(dialect && "the engine dialect is loaded by the plan's passes");
      return *dialect;
    }
  }];
  let discardableAttrs = (ins
    "::prec::engine::ConvAlgorithmAttr":$conv_algorithm,
    "::prec::engine::KernelAttr":$kernel,
    "::prec::engine::EpilogueAttr":$epilogue,
    "::mlir::IntegerAttr":$arena_offset,
    "::mlir::IntegerAttr":$columns_offset,
    "::mlir::IntegerAttr":$arena_bytes,
    "::mlir::DenseI64ArrayAttr":$batched_inputs,
    "::mlir::IntegerAttr":$batch_dim,
    "::mlir::IntegerAttr":$index_bitwidth,
    "::mlir::UnitAttr":$read_through,
    "::mlir::UnitAttr":$stored_transposed,
    "::mlir::IntegerAttr":$block_threads,
    "::mlir::IntegerAttr":$padded_depth,
    "::mlir::IntegerAttr":$vector_bytes,
    "::mlir::UnitAttr":$met_lower_bound
  );
}

def Engine_ConvAlgorithm : I32EnumAttr<"ConvAlgorithm",
    "how a convolution runs", [
  I32EnumAttrCase<"Direct", 0, "direct">,
  I32EnumAttrCase<"Gemm", 1, "gemm">,
  I32EnumAttrCase<"Im2col", 2, "im2col">,
  I32EnumAttrCase<"Cudnn", 3, "cudnn">,
  I32EnumAttrCase<"ImplicitGemm", 4, "implicit_gemm">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::prec::engine";
  let description = [{
    `direct`: a kernel per output element (types or a bias cuBLASLt cannot
    take). `gemm`: a 1x1 unit-stride convolution, one cuBLASLt GEMM on its
    NHWC input as it is. `im2col`: an im2col kernel into the arena, then a
    cuBLASLt GEMM. `cudnn`: cuDNN's fastest algorithm, found at create.
    `implicit_gemm`: prec's own kernel (runtime/ImplicitGemmConv.cuh) for
    int8 inputs and weights accumulating in int32 with C a multiple of 16:
    a GEMM that copies each output position's receptive field from the
    input itself, writing no im2col columns, on wgmma where the engine is
    compiled for sm_90a and on mma.sync elsewhere.
  }];
}

def Engine_ConvAlgorithmAttr
    : EnumAttr<Engine_Dialect, Engine_ConvAlgorithm, "conv_algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

def Engine_Epilogue : I32BitEnumAttr<"Epilogue",
    "what cuBLASLt or cuDNN computes after a contraction's product", [
  I32BitEnumAttrCaseBit<"Scale", 0, "scale">,
  I32BitEnumAttrCaseBit<"Bias", 1, "bias">,
  I32BitEnumAttrCaseBit<"Relu", 2, "relu">,
  I32BitEnumAttrCaseBit<"Convert", 3, "convert">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::prec::engine";
  let separator = ", ";
  let description = [{
    In the libraries' order D = convert(relu(alpha · (A B) + bias)):
    `scale`, a multiply by a constant (alpha); `bias`, a row bias added in
    the accumulator type; `relu`, a clamp to [0, +inf) (convolutions);
    `convert`, the conversion to f16 or bf16 (matmuls).
  }];
}

def Engine_EpilogueAttr
    : EnumAttr<Engine_Dialect, Engine_Epilogue, "epilogue"> {
  let assemblyFormat = "`<` $value `>`";
}

def Engine_KernelKind : I32EnumAttr<"KernelKind", "what a kernel is", [
  I32EnumAttrCase<"Single", 0, "single">,
  I32EnumAttrCase<"Fused", 1, "fused">,
  I32EnumAttrCase<"Rows", 2, "rows">,
  I32EnumAttrCase<"Contraction", 3, "contraction">,
  I32EnumAttrCase<"Epilogue", 4, "epilogue">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::prec::engine";
  let description = [{
    `single`: one op's own kernel. `fused`: elementwise ops over one shape,
    each fused into its only user, one thread per element. `rows`: a run of
    elementwise ops and last-axis reductions over the same rows (LayerNorm,
    softmax), a block per row. `contraction`: a cuBLASLt GEMM or a cuDNN
    convolution with the ops its epilogue performs (scale, bias, ReLU,
    conversion) and the operand transposes and bias widenings it reads
    through. `epilogue`: an implicit-GEMM convolution and the elementwise
    ops of its only reader's `fused` kernel, which its epilogue computes
    from the accumulators, rounding after every op as that kernel would:
    the convolution's int32 result never reaches memory. Where an
    elementwise kernel of the same shape reads that kernel's result (a
    quantization for the next convolution), its ops join too: the epilogue
    stores both results, and launches at the last op.
  }];
}

def Engine_KernelAttr : AttrDef<Engine_Dialect, "Kernel"> {
  let mnemonic = "kernel";
  let summary = "The kernel that computes an op";
  let parameters = (ins "int64_t":$index,
                        "::prec::engine::KernelKind":$kind);
  let assemblyFormat = "`<` $index `,` $kind `>`";
}

def Engine_AttentionKernel : I32EnumAttr<"AttentionKernel",
    "which kernel runs an attention", [
  I32EnumAttrCase<"TensorCores", 0, "tensor_cores">,
  I32EnumAttrCase<"WarpPerRow", 1, "warp_per_row">,
  I32EnumAttrCase<"CudaCores", 2, "cuda_cores">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::prec::engine";
  let description = [{
    `tensor_cores`: FlashAttention-2 on `mma.sync`, `query_rows` query rows
    per block of 4 warps over 64-key tiles; f16 or bf16 query, keys and
    values with head sizes that are multiples of 16 up to 128.
    `cuda_cores`: the CUDA cores, tiled: 64 query rows per block of 256
    threads over 64-key tiles staged in shared memory as f32, each thread
    a 4×4 block of scores; for the types the tensor cores do not take (f32
    above all), head size D up to 128 and Dv a multiple of 16 up to 128.
    `warp_per_row`: one warp per query row on the CUDA cores, for every
    other shape.
  }];
}

def Engine_AttentionKernelAttr
    : EnumAttr<Engine_Dialect, Engine_AttentionKernel, "attention_kernel"> {
  let assemblyFormat = "`<` $value `>`";
}

def Engine_AttentionQuantizationAttr
    : AttrDef<Engine_Dialect, "AttentionQuantization"> {
  let mnemonic = "attention_quantization";
  let summary = "How an attention's two matmuls are quantized";
  let description = [{
    The program's quantized Q·Kᵀ and P·V (prec-quantize, each operand per
    tensor) as factors in f32: each operand is multiplied by its factor
    (`query`, `keys`, `values`, `probabilities`: the inverses of the
    scales) and converted to `type` (i8: clamped to [-127, 127] and
    rounded half to even; an f8 type: with saturation); the f32 product
    of the scores is multiplied by `scores`, the result's by `result` (the
    products of the two scales). `normalized`: the kernel quantizes the
    probabilities after their division by the row sum, as the program
    does, in a second sweep over the keys; else before it, in one.
  }];
  let parameters = (ins "::mlir::Type":$type,
                        "::mlir::FloatAttr":$query,
                        "::mlir::FloatAttr":$keys,
                        "::mlir::FloatAttr":$values,
                        "::mlir::FloatAttr":$probabilities,
                        "::mlir::FloatAttr":$scores,
                        "::mlir::FloatAttr":$result,
                        DefaultValuedParameter<"bool", "false">:$normalized);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Engine_AttentionOp : Op<Engine_Dialect, "attention", [Pure]> {
  let summary = "Scaled dot-product attention, run as one kernel";
  let description = [{
    `softmax(mask(scale(Q·Kᵀ))) · V` over `N` = batch × `heads` matrices,
    as prec-fuse-attention finds it in a lowered program: `query` is
    `[N, Sq, D]`, `keys` is `[N, D, Sk]` (transposed, as the program's
    Q·Kᵀ matmul reads it), `values` is `[N, Sk, Dv]` and the result
    `[N, Sq, Dv]`. The optional `mask` is added to the scores, broadcast to
    `[N / heads, heads, Sq, Sk]`; with `mask_first` before the scaling,
    else after it.

    The types of each part are the program's:
    * Q·Kᵀ and P·V accumulate in f32 (the program's matmuls did).
    * The scores are rounded to `score_type` (the first matmul's storage),
      the scaled scores to `scaled_type`, the masked ones to `masked_type`,
      as the program's ops rounded them.
    * The softmax runs in f32 with a running maximum (FlashAttention): the
      S×S matrix never reaches memory, and the division by the row sum
      comes after ·V instead of before it; where the program's max and
      subtraction ran in f16 the kernel is more accurate than the program.
      On tensor cores, exponentials below 2^-126 are 0 (the hardware's ex2
      alone): such a probability is below what the row's sum, at least 1,
      resolves, and below f16's smallest.
    * The probabilities are rounded to `values`' element type before ·V, as
      the program's P·V matmul read them; the result to its element type.
    * `zero_nan_rows`: the program replaced NaN probabilities by 0 (the
      guard exporters write after a softmax whose row may be fully masked).

    `skip_masked_keys` (tensor-core kernel, a mask of static shape added
    after the scaling, or before a scale of 1, as where exporters fold the
    scale into the query): a block of queries stops at the last tile of keys where the
    mask leaves a key to one of its rows. Past it, every mask value of the
    block's rows is at most -65504 (f16's lowest; f32's lowest and -inf are
    below it), and once each row has a logit of at least -16384 (else the
    block goes on through every key) such a key's logit is at least
    49120 - s below the row's largest, for a scaled score s: its
    probability exp(logit - max) is exactly 0 in f32 wherever scaled
    scores stay below 49000, and the result is the one computed without
    skipping, bit for bit. Causal masks stop each block at its diagonal
    (half of the work of a long prefill), padding masks at the padding.
    Which tiles of keys the mask leaves to each block is worked out once
    per run, ahead of the kernel, into a buffer of the engine, with the
    tiles where it adds +0 throughout: the block reads no mask there (below
    a causal diagonal), adding +0 as the mask would. A mask row that every
    query shares (a padding mask) is read everywhere: one load a pair of
    keys costs less than the lookup.

    Strided operands (prec-fold-attention-views): where the program moves
    heads around with transposes, reshapes and tiles before or after the
    attention, the kernel reads and writes through those moves instead.
    `query_strides`, `keys_strides`, `values_strides` and `result_strides`
    give the offset in elements of a matrix's (batch, head, row, column)
    in the tensor as stored, whatever its shape; `sizes` then gives
    [N, Sq, Sk, D, Dv]. Rows hold their columns contiguously, except keys',
    whose rows are Kᵀ's (the head dimension) or K's (the keys): one of the
    two has stride 1. With `kv_group` g (grouped-query attention), head h
    reads the keys and values of head h / g.

    Quantized matmuls (`quantization`, i8 or an f8 type): the program
    quantized Q, Kᵀ, P and V per tensor for its i8 or f8 matmuls. The kernel
    reads Q, K and V in their own type and quantizes them as it stages them
    in shared memory, `f8(f32(x) * factor)` with saturation, or
    `i8(clamp(f32(x) * factor, -127, 127))`; the quantized values, exact in
    f16 and bf16, are multiplied on the operands' tensor cores into f32,
    which is what an f8 matmul computes up to summation order, and an i8
    one exactly (its sums over a head size up to 128, and the normalized
    probabilities' integers times V's over the keys, stay below 2^24).
    The scores' product is multiplied by the dequantization factor before
    the scale and the mask. The probabilities are quantized before ·V as
    the program quantized them: with `normalized`, after their division by
    the row sum, as the program did (a first sweep over the keys finds each
    row's maximum and sum, a second computes P·V); without it, the kernel
    departs from the program in one way: as above, it quantizes them
    before that division (exp(x - m) in [0, 1] times the program's factor),
    and the result is multiplied by its dequantization factor after it.
    prec-fuse-attention leaves out `normalized` only in f8, whose exponent
    keeps a probability's relative precision either way, and only where
    exp(x - m) times the factor cannot saturate (the factor is at most the
    type's largest value: P's calibrated or proven maximum is 1); i8's 127
    even steps need it.

    Scaled query and keys (prec-fuse-attention-scales): with `query_factor`
    or `keys_factor` c, the kernel reads Q (or Kᵀ) multiplied by c in its
    element type, each product rounded to it, as the program's multiply by
    a constant did before Q·Kᵀ (exporters split the softmax scale over Q
    and K, each times Sq^-1/4). c is a value of that type; tensor-core
    kernel only, and not with `quantization`.

    Quantized result (prec-fuse-attention-quantization): with
    `result_scale` s and `unscaled_type` U, the kernel writes
    `f8(f32(round_U(o)) * s)` for each output o, rounding the product to
    f32 and converting it to the result's f8 type with saturation, as the
    program's cast to U, multiply by the activation's scale and cast to f8
    did before the f8 GEMM reading it.

    `kernel` is the kernel that runs it; the verifier checks that
    `tensor_cores` fits the types and head sizes. `query_rows`, the query
    rows a block of the tensor-core kernel takes, is 64 (16 a warp) or 128
    (32 a warp: each fragment of keys and values read from shared memory
    feeds twice the mma instructions).

    ```mlir
    %o = engine.attention %q, %kt, %v mask %m {heads = 4 : i64,
           kernel = #engine.attention_kernel<tensor_cores>,
           query_rows = 64 : i64, scale = 2.500000e-01 : f64,
           score_type = f16, scaled_type = f16, masked_type = f32}
         : (tensor<8x16x16xf16>, tensor<8x16x16xf16>, tensor<8x16x16xf16>,
            tensor<2x1x1x16xf32>) -> tensor<8x16x16xf16>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$keys,
    AnyRankedTensor:$values,
    Optional<AnyRankedTensor>:$mask,
    I64Attr:$heads,
    Engine_AttentionKernelAttr:$kernel,
    OptionalAttr<I64Attr>:$query_rows,
    F64Attr:$scale,
    TypeAttr:$score_type,
    TypeAttr:$scaled_type,
    TypeAttr:$masked_type,
    UnitAttr:$mask_first,
    UnitAttr:$zero_nan_rows,
    UnitAttr:$skip_masked_keys,
    OptionalAttr<DenseI64ArrayAttr>:$sizes,
    OptionalAttr<DenseI64ArrayAttr>:$query_strides,
    OptionalAttr<DenseI64ArrayAttr>:$keys_strides,
    OptionalAttr<DenseI64ArrayAttr>:$values_strides,
    OptionalAttr<DenseI64ArrayAttr>:$result_strides,
    DefaultValuedAttr<I64Attr, "1">:$kv_group,
    OptionalAttr<F64Attr>:$result_scale,
    OptionalAttr<TypeAttr>:$unscaled_type,
    OptionalAttr<Engine_AttentionQuantizationAttr>:$quantization,
    OptionalAttr<F64Attr>:$query_factor,
    OptionalAttr<F64Attr>:$keys_factor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $query `,` $keys `,` $values (`mask` $mask^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The matrices' sizes: N (batch x heads), Sq, Sk, D and Dv.
    struct Sizes {
      int64_t n, sq, sk, d, dv;
    };
    /// `sizes`, or the operands' shapes where it is absent.
    Sizes getMatrixSizes();
    /// Element strides of (batch, head, row, column) in each operand and
    /// the result: the attribute, or the contiguous layout of the
    /// unstrided shapes ([N, Sq, D], [N, D, Sk], [N, Sk, Dv], [N, Sq, Dv]).
    ::llvm::SmallVector<int64_t, 4> getQueryLayout();
    ::llvm::SmallVector<int64_t, 4> getKeysLayout();
    ::llvm::SmallVector<int64_t, 4> getValuesLayout();
    ::llvm::SmallVector<int64_t, 4> getResultLayout();
    /// Whether the keys are stored as K's rows (the head dimension
    /// contiguous) rather than Kᵀ's.
    bool hasKeyRows() { return getKeysLayout()[2] == 1; }

    /// The keys the tensor-core kernel takes at a time, and which
    /// skip_masked_keys skips in.
    static constexpr int64_t kKeysPerTile = 64;
    /// Whether `kernel` can skip the keys `mask` removes, bit for bit
    /// (skip_masked_keys): the tensor-core kernel, with a mask of static
    /// shape that reaches the logits unscaled.
    static bool canSkipMaskedKeys(AttentionKernel kernel, ::mlir::Value mask,
                                  bool maskFirst, double scale) {
      return kernel == AttentionKernel::TensorCores && mask &&
             (!maskFirst || scale == 1.0) &&
             ::llvm::cast<::mlir::RankedTensorType>(mask.getType())
                 .hasStaticShape();
    }
    /// Whether the kernels compute with elements of `type`.
    static bool isComputeType(::mlir::Type type) {
      return type.isF32() || type.isF16() || type.isBF16();
    }
    /// Whether the tensor-core kernel quantizes to `type`
    /// (engine.attention_quantization).
    static bool isQuantizationType(::mlir::Type type) {
      return type.isSignlessInteger(8) ||
             ::llvm::isa<::mlir::Float8E4M3FNType, ::mlir::Float8E5M2Type>(
                 type);
    }
    /// Whether the tensor-core kernel can run an attention of these
    /// query/keys and values element types and head sizes D and Dv.
    static bool fitsTensorCores(::mlir::Type element, ::mlir::Type values,
                                int64_t d, int64_t dv) {
      auto fits = [](int64_t size) { return size % 16 == 0 && size <= 128; };
      return (element.isF16() || element.isBF16()) && values == element &&
             fits(d) && fits(dv);
    }
    /// Whether the tiled CUDA-core kernel can run an attention of head
    /// sizes D and Dv (its shared memory holds f32 tiles of both).
    static bool fitsCudaCoreTiles(int64_t d, int64_t dv) {
      return d <= 128 && dv % 16 == 0 && dv <= 128;
    }
  }];
  let hasVerifier = 1;
}

#endif // PREC_ENGINE_DIALECT_TD
