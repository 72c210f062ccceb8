// prec-fuse-attention on its own: attention as exporters write it (Q·Kᵀ, an
// epilogue cast, the per-head view, scale and mask, softmax, ·V) becomes one
// engine.attention; what else reads a part of it keeps it unfused.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-fuse-attention))' | FileCheck %s

// The scale, then the mask; the scores, scaled and masked scores round to f16
// as the program's epilogue cast, mul and add stored them. Nothing else is left.
// Eight keys, one tile: nothing for the kernel to skip.
// CHECK-LABEL: func.func @scale_then_mask
// CHECK-NEXT: %[[O:.*]] = engine.attention %arg0, %arg1, %arg2 mask %arg3 {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x1x8xf16>) -> tensor<4x8x16xf16>
// CHECK-NEXT: return %[[O]]
func.func @scale_then_mask(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf16>) {
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
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// No scale (exporters fold it into Q): the mask comes first, scale 1. Over
// more than one tile of keys (80), the kernel skips the tiles it removes.
// CHECK-LABEL: func.func @mask_unscaled
// CHECK-NEXT: engine.attention {{.*}} {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f16, query_rows = 64 : i64, scale = 1.000000e+00 : f64, scaled_type = f16, score_type = f16, skip_masked_keys} :
func.func @mask_unscaled(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x80xf16>, %v: tensor<4x80x16xf16>, %mask: tensor<2x1x1x80xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf16>, tensor<4x16x80xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x80xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x8x80xf32>) -> tensor<4x8x80xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 80]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x80xf16>, !tosa.shape<4>) -> tensor<2x2x8x80xf16>
  %y = tosa.add %s4, %mask : (tensor<2x2x8x80xf16>, tensor<2x1x1x80xf16>) -> tensor<2x2x8x80xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x80xf16>) -> tensor<2x2x8x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x8x80xf16>, tensor<2x2x8x1xf16>) -> tensor<2x2x8x80xf16>
  %d32 = tosa.cast %d : (tensor<2x2x8x80xf16>) -> tensor<2x2x8x80xf32>
  %e = tosa.exp %d32 : (tensor<2x2x8x80xf32>) -> tensor<2x2x8x80xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x80xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x80xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x80xf32>
  %p16 = tosa.cast %p : (tensor<2x2x8x80xf32>) -> tensor<2x2x8x80xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 80]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x8x80xf16>, !tosa.shape<3>) -> tensor<4x8x80xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x80xf16>, tensor<4x80x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// A mask before the scaling is scaled with the scores: no skipping.
