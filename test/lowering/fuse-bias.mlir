// RUN: prec-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(prec-fuse-bias))" | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-lower-to-gpu | FileCheck %s

// An f16 matmul accumulating in f32: its bias is added in f32, then the one
// conversion to f16 (the epilogue cast) follows the add. The sum keeps the
// add's operand order.
// CHECK-LABEL: func.func @linear
// CHECK: %[[ACC:.*]] = tosa.matmul {{.*}} -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[WIDE:.*]] = tosa.cast %arg1 {precision.inserted_cast} : (tensor<1x1x8xf16>) -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = tosa.add %[[WIDE]], %[[ACC]] {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = follow, detail = "added in its contraction's accumulator">, precision.layer = "fc.bias"} : {{.*}} -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[OUT:.*]] = tosa.cast %[[SUM]] {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK-NEXT: return %[[OUT]]
func.func @linear(%x: tensor<1x4x16xf16>, %b: tensor<1x1x8xf16>) -> tensor<1x4x8xf16> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %d = tosa.cast %acc {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %y = tosa.add %b, %d {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>, precision.layer = "fc.bias"} : (tensor<1x1x8xf16>, tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
  return %y : tensor<1x4x8xf16>
}

// -----

// An ONNX Gemm: the product is reshaped to a matrix before the bias. The
// bias becomes a row of the matmul's rank, the add moves before the
// reshape, and the reshape follows the conversion.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[ACC:.*]] = tosa.matmul
// CHECK: %[[ROW:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<1x8xf16>, !tosa.shape<3>) -> tensor<1x1x8xf16>
// CHECK-NEXT: %[[WIDE:.*]] = tosa.cast %[[ROW]] {{.*}} -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = tosa.add %[[ACC]], %[[WIDE]]
// CHECK-NEXT: %[[D:.*]] = tosa.cast %[[SUM]] {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK-NEXT: %[[Y:.*]] = tosa.reshape %[[D]], %{{.*}} -> tensor<4x8xf16>
// CHECK-NEXT: return %[[Y]]
func.func @gemm(%x: tensor<1x4x16xf16>, %b: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %s = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %d = tosa.cast %acc {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %m = tosa.reshape %d, %s : (tensor<1x4x8xf16>, !tosa.shape<2>) -> tensor<4x8xf16>
  %y = tosa.add %m, %b : (tensor<4x8xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// Stored in f32, a Gemm's bias moves before the reshape all the same, so
// that the sum has one form at every precision; nothing is converted.
// CHECK-LABEL: func.func @gemm_f32
// CHECK: %[[ACC:.*]] = tosa.matmul
// CHECK-NEXT: %[[ROW:.*]] = tosa.const_shape {values = dense<[1, 1, 8]>
// CHECK-NEXT: %[[BIAS:.*]] = tosa.reshape %arg1, %[[ROW]] : (tensor<1x8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = tosa.add %[[ACC]], %[[BIAS]] : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = tosa.reshape %[[SUM]], %{{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gemm_f32(%x: tensor<1x4x16xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x16x8xf32>}> : () -> tensor<1x16x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %m = tosa.reshape %acc, %s : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %y = tosa.add %m, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A 2-D MatMul in f32 whose Add runs in f16 (a cast prec inserted after the
// reshape): nothing fuses, but the add moves before the reshape, converting
// the same way, so that the Add layer has one form at every precision.
// CHECK-LABEL: func.func @matmul_then_lower_add
// CHECK: %[[ACC:.*]] = tosa.matmul {{.*}} -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[LOW:.*]] = tosa.cast %[[ACC]] {precision.inserted_cast} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK-NEXT: %[[ROW:.*]] = tosa.const_shape {values = dense<[1, 1, 8]>
// CHECK-NEXT: %[[BIAS:.*]] = tosa.reshape %arg1, %[[ROW]] : (tensor<1x8xf16>, !tosa.shape<3>) -> tensor<1x1x8xf16>
// CHECK-NEXT: %[[SUM:.*]] = tosa.add %[[BIAS]], %[[LOW]] {precision.layer = "fc/Add"} : (tensor<1x1x8xf16>, tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
// CHECK-NEXT: %[[Y:.*]] = tosa.reshape %[[SUM]], %{{.*}} -> tensor<4x8xf16>
// CHECK-NEXT: return %[[Y]]
func.func @matmul_then_lower_add(%x: tensor<1x4x16xf32>, %b: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x16x8xf32>}> : () -> tensor<1x16x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %m = tosa.reshape %acc, %s : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %l = tosa.cast %m {precision.inserted_cast} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %y = tosa.add %b, %l {precision.layer = "fc/Add"} : (tensor<1x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// An i8 Gemm: its i32 product dequantized (converted, scaled), stored f16,
// and converted to f32 before the reshape (which moves data of a layer
// pinned to i8, so in f32). Nothing fuses in an i32 accumulator, but the
// add moves before the reshape, as at the other precisions.
// CHECK-LABEL: func.func @gemm_i8
// CHECK: %[[STORED:.*]] = tosa.cast %{{.*}} {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK-NEXT: %[[WIDE:.*]] = tosa.cast %[[STORED]] {precision.inserted_cast} : (tensor<1x4x8xf16>) -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[ROW:.*]] = tosa.const_shape {values = dense<[1, 1, 8]>
// CHECK-NEXT: %[[BIAS:.*]] = tosa.reshape %arg1, %[[ROW]] : (tensor<1x8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = tosa.add %[[WIDE]], %[[BIAS]] : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = tosa.reshape %[[SUM]], %{{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @gemm_i8(%x: tensor<1x4x16xi8>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %w = "tosa.const"() <{values = dense<1> : tensor<1x16x8xi8>}> : () -> tensor<1x16x8xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.01> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xi8>, tensor<1x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f = tosa.cast %acc : (tensor<1x4x8xi32>) -> tensor<1x4x8xf32>
  %d = tosa.mul %f, %scale, %shift : (tensor<1x4x8xf32>, tensor<1x1x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
  %e = tosa.cast %d {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %wide = tosa.cast %e {precision.inserted_cast} : (tensor<1x4x8xf16>) -> tensor<1x4x8xf32>
  %m = tosa.reshape %wide, %s : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %y = tosa.add %m, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Left alone: a bias that varies along the rows, a product read twice, an
// f16 accumulator (no epilogue cast), and an add of two full tensors.
// CHECK-LABEL: func.func @not_a_bias
// CHECK: %[[D:.*]] = tosa.cast %{{.*}} {precision.epilogue}
// CHECK-NEXT: tosa.add %[[D]], %arg1 : (tensor<1x4x8xf16>, tensor<1x4x1xf16>)
// CHECK: %[[D2:.*]] = tosa.cast %{{.*}} {precision.epilogue}
// CHECK-NEXT: tosa.add %[[D2]], %arg2
// CHECK-NEXT: tosa.add %[[D2]], %arg1
// CHECK: %[[H:.*]] = tosa.matmul {{.*}} -> tensor<1x4x8xf16>
// CHECK-NEXT: tosa.add %[[H]], %arg2
// CHECK: %[[D3:.*]] = tosa.cast %{{.*}} {precision.epilogue}
// CHECK-NEXT: tosa.add %[[D3]], %[[D3]]
func.func @not_a_bias(%x: tensor<1x4x16xf16>, %column: tensor<1x4x1xf16>, %b: tensor<1x1x8xf16>)
    -> (tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>) {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %acc = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %d = tosa.cast %acc {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %y1 = tosa.add %d, %column : (tensor<1x4x8xf16>, tensor<1x4x1xf16>) -> tensor<1x4x8xf16>
  // Distinct weights: the GPU pipeline would merge equal matmuls.
  %w2 = "tosa.const"() <{values = dense<2.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %w3 = "tosa.const"() <{values = dense<3.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %w4 = "tosa.const"() <{values = dense<4.0> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %acc2 = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %d2 = tosa.cast %acc2 {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %y2 = tosa.add %d2, %b : (tensor<1x4x8xf16>, tensor<1x1x8xf16>) -> tensor<1x4x8xf16>
  %y3 = tosa.add %d2, %column : (tensor<1x4x8xf16>, tensor<1x4x1xf16>) -> tensor<1x4x8xf16>
  %h = tosa.matmul %x, %w3, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf16>
  %y4 = tosa.add %h, %b : (tensor<1x4x8xf16>, tensor<1x1x8xf16>) -> tensor<1x4x8xf16>
  %acc3 = tosa.matmul %x, %w4, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %d3 = tosa.cast %acc3 {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %y5 = tosa.add %d3, %d3 : (tensor<1x4x8xf16>, tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
  return %y1, %y2, %y3, %y4, %y5 : tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>
}
