// prec-square-powers on its own: pow(x, 2) becomes x * x with the pow's
// attributes; other exponents, and a base the exponent broadcasts, keep
// their pow.
// RUN: prec-opt %s --prec-square-powers | FileCheck %s

// CHECK-LABEL: func.func @square
// CHECK: %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK: %[[Y:.*]] = tosa.mul %arg0, %arg0, %[[SHIFT]] {precision.layer = "norm/Pow"} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
// CHECK-NOT: tosa.pow
// CHECK: return %[[Y]]
func.func @square(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %y = tosa.pow %x, %two {precision.layer = "norm/Pow"} : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @square_f16
// CHECK: tosa.mul %arg0, %arg0
func.func @square_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %y = tosa.pow %x, %two : (tensor<4x8xf16>, tensor<1x1xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: tosa.pow
// CHECK-NOT: tosa.mul
func.func @kept(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>, %row: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %three = "tosa.const"() <{values = dense<3.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %cube = tosa.pow %x, %three : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %any = tosa.pow %x, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  %broadcast = tosa.pow %row, %two : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %cube, %any, %broadcast : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
