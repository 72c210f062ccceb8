// Casting semantics (TRTorch's tensor and layer casting, torch2trt's
// bindings) through the whole prec-legalize pipeline.
// RUN: prec-opt %s -split-input-file --prec-legalize="enabled=f16" | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-legalize | FileCheck %s --check-prefix=F32

// Tensor casting: casts the model asked for are kept, and the ops after
// them follow their types (f16 only where f16 is enabled).
// CHECK-LABEL: func.func @explicit_casts_are_kept
// CHECK: %[[H:.*]] = precision.cast %arg0 {{.*}}: tensor<4xf32> to tensor<4xf16>
// CHECK: %[[A:.*]] = tosa.add %[[H]], %[[H]] {{.*}}compute = f16{{.*}}reason = follow
// CHECK: %[[W:.*]] = precision.cast %[[A]] {{.*}}: tensor<4xf16> to tensor<4xf32>
// CHECK: %[[B:.*]] = tosa.add %[[W]], %[[W]] {{.*}}compute = f32{{.*}}reason = follow
// CHECK: return %[[B]]
// F32-LABEL: func.func @explicit_casts_are_kept
// F32: %[[H:.*]] = precision.cast %arg0 {{.*}}: tensor<4xf32> to tensor<4xf16>
// F32: %[[H32:.*]] = tosa.cast %[[H]] {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// F32: %[[A:.*]] = tosa.add %[[H32]], %[[H32]] {{.*}}compute = f32
// F32: %[[A16:.*]] = tosa.cast %[[A]] {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// F32: precision.cast %[[A16]] {{.*}}: tensor<4xf16> to tensor<4xf32>
func.func @explicit_casts_are_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h = precision.cast %x : tensor<4xf32> to tensor<4xf16>
  %a = tosa.add %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %w = precision.cast %a : tensor<4xf16> to tensor<4xf32>
  %b = tosa.add %w, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Bindings keep their types: an f32 and an f16 binding in, f32 and f16
// out, whatever runs inside.
// CHECK-LABEL: func.func @bindings_keep_their_types
// CHECK-SAME: (%arg0: tensor<4xf32>, %arg1: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>)
// CHECK: %[[X16:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[S:.*]] = tosa.add %[[X16]], %[[X16]] {{.*}}compute = f16{{.*}}reason = inputs
// CHECK: %[[S32:.*]] = tosa.cast %[[S]] {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[T:.*]] = tosa.mul %arg1, %arg1, {{.*}}compute = f16{{.*}}reason = inputs
// CHECK: return %[[S32]], %[[T]] : tensor<4xf32>, tensor<4xf16>
// F32-LABEL: func.func @bindings_keep_their_types
// F32: %[[H32:.*]] = tosa.cast %arg1 {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// F32: %[[T:.*]] = tosa.mul %[[H32]], %[[H32]], {{.*}}compute = f32
// F32: %[[T16:.*]] = tosa.cast %[[T]] {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// F32: return %{{.*}}, %[[T16]] : tensor<4xf32>, tensor<4xf16>
func.func @bindings_keep_their_types(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = tosa.mul %h, %h, %shift : (tensor<4xf16>, tensor<4xf16>, tensor<1xi8>) -> tensor<4xf16>
  return %s, %t : tensor<4xf32>, tensor<4xf16>
}

// -----

// Layer casting: a conv whose weights are f16 computes in f16 even where
// the compiler may not choose f16 itself; the weights stay f16 (the cast of
// them folds away). The conv stores f32, its consumer's type, straight from
// its f32 accumulator.
// F32-LABEL: func.func @f16_weights_make_an_f16_layer
// F32: %[[X16:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf16>
// F32: %[[W:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<2x1x1x2xf16>}>
// F32: %[[Y:.*]] = tosa.conv2d %[[X16]], %[[W]], {{.*}}compute = f16, accumulate = f32, storage = f32, reason = weights{{.*}} : (tensor<1x4x4x2xf16>, tensor<2x1x1x2xf16>, tensor<2xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf32>
// F32-NEXT: tosa.abs %[[Y]] {{.*}}compute = f32
// F32-NOT: tosa.cast
func.func @f16_weights_make_an_f16_layer(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w16 = "tosa.const"() <{values = dense<[[[[0.5, -1.0]]], [[[2.0, 0.25]]]]> : tensor<2x1x1x2xf16>}> : () -> tensor<2x1x1x2xf16>
  %w = tosa.cast %w16 : (tensor<2x1x1x2xf16>) -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %z = tosa.abs %y : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %z : tensor<1x4x4x2xf32>
}

// -----

// One cast per (value, type), shared by every user.
// CHECK-LABEL: func.func @one_cast_per_value_and_type
// CHECK-COUNT-1: tosa.cast %arg0
// CHECK-NOT: tosa.cast %arg0
func.func @one_cast_per_value_and_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %c = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.maximum %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
