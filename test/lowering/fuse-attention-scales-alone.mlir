// prec-fuse-attention-scales on its own: a tensor-core attention whose
// query or keys are a multiply by a constant in their type, read only by
// the attention (through views), reads the multiply's input and takes the
// constant as query_factor or keys_factor; anything else stays.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-fuse-attention-scales))' | FileCheck %s

// PyTorch's export of scaled_dot_product_attention: Q and Kᵀ each times
// 64^-1/4, through the reshapes to the attention's matrices; the constant
// may come first. The multiplies and their constants go.
// CHECK-LABEL: func.func @split_scale
// CHECK-SAME: (%[[Q:.*]]: tensor<1x64x16xf16>, %[[KT:.*]]: tensor<4x16x16xf16>,
// CHECK-NOT: tosa.mul
// CHECK-NOT: dense<3.535160e-01>
// CHECK: %[[R:.*]] = tosa.reshape %[[Q]]
// CHECK: engine.attention %[[R]], %[[KT]], %{{.*}} {
// CHECK-SAME: keys_factor = 0.353515625 : f64
// CHECK-SAME: query_factor = 0.353515625 : f64
func.func @split_scale(%q: tensor<1x64x16xf16>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> tensor<4x16x16xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<3.535160e-01> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %qs = tosa.mul %q, %c, %shift : (tensor<1x64x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x64x16xf16>
  %shape = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %qr = tosa.reshape %qs, %shape : (tensor<1x64x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %ks = tosa.mul %c, %kt, %shift : (tensor<1x1x1xf16>, tensor<4x16x16xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %o = engine.attention %qr, %ks, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o : tensor<4x16x16xf16>
}

// -----

// bf16 keys alone; the query's multiply has another reader and stays.
// CHECK-LABEL: func.func @keys_only
// CHECK: %[[QS:.*]] = tosa.mul
// CHECK-NOT: tosa.mul
// CHECK: engine.attention %[[QS]], %arg1, %arg2 {
// CHECK-SAME: keys_factor = 1.250000e-01 : f64
// CHECK-NOT: query_factor
func.func @keys_only(%q: tensor<4x16x16xbf16>, %kt: tensor<4x16x16xbf16>, %v: tensor<4x16x16xbf16>) -> (tensor<4x16x16xbf16>, tensor<4x16x16xbf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %qs = tosa.mul %q, %c, %shift : (tensor<4x16x16xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<4x16x16xbf16>
  %ks = tosa.mul %kt, %c, %shift : (tensor<4x16x16xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<4x16x16xbf16>
  %o = engine.attention %qs, %ks, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = bf16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = bf16, score_type = bf16} : (tensor<4x16x16xbf16>, tensor<4x16x16xbf16>, tensor<4x16x16xbf16>) -> tensor<4x16x16xbf16>
  return %o, %qs : tensor<4x16x16xbf16>, tensor<4x16x16xbf16>
}

// -----

// What stays: a factor of several values; a multiply that broadcasts its
// data; a multiply in f32 ahead of a cast; a view another op reads too;
// the CUDA-core kernel; a quantized attention.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-6: tosa.mul
// CHECK-NOT: _factor
func.func @kept(%q: tensor<4x16x16xf16>, %row: tensor<1x16x16xf16>, %q32: tensor<4x16x16xf32>, %kt: tensor<4x16x16xf16>, %v: tensor<4x16x16xf16>) -> (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<1x64x16xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %c32 = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %many = "tosa.const"() <{values = dense<[[[1.0]], [[2.0]], [[1.0]], [[2.0]]]> : tensor<4x1x1xf16>}> : () -> tensor<4x1x1xf16>
  %a = tosa.mul %q, %many, %shift : (tensor<4x16x16xf16>, tensor<4x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %c4 = "tosa.const"() <{values = dense<2.500000e-01> : tensor<4x1x1xf16>}> : () -> tensor<4x1x1xf16>
  %b = tosa.mul %row, %c4, %shift : (tensor<1x16x16xf16>, tensor<4x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %shape = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %d = tosa.mul %q32, %c32, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %dc = tosa.cast %d : (tensor<4x16x16xf32>) -> tensor<4x16x16xf16>
  %e = tosa.mul %q, %c, %shift : (tensor<4x16x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %rows = tosa.const_shape {values = dense<[1, 64, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %er = tosa.reshape %e, %rows : (tensor<4x16x16xf16>, !tosa.shape<3>) -> tensor<1x64x16xf16>
  %eb = tosa.reshape %er, %shape : (tensor<1x64x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  %f = tosa.mul %q, %c, %shift : (tensor<4x16x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %g = tosa.mul %q, %c, %shift : (tensor<4x16x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<4x16x16xf16>
  %o1 = engine.attention %a, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o2 = engine.attention %dc, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o3 = engine.attention %eb, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o4 = engine.attention %f, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f16, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o5 = engine.attention %g, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 4.0e-05 : f32, result = 1.0e-03 : f32>, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f32, score_type = f32} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o8 = engine.attention %b, %kt, %v {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 1.0 : f64, scaled_type = f16, score_type = f16} : (tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o6 = tosa.add %o1, %o2 : (tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %o7 = tosa.add %o3, %o4 : (tensor<4x16x16xf16>, tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  return %o6, %o7, %o5, %o8, %er : tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<1x64x16xf16>
}
