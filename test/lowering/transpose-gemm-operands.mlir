// prec-transpose-gemm-operands on its own: an i8 or f8 matmul whose B is
// neither a constant nor a transpose (perms 0, 2, 1) reads it through a
// transpose of a transpose; every other matmul stays as it is.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-transpose-gemm-operands))' | FileCheck %s

// An i8 attention's values: [batch, K, N] transposed to [batch, N, K] by
// the inner transpose, read back by the GEMM through the outer one.
// CHECK-LABEL: func.func @i8_values
// CHECK-SAME: (%[[P:.*]]: tensor<2x8x16xi8>, %[[V:.*]]: tensor<2x16x4xi8>)
// CHECK: %[[T:.*]] = tosa.transpose %[[V]] {perms = array<i32: 0, 2, 1>} : (tensor<2x16x4xi8>) -> tensor<2x4x16xi8>
// CHECK-NEXT: %[[B:.*]] = tosa.transpose %[[T]] {perms = array<i32: 0, 2, 1>} : (tensor<2x4x16xi8>) -> tensor<2x16x4xi8>
// CHECK-NEXT: tosa.matmul %[[P]], %[[B]]
func.func @i8_values(%p: tensor<2x8x16xi8>, %v: tensor<2x16x4xi8>) -> tensor<2x8x4xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x16xi8>, tensor<2x16x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8x4xi32>
  return %c : tensor<2x8x4xi32>
}

// -----

// f8 keys behind a reshape (as exporters split heads) get the same.
// CHECK-LABEL: func.func @f8_reshaped_keys
// CHECK: %[[R:.*]] = tosa.reshape
// CHECK: %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 0, 2, 1>} : (tensor<2x16x8xf8E4M3FN>) -> tensor<2x8x16xf8E4M3FN>
// CHECK-NEXT: %[[B:.*]] = tosa.transpose %[[T]] {perms = array<i32: 0, 2, 1>}
// CHECK-NEXT: tosa.matmul %{{.*}}, %[[B]]
func.func @f8_reshaped_keys(%q: tensor<2x4x16xf8E4M3FN>, %k: tensor<1x2x16x8xf8E4M3FN>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %s = tosa.const_shape {values = dense<[2, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.reshape %k, %s : (tensor<1x2x16x8xf8E4M3FN>, !tosa.shape<3>) -> tensor<2x16x8xf8E4M3FN>
  %c = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x16xf8E4M3FN>, tensor<2x16x8xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<2x4x8xf32>
  return %c : tensor<2x4x8xf32>
}

// -----

// Left alone: an i8 B that is a transpose (perms 0, 2, 1) already, an i8
// constant B (stored transposed later), and an f16 matmul.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: tosa.transpose
// CHECK-NOT: tosa.transpose
func.func @left_alone(%a: tensor<1x8x16xi8>, %bt: tensor<1x4x16xi8>, %h: tensor<1x8x16xf16>, %hb: tensor<1x16x4xf16>) -> (tensor<1x8x4xi32>, tensor<1x8x4xi32>, tensor<1x8x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %hzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %w = "tosa.const"() <{values = dense<1> : tensor<1x16x4xi8>}> : () -> tensor<1x16x4xi8>
  %b = tosa.transpose %bt {perms = array<i32: 0, 2, 1>} : (tensor<1x4x16xi8>) -> tensor<1x16x4xi8>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x8x16xi8>, tensor<1x16x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4xi32>
  %d = tosa.matmul %a, %w, %zp, %zp : (tensor<1x8x16xi8>, tensor<1x16x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4xi32>
  %e = tosa.matmul %h, %hb, %hzp, %hzp : (tensor<1x8x16xf16>, tensor<1x16x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x4xf32>
  return %c, %d, %e : tensor<1x8x4xi32>, tensor<1x8x4xi32>, tensor<1x8x4xf32>
}
