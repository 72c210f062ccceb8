// An attention whose result an f8 op reads quantized writes the f8 values
// itself: its result functor rounds each output to f16, scales it in f32
// and converts it with saturation (prec-fuse-attention-quantization), the
// tensor-core kernel stores through it, and no other kernel runs; the
// manifest gives the output's rounding before the scale.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=attn8
// RUN: FileCheck %s < %t/attn8.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/attn8.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/attn8.cu -o %t/attn8.o %}
// The other two kernels take the functor too: CUDA-core tiles (a query head
// size of 24) and a warp per row (value head size 24 as well), whose launch
// then names every type.
// RUN: prec-translate --emit-cuda %S/Inputs/attention-quantized-tiles.mlir --output-dir=%t/tiles --engine-name=tiles
// RUN: FileCheck %s --check-prefix=TILES < %t/tiles/tiles.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/tiles/tiles.cu -o %t/tiles/tiles.o %}
// RUN: prec-translate --emit-cuda %S/Inputs/attention-quantized-rows.mlir --output-dir=%t/rows --engine-name=rows
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows/rows.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/rows/rows.cu -o %t/rows/rows.o %}
// TILES: prec_launch(e->early_launch, prec_attention_cuda_cores<24, 16, false, k0_attention_logit, __half, __half, __half, __nv_fp8_e4m3, int, k0_attention_result>,
// ROWS: prec_launch(e->early_launch, prec_attention<1, false, k0_attention_logit, __half, __half, __half, __nv_fp8_e4m3, int, k0_attention_result>,

// CHECK: struct k0_attention_result {
// CHECK-NEXT: static constexpr bool PAIRS = false;
// CHECK-NEXT: __device__ __nv_fp8_e4m3 operator()(float x) const { return __nv_fp8_e4m3(__fmul_rn(__half2float((__float2half_rn(x))), 0x1p+8f)); }
// CHECK: // engine.attention '/encoder/layer.0/attention/self/MatMul_1', on tensor cores
// CHECK-NEXT: if (
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ROW_PAIRS, k0_attention_logit, __half, __half, __nv_fp8_e4m3, int, k0_attention_result>,
// CHECK-SAME: prec_attention_args<__half, __half, __half, __nv_fp8_e4m3, int>
// CHECK-NEXT: else
// CHECK-NEXT: prec_launch(e->early_launch, prec_attention_mma<1, 16, 16, false, false, false, PREC_MASK_ELEMENTS,
// CHECK-NOT: prec_launch(

// MANIFEST: "op": "engine.attention",
// MANIFEST-NEXT: "parts": {
// MANIFEST: "unscaled_result": "f16"
// MANIFEST: "storage": "f8E4M3FN"

func.func @main(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf8E4M3FN>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
  %y = tosa.add %x, %mask : (tensor<2x2x8x8xf16>, tensor<2x1x1x8xf16>) -> tensor<2x2x8x8xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x8x8xf16>, tensor<2x2x8x1xf16>) -> tensor<2x2x8x8xf16>
  %d32 = tosa.cast %d : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d32 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p16 = tosa.cast %p : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x8x8xf16>, !tosa.shape<3>) -> tensor<4x8x8xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp {precision.layer = "/encoder/layer.0/attention/self/MatMul_1"} : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  %w = tosa.cast %o16 : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %scale = "tosa.const"() <{values = dense<256.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %scaled = tosa.mul %w, %scale, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %scaled : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  return %q8 : tensor<4x8x16xf8E4M3FN>
}
