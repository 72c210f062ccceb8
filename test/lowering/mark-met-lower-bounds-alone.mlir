// prec-mark-met-lower-bounds on its own: a float clamp the engine computes
// gets engine.met_lower_bound where its lower bound is at most 0 and its
// input is proven a number (never NaN) at or above 0: a ReLU the engine
// computes (its fmaxf drops NaN), then float casts, scales by positive
// finite constants, sums, max pools, pads and moves.
// RUN: prec-opt %s -split-input-file --prec-mark-met-lower-bounds | FileCheck %s

// A quantization after a ReLU (in f16, cast to f32, scaled by 127): the
// quantization's clamp is met, the ReLU's (of an input) is not.
// CHECK-LABEL: func.func @relu_then_quantize
// CHECK: %[[RELU:.*]] = tosa.clamp %arg0 {engine.kernel = #engine.kernel<0, fused>, max_val
// CHECK: tosa.clamp %{{.*}} {engine.kernel = #engine.kernel<0, fused>, engine.met_lower_bound = unit, max_val = 0x7F800000 : f32, min_val = -1.270000e+02 : f32}
func.func @relu_then_quantize(%x: tensor<4x8xf16>) -> tensor<4x8xi8> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<127.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %r = tosa.clamp %x {engine.kernel = #engine.kernel<0, fused>, max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %w = tosa.cast %r {engine.kernel = #engine.kernel<0, fused>} : (tensor<4x8xf16>) -> tensor<4x8xf32>
  %s = tosa.mul %w, %scale, %shift {engine.kernel = #engine.kernel<0, fused>} : (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %c = tosa.clamp %s {engine.kernel = #engine.kernel<0, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = tosa.cast %c {engine.kernel = #engine.kernel<0, fused>} : (tensor<4x8xf32>) -> tensor<4x8xi8>
  return %q : tensor<4x8xi8>
}

// -----

// A residual sum of two ReLUs, max-pooled, reshaped, transposed, padded with
// 0, concatenated with itself and sliced: still met, as is a ReLU6 of it
// (lower bound +0).
// CHECK-LABEL: func.func @sum_pool_moves
// CHECK: tosa.clamp %{{.*}} {engine.kernel = #engine.kernel<5, single>, engine.met_lower_bound = unit, max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
func.func @sum_pool_moves(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x8xf32>) -> tensor<8x16xf32> {
  %a = tosa.clamp %x {engine.kernel = #engine.kernel<0, fused>, max_val = 0x7F800000 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %b = tosa.clamp %y {engine.kernel = #engine.kernel<0, fused>, max_val = 0x7F800000 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %s = tosa.add %a, %b {engine.kernel = #engine.kernel<0, fused>} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %p = tosa.max_pool2d %s {engine.kernel = #engine.kernel<1, single>, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>) -> tensor<1x3x3x8xf32>
  %shape = tosa.const_shape {values = dense<[9, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v = tosa.reshape %p, %shape : (tensor<1x3x3x8xf32>, !tosa.shape<2>) -> tensor<9x8xf32>
  %t = tosa.transpose %v {engine.kernel = #engine.kernel<2, single>, perms = array<i32: 1, 0>} : (tensor<9x8xf32>) -> tensor<8x9xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %padded = tosa.pad %t, %padding, %zero {engine.kernel = #engine.kernel<3, single>} : (tensor<8x9xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<8x10xf32>
  %cat = tosa.concat %padded, %padded {axis = 1 : i32, engine.kernel = #engine.kernel<4, single>} : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x20xf32>
  %start = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %slice = tosa.slice %cat, %start, %size {engine.kernel = #engine.kernel<5, single>} : (tensor<8x20xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x16xf32>
  %c = tosa.clamp %slice {engine.kernel = #engine.kernel<5, single>, max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

// Not proven: a scale of 0 (0 times +inf is NaN), a negative or varying
// scale, a difference, a pad of -1, a value through f8E4M3FN (no infinity
// for a value beyond its range to become), a ReLU in a cuDNN epilogue (its
// NaN handling is the library's) or on no kernel. A lower bound above 0 is
// not met by values at or above 0, nor -0 (fmaxf(+0, -0) may be -0); a
// clamp on no kernel is not the engine's; a mark an earlier plan left where
// none is proven goes.
// CHECK-LABEL: func.func @not_met
// CHECK-NOT: engine.met_lower_bound
// CHECK: return
func.func @not_met(%x: tensor<4xf32>, %y: tensor<4xf32>, %img: tensor<1x4x4x8xf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>, tensor<1x4x4x4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %negative = "tosa.const"() <{values = dense<-2.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.clamp %x {engine.kernel = #engine.kernel<0, fused>, max_val = 0x7F800000 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %s0 = tosa.mul %r, %zero, %shift {engine.kernel = #engine.kernel<1, fused>} : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %c0 = tosa.clamp %s0 {engine.kernel = #engine.kernel<1, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %s1 = tosa.mul %r, %negative, %shift {engine.kernel = #engine.kernel<2, fused>} : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %c1 = tosa.clamp %s1 {engine.kernel = #engine.kernel<2, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %s2 = tosa.mul %r, %y, %shift {engine.kernel = #engine.kernel<3, fused>} : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %c2 = tosa.clamp %s2 {engine.kernel = #engine.kernel<3, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.sub %r, %r {engine.kernel = #engine.kernel<4, fused>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c3 = tosa.clamp %d {engine.kernel = #engine.kernel<4, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %padding = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m1 = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %r, %padding, %m1 {engine.kernel = #engine.kernel<5, single>} : (tensor<4xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<5xf32>
  %c4 = tosa.clamp %p {engine.kernel = #engine.kernel<6, single>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<5xf32>) -> tensor<5xf32>
  %f8 = tosa.cast %r {engine.kernel = #engine.kernel<7, fused>} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %back = tosa.cast %f8 {engine.kernel = #engine.kernel<7, fused>} : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %c5 = tosa.clamp %back {engine.kernel = #engine.kernel<7, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %wc = "tosa.const"() <{values = dense<0.5> : tensor<4x1x1x8xf16>}> : () -> tensor<4x1x1x8xf16>
  %bc = "tosa.const"() <{values = dense<0.0> : tensor<4xf16>}> : () -> tensor<4xf16>
  %cv = tosa.conv2d %img, %wc, %bc, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<cudnn>, engine.epilogue = #engine.epilogue<relu>, engine.kernel = #engine.kernel<8, contraction>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<4x1x1x8xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x4xf16>
  %lr = tosa.clamp %cv {engine.kernel = #engine.kernel<8, contraction>, max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %c6 = tosa.clamp %lr {engine.kernel = #engine.kernel<9, fused>, max_val = 0x7C00 : f16, min_val = -127.0 : f16} : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %u = tosa.clamp %y {max_val = 0x7F800000 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c7 = tosa.clamp %u {engine.kernel = #engine.kernel<10, fused>, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c8 = tosa.clamp %r {engine.kernel = #engine.kernel<11, fused>, max_val = 0x7F800000 : f32, min_val = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c9 = tosa.clamp %r {max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c10 = tosa.clamp %r {engine.kernel = #engine.kernel<12, fused>, max_val = 0x7F800000 : f32, min_val = -0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c11 = tosa.clamp %y {engine.kernel = #engine.kernel<13, fused>, engine.met_lower_bound = unit, max_val = 0x7F800000 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>, tensor<1x4x4x4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