// CHECK-LABEL: func.func @mask_then_scale
// CHECK-NEXT: engine.attention {{.*}} {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, mask_first, masked_type = f16, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} :
func.func @mask_then_scale(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.add %s4, %mask : (tensor<2x2x8x8xf16>, tensor<2x1x1x8xf16>) -> tensor<2x2x8x8xf16>
  %y = tosa.mul %x, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
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
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// f32 with a value head size of 16 runs on tiles of the CUDA cores; a
// rank-3 softmax is one head per matrix.
// CHECK-LABEL: func.func @f32_tiles
// CHECK-NEXT: engine.attention %arg0, %arg1, %arg2 {heads = 2 : i64, kernel = #engine.attention_kernel<cuda_cores>, masked_type = f32, scale = 1.000000e+00 : f64, scaled_type = f32, score_type = f32}
// CHECK-NEXT: return
func.func @f32_tiles(%q: tensor<2x8x8xf32>, %kt: tensor<2x8x8xf32>, %v: tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// A value head size that is no multiple of 16 (or one above 128, or a
// query head size above 128) runs a warp per query row.
// CHECK-LABEL: func.func @f32_rows
// CHECK-NEXT: engine.attention %arg0, %arg1, %arg2 {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.000000e+00 : f64, scaled_type = f32, score_type = f32}
// CHECK-NEXT: return
func.func @f32_rows(%q: tensor<2x8x8xf32>, %kt: tensor<2x8x8xf32>, %v: tensor<2x8x8xf32>) -> (tensor<2x8x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  return %o : tensor<2x8x8xf32>
}

// -----

// The exporters' guard against fully masked rows: NaN probabilities made 0.
// CHECK-LABEL: func.func @nan_guard
// CHECK-NEXT: engine.attention {{.*}} score_type = f16, zero_nan_rows}
// CHECK-NOT: tosa.select
func.func @nan_guard(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf16>) {
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
  %same = tosa.equal %p, %p : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xi1>
  %nan = tosa.logical_not %same : (tensor<2x2x8x8xi1>) -> tensor<2x2x8x8xi1>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %g = tosa.select %nan, %zero, %p : (tensor<2x2x8x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %p16 = tosa.cast %g : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x8x8xf16>, !tosa.shape<3>) -> tensor<4x8x8xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// The scaled scores are also a result: nothing fuses.
// CHECK-LABEL: func.func @scores_read_outside
// CHECK-NOT: engine.attention
// CHECK: tosa.reduce_max
func.func @scores_read_outside(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x16xf16>, tensor<2x2x8x8xf16>) {
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
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16, %x : tensor<4x8x16xf16>, tensor<2x2x8x8xf16>
}

// -----

// More than 64 queries with heads of more than 64: blocks of 128 query
// rows, 32 a warp. Any number of keys fuses.
// CHECK-LABEL: func.func @query_rows_128
// CHECK-NEXT: engine.attention {{.*}} kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 128 : i64,
func.func @query_rows_128(%q: tensor<4x96x128xf16>, %kt: tensor<4x128x160xf16>, %v: tensor<4x160x128xf16>, %mask: tensor<2x1x1x160xf16>) -> (tensor<4x96x128xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x96x128xf16>, tensor<4x128x160xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x96x160xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x96x160xf32>) -> tensor<4x96x160xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 96, 160]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x96x160xf16>, !tosa.shape<4>) -> tensor<2x2x96x160xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x96x160xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x96x160xf16>
  %y = tosa.add %x, %mask : (tensor<2x2x96x160xf16>, tensor<2x1x1x160xf16>) -> tensor<2x2x96x160xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x96x160xf16>) -> tensor<2x2x96x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x96x160xf16>, tensor<2x2x96x1xf16>) -> tensor<2x2x96x160xf16>
  %d32 = tosa.cast %d : (tensor<2x2x96x160xf16>) -> tensor<2x2x96x160xf32>
  %e = tosa.exp %d32 : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x160xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x96x1xf32>) -> tensor<2x2x96x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x96x160xf32>, tensor<2x2x96x1xf32>, tensor<1xi8>) -> tensor<2x2x96x160xf32>
  %p16 = tosa.cast %p : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x160xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 96, 160]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x96x160xf16>, !tosa.shape<3>) -> tensor<4x96x160xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x96x160xf16>, tensor<4x160x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x96x128xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x96x128xf32>) -> tensor<4x96x128xf16>
  return %o16 : tensor<4x96x128xf16>
}

// -----

// Heads of 64 or less take blocks of 64 query rows, however many queries.
// CHECK-LABEL: func.func @query_rows_small_heads
// CHECK-NEXT: engine.attention {{.*}} kernel = #engine.attention_kernel<tensor_cores>, masked_type = f16, query_rows = 64 : i64,
func.func @query_rows_small_heads(%q: tensor<4x96x16xf16>, %kt: tensor<4x16x160xf16>, %v: tensor<4x160x16xf16>, %mask: tensor<2x1x1x160xf16>) -> (tensor<4x96x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x96x16xf16>, tensor<4x16x160xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x96x160xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x96x160xf32>) -> tensor<4x96x160xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 96, 160]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x96x160xf16>, !tosa.shape<4>) -> tensor<2x2x96x160xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x96x160xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x96x160xf16>
  %y = tosa.add %x, %mask : (tensor<2x2x96x160xf16>, tensor<2x1x1x160xf16>) -> tensor<2x2x96x160xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x96x160xf16>) -> tensor<2x2x96x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x96x160xf16>, tensor<2x2x96x1xf16>) -> tensor<2x2x96x160xf16>
  %d32 = tosa.cast %d : (tensor<2x2x96x160xf16>) -> tensor<2x2x96x160xf32>
  %e = tosa.exp %d32 : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x160xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x96x1xf32>) -> tensor<2x2x96x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x96x160xf32>, tensor<2x2x96x1xf32>, tensor<1xi8>) -> tensor<2x2x96x160xf32>
  %p16 = tosa.cast %p : (tensor<2x2x96x160xf32>) -> tensor<2x2x96x160xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 96, 160]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x96x160xf16>, !tosa.shape<3>) -> tensor<4x96x160xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x96x160xf16>, tensor<4x160x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x96x16xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x96x16xf32>) -> tensor<4x96x16xf16>
  return %o16 : tensor<4x96x16xf16>
}

