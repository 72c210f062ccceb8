// prec-drop-saturated-bounds on its own: a float clamp read only by casts
// to an integer type that saturates at or below its upper bound loses that
// bound (+inf); other clamps keep theirs.
// RUN: prec-opt %s --prec-drop-saturated-bounds | FileCheck %s

// CHECK-LABEL: func.func @quantize
// CHECK: tosa.clamp %arg0 {max_val = 0x7F800000 : f32, min_val = -1.270000e+02 : f32}
// A bound past 127 is saturated too; an f16 clamp gets f16's +inf.
// CHECK: tosa.clamp %arg0 {max_val = 0x7F800000 : f32, min_val = -1.280000e+02 : f32}
// CHECK: tosa.clamp %arg1 {max_val = 0x7C00 : f16, min_val = -1.270000e+02 : f16}
func.func @quantize(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) {
  %c = tosa.clamp %x {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %q = tosa.cast %c : (tensor<4xf32>) -> tensor<4xi8>
  %w = tosa.clamp %x {max_val = 300.0 : f32, min_val = -128.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %r = tosa.cast %w : (tensor<4xf32>) -> tensor<4xi8>
  %hc = tosa.clamp %h {max_val = 127.0 : f16, min_val = -127.0 : f16} : (tensor<4xf16>) -> tensor<4xf16>
  %hq = tosa.cast %hc : (tensor<4xf16>) -> tensor<4xi8>
  return %q, %r, %hq : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>
}

// A bound below the integer's largest value (6 for i8, 127 for i32; i32's
// 2^31 - 1 rounds up to 2^31 in f32, above 2147483520, and past f16's
// largest finite), a reader other than a cast to an integer, or a cast to
// a float keeps it.
// CHECK-LABEL: func.func @kept
// CHECK: tosa.clamp %arg0 {max_val = 2.14748352E+9 : f32, min_val = 0.000000e+00 : f32}
// CHECK: tosa.clamp %arg1 {max_val = 6.550400e+04 : f16, min_val = 0.000000e+00 : f16}
// CHECK: tosa.clamp %arg0 {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// CHECK: tosa.clamp %arg0 {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32}
// CHECK: tosa.clamp %arg0 {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32}
// CHECK: tosa.clamp %arg0 {max_val = 1.270000e+02 : f32, min_val = -1.270000e+02 : f32}
func.func @kept(%x: tensor<4xf32>, %hx: tensor<4xf16>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi32>, tensor<4xi8>, tensor<4xf32>, tensor<4xf16>) {
  %c31 = tosa.clamp %x {max_val = 2147483520.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %i31 = tosa.cast %c31 : (tensor<4xf32>) -> tensor<4xi32>
  %ch = tosa.clamp %hx {max_val = 65504.0 : f16, min_val = 0.0 : f16} : (tensor<4xf16>) -> tensor<4xf16>
  %ih = tosa.cast %ch : (tensor<4xf16>) -> tensor<4xi32>
  %c6 = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %q6 = tosa.cast %c6 : (tensor<4xf32>) -> tensor<4xi8>
  %c = tosa.clamp %x {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %i = tosa.cast %c : (tensor<4xf32>) -> tensor<4xi32>
  %d = tosa.clamp %x {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %q = tosa.cast %d : (tensor<4xf32>) -> tensor<4xi8>
  %e = tosa.clamp %x {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %h = tosa.cast %e : (tensor<4xf32>) -> tensor<4xf16>
  return %i31, %ih, %q6, %i, %q, %d, %h : tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi32>, tensor<4xi8>, tensor<4xf32>, tensor<4xf16>
}
