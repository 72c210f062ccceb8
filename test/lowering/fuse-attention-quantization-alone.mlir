// prec-fuse-attention-quantization on its own: an attention whose result
// (through reshapes) is widened to f32, scaled by a constant and cast to f8
// writes the f8 values itself; anything else stays.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-fuse-attention-quantization))' | FileCheck %s

// The output projection's quantized input, through the reshape that merges
// the heads; the scale may come first in the multiply.
// CHECK-LABEL: func.func @quantized_result
// CHECK: %[[O:.*]] = engine.attention
// CHECK-SAME: result_scale = 2.560000e+02 : f64
// CHECK-SAME: unscaled_type = f16
// CHECK-SAME: -> tensor<4x16x16xf8E4M3FN>
// CHECK-NEXT: tosa.const_shape
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %[[O]], %{{.*}} : (tensor<4x16x16xf8E4M3FN>, !tosa.shape<3>) -> tensor<1x64x16xf8E4M3FN>
// CHECK-NOT: tosa.cast
// CHECK-NOT: tosa.mul
// CHECK: return %[[R]]
func.func @quantized_result(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<1x64x16xf8E4M3FN> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<256.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %rows = tosa.const_shape {values = dense<[1, 64, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %o, %rows : (tensor<4x16x16xf16>, !tosa.shape<3>) -> tensor<1x64x16xf16>
  %w = tosa.cast %r : (tensor<1x64x16xf16>) -> tensor<1x64x16xf32>
  %s = tosa.mul %scale, %w, %shift : (tensor<1x1x1xf32>, tensor<1x64x16xf32>, tensor<1xi8>) -> tensor<1x64x16xf32>
  %q8 = tosa.cast %s : (tensor<1x64x16xf32>) -> tensor<1x64x16xf8E4M3FN>
  return %q8 : tensor<1x64x16xf8E4M3FN>
}

// -----

// E5M2 through an identity, the result not reshaped.
// CHECK-LABEL: func.func @e5m2_through_identity
// CHECK: %[[O:.*]] = engine.attention
// CHECK-SAME: result_scale = 1.600000e+01 : f64
// CHECK-SAME: -> tensor<4x16x16xf8E5M2>
// CHECK-NEXT: %[[I:.*]] = tosa.identity %[[O]] : (tensor<4x16x16xf8E5M2>) -> tensor<4x16x16xf8E5M2>
// CHECK-NEXT: return %[[I]]
func.func @e5m2_through_identity(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf8E5M2> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<16.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %o = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %i = tosa.identity %o : (tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %w = tosa.cast %i : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
  %s = tosa.mul %w, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %q8 = tosa.cast %s : (tensor<4x16x16xf32>) -> tensor<4x16x16xf8E5M2>
  return %q8 : tensor<4x16x16xf8E5M2>
}

// -----

// Left alone: a result read by something else too, a scale that varies
// along the rows, and a cast back to f16 rather than to f8.
// CHECK-LABEL: func.func @not_quantized
// CHECK-COUNT-3: engine.attention {{.*}} -> tensor<4x16x16xf16>
// CHECK-NOT: result_scale
// CHECK: return
func.func @not_quantized(%q: tensor<4x16x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>, %rowscale: tensor<4x16x1xf32>)
    -> (tensor<4x16x16xf8E4M3FN>, tensor<4x16x16xf16>, tensor<4x16x16xf8E4M3FN>, tensor<4x16x16xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<256.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %o1 = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %w1 = tosa.cast %o1 : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
  %s1 = tosa.mul %w1, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %q1 = tosa.cast %s1 : (tensor<4x16x16xf32>) -> tensor<4x16x16xf8E4M3FN>
  %o2 = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 5.000000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %w2 = tosa.cast %o2 : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
  %s2 = tosa.mul %w2, %rowscale, %shift : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %q2 = tosa.cast %s2 : (tensor<4x16x16xf32>) -> tensor<4x16x16xf8E4M3FN>
  %o3 = engine.attention %q, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.250000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %w3 = tosa.cast %o3 : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
  %s3 = tosa.mul %w3, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %h3 = tosa.cast %s3 : (tensor<4x16x16xf32>) -> tensor<4x16x16xf16>
  return %q1, %o1, %q2, %h3 : tensor<4x16x16xf8E4M3FN>, tensor<4x16x16xf16>, tensor<4x16x16xf8E4M3FN>, tensor<4x16x16xf16>
}