// -----

// Both matmuls quantized to f8 by prec-quantize (Q, Kᵀ, P, V each times a
// factor and converted; each product times its dequantization): one
// engine.attention on the f16 values the program quantized, with the
// factors; the quantization ops are gone.
// CHECK-LABEL: func.func @quantized_f8
// CHECK-NEXT: %[[O:.*]] = engine.attention %arg0, %arg1, %arg2 mask %arg3 {heads = 2 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, quantization = #engine.attention_quantization<type = f8E4M3FN, query = 1.120000e+02 : f32, keys = 2.240000e+02 : f32, values = 5.600000e+01 : f32, probabilities = 4.480000e+02 : f32, scores = 3.98596931E-5 : f32, result = 3.98596931E-5 : f32>, query_rows = 64 : i64, scale = 2.500000e-01 : f64, scaled_type = f16, score_type = f16} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<2x1x1x8xf32>) -> tensor<4x8x16xf16>
// CHECK-NEXT: return %[[O]]
func.func @quantized_f8(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf32>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fq = "tosa.const"() <{values = dense<112.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fk = "tosa.const"() <{values = dense<224.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fv = "tosa.const"() <{values = dense<56.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<448.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<3.98596931E-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %q32 = tosa.cast %q : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %qs = tosa.mul %q32, %fq, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %qs : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  %k32 = tosa.cast %kt : (tensor<4x16x8xf16>) -> tensor<4x16x8xf32>
  %ks = tosa.mul %k32, %fk, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %k8 = tosa.cast %ks : (tensor<4x16x8xf32>) -> tensor<4x16x8xf8E4M3FN>
  %s = tosa.matmul %q8, %k8, %zp, %zp : (tensor<4x8x16xf8E4M3FN>, tensor<4x16x8xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x8x8xf32>
  %sd = tosa.mul %s, %ds, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %sd {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
  %x32 = tosa.cast %x : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x8xf32>
  %y = tosa.add %x32, %mask : (tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %y, %m : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shape3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p3, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %ps : (tensor<4x8x8xf32>) -> tensor<4x8x8xf8E4M3FN>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vs : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xf8E4M3FN>, tensor<4x8x16xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o, %ds, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// Only P·V quantized: the kernel quantizes both matmuls or neither, and
// nothing is fused.
// CHECK-LABEL: func.func @half_quantized
// CHECK-NOT: engine.attention
// CHECK: return
func.func @half_quantized(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> (tensor<4x8x16xf16>) {
  %zp16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fv = "tosa.const"() <{values = dense<56.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<448.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<3.98596931E-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s = tosa.matmul %q, %kt, %zp16, %zp16 : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %ps : (tensor<4x8x8xf32>) -> tensor<4x8x8xf8E4M3FN>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vs : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xf8E4M3FN>, tensor<4x8x16xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o, %ds, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// Both matmuls quantized to i8 (prec-quantize's clamp to [-127, 127] and
// cast, i32 products widened to f32 before their dequantization): one
// attention quantizing to i8, with the same factors, and the probabilities
// after their division by the row sum (normalized), as i8 always is.
// CHECK-LABEL: func.func @quantized_i8
// CHECK-NEXT: %[[O:.*]] = engine.attention %arg0, %arg1, %arg2 {heads = 4 : i64, kernel = #engine.attention_kernel<tensor_cores>, masked_type = f32, quantization = #engine.attention_quantization<type = i8, query = 3.175000e+01 : f32, keys = 6.350000e+01 : f32, values = 1.587500e+01 : f32, probabilities = 1.270000e+02 : f32, scores = 4.960000e-04 : f32, result = 2.480000e-04 : f32, normalized = true>, query_rows = 64 : i64, scale = 1.000000e+00 : f64, scaled_type = f32, score_type = f32} : (tensor<4x8x16xf16>, tensor<4x16x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
// CHECK-NEXT: return %[[O]]
func.func @quantized_i8(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fq = "tosa.const"() <{values = dense<31.75> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fk = "tosa.const"() <{values = dense<63.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fv = "tosa.const"() <{values = dense<15.875> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<127.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<4.96e-4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %dr = "tosa.const"() <{values = dense<2.48e-4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q32 = tosa.cast %q : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %qs = tosa.mul %q32, %fq, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %qc = tosa.clamp %qs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %qc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %k32 = tosa.cast %kt : (tensor<4x16x8xf16>) -> tensor<4x16x8xf32>
  %ks = tosa.mul %k32, %fk, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %kc = tosa.clamp %ks {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %k8 = tosa.cast %kc : (tensor<4x16x8xf32>) -> tensor<4x16x8xi8>
  %s = tosa.matmul %q8, %k8, %zp, %zp : (tensor<4x8x16xi8>, tensor<4x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x8xi32>
  %s32 = tosa.cast %s : (tensor<4x8x8xi32>) -> tensor<4x8x8xf32>
  %sd = tosa.mul %s32, %ds, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %m = tosa.reduce_max %sd {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %sd, %m : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %pc = tosa.clamp %ps {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %pc : (tensor<4x8x8xf32>) -> tensor<4x8x8xi8>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %vc = tosa.clamp %vs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xi8>, tensor<4x8x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x16xi32>
  %o32 = tosa.cast %o : (tensor<4x8x16xi32>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o32, %dr, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// An i8 quantization clamped to [-128, 127]: the kernel's quantization
// clamps to [-127, 127] as prec-quantize does, so nothing is fused.
// CHECK-LABEL: func.func @i8_clamped_to_minus_128
// CHECK-NOT: engine.attention
// CHECK: return
func.func @i8_clamped_to_minus_128(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fq = "tosa.const"() <{values = dense<31.75> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fk = "tosa.const"() <{values = dense<63.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fv = "tosa.const"() <{values = dense<15.875> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<127.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<4.96e-4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q32 = tosa.cast %q : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %qs = tosa.mul %q32, %fq, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %qc = tosa.clamp %qs {max_val = 127.0 : f32, min_val = -128.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %qc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %k32 = tosa.cast %kt : (tensor<4x16x8xf16>) -> tensor<4x16x8xf32>
  %ks = tosa.mul %k32, %fk, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %kc = tosa.clamp %ks {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %k8 = tosa.cast %kc : (tensor<4x16x8xf32>) -> tensor<4x16x8xi8>
  %s = tosa.matmul %q8, %k8, %zp, %zp : (tensor<4x8x16xi8>, tensor<4x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x8xi32>
  %s32 = tosa.cast %s : (tensor<4x8x8xi32>) -> tensor<4x8x8xf32>
  %sd = tosa.mul %s32, %ds, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %m = tosa.reduce_max %sd {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %sd, %m : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %pc = tosa.clamp %ps {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %pc : (tensor<4x8x8xf32>) -> tensor<4x8x8xi8>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %vc = tosa.clamp %vs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xi8>, tensor<4x8x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x16xi32>
  %o32 = tosa.cast %o : (tensor<4x8x16xi32>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o32, %ds, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// f8 with the probabilities' factor above f8E4M3FN's largest value (a
// calibrated maximum of P below 1, here 0.1): exp(x - max) times it would
// saturate, so the kernel quantizes them normalized, as the program does.
// CHECK-LABEL: func.func @quantized_f8_calibrated
// CHECK: quantization = #engine.attention_quantization<type = f8E4M3FN, {{.*}}probabilities = 4.480000e+03 : f32, {{.*}}, normalized = true>
func.func @quantized_f8_calibrated(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>, %mask: tensor<2x1x1x8xf32>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fq = "tosa.const"() <{values = dense<112.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fk = "tosa.const"() <{values = dense<224.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fv = "tosa.const"() <{values = dense<56.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<4480.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<3.98596931E-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %q32 = tosa.cast %q : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %qs = tosa.mul %q32, %fq, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %qs : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  %k32 = tosa.cast %kt : (tensor<4x16x8xf16>) -> tensor<4x16x8xf32>
  %ks = tosa.mul %k32, %fk, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %k8 = tosa.cast %ks : (tensor<4x16x8xf32>) -> tensor<4x16x8xf8E4M3FN>
  %s = tosa.matmul %q8, %k8, %zp, %zp : (tensor<4x8x16xf8E4M3FN>, tensor<4x16x8xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x8x8xf32>
  %sd = tosa.mul %s, %ds, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %sd {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
  %x32 = tosa.cast %x : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x8xf32>
  %y = tosa.add %x32, %mask : (tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %y, %m : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shape3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p3, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %ps : (tensor<4x8x8xf32>) -> tensor<4x8x8xf8E4M3FN>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vs : (tensor<4x8x16xf32>) -> tensor<4x8x16xf8E4M3FN>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xf8E4M3FN>, tensor<4x8x16xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o, %ds, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}

// -----

// Q·Kᵀ in i8 with a zero point of 3 for Q: the kernel quantizes around 0,
// so nothing is fused.
// CHECK-LABEL: func.func @i8_zero_point
// CHECK-NOT: engine.attention
// CHECK: return
func.func @i8_zero_point(%q: tensor<4x8x16xf16>, %kt: tensor<4x16x8xf16>, %v: tensor<4x8x16xf16>) -> (tensor<4x8x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp3 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fq = "tosa.const"() <{values = dense<31.75> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fk = "tosa.const"() <{values = dense<63.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fv = "tosa.const"() <{values = dense<15.875> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fp = "tosa.const"() <{values = dense<127.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ds = "tosa.const"() <{values = dense<4.96e-4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %dr = "tosa.const"() <{values = dense<2.48e-4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q32 = tosa.cast %q : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %qs = tosa.mul %q32, %fq, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %qc = tosa.clamp %qs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %q8 = tosa.cast %qc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %k32 = tosa.cast %kt : (tensor<4x16x8xf16>) -> tensor<4x16x8xf32>
  %ks = tosa.mul %k32, %fk, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %kc = tosa.clamp %ks {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %k8 = tosa.cast %kc : (tensor<4x16x8xf32>) -> tensor<4x16x8xi8>
  %s = tosa.matmul %q8, %k8, %zp3, %zp : (tensor<4x8x16xi8>, tensor<4x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x8xi32>
  %s32 = tosa.cast %s : (tensor<4x8x8xi32>) -> tensor<4x8x8xf32>
  %sd = tosa.mul %s32, %ds, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %m = tosa.reduce_max %sd {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %sd, %m : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %ps = tosa.mul %p, %fp, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %pc = tosa.clamp %ps {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p8 = tosa.cast %pc : (tensor<4x8x8xf32>) -> tensor<4x8x8xi8>
  %v32 = tosa.cast %v : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  %vs = tosa.mul %v32, %fv, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %vc = tosa.clamp %vs {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %v8 = tosa.cast %vc : (tensor<4x8x16xf32>) -> tensor<4x8x16xi8>
  %o = tosa.matmul %p8, %v8, %zp, %zp : (tensor<4x8x8xi8>, tensor<4x8x16xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x8x16xi32>
  %o32 = tosa.cast %o : (tensor<4x8x16xi32>) -> tensor<4x8x16xf32>
  %od = tosa.mul %o32, %dr, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %o16 = tosa.cast %od {precision.epilogue} : (tensor<4x8x16xf32>) -> tensor<4x8x16xf16>
  return %o16 : tensor<4x8x16xf16>
}
