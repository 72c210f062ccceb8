// The op-class rules of weak typing, and strong typing.
// RUN: prec-opt %s -split-input-file --prec-annotate="enabled=f16,bf16 layer-output-types=Out:f32" --prec-propagate | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-annotate="enabled=bf16" --prec-propagate | FileCheck %s --check-prefix=BF16
// RUN: prec-opt %s -split-input-file --prec-annotate="typing=strong enabled=f16" --prec-propagate | FileCheck %s --check-prefix=STRONG

// CHECK-LABEL: func.func @classes
// BF16-LABEL: func.func @classes
// STRONG-LABEL: func.func @classes
func.func @classes(%a: tensor<1x4x300xf32>, %b: tensor<1x300x4xf32>) -> (tensor<1x4x1xf32>, tensor<1x4x4xf32>, tensor<1x1x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // Contractions take the lowest enabled precision, accumulating in f32.
  // CHECK: tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f16, reason = class_rule
  // BF16: tosa.matmul {{.*}}compute = bf16, accumulate = f32, storage = bf16, reason = class_rule
  // STRONG: tosa.matmul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = strong
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x300xf32>, tensor<1x300x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // Elementwise ops follow their producer.
  // CHECK: tosa.abs {{.*}}compute = f16, accumulate = f16, storage = f16, reason = follow
  // BF16: tosa.abs {{.*}}compute = bf16{{.*}}reason = follow
  %r = tosa.abs %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // Sensitive ops stay f32.
  // CHECK: tosa.exp {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  %e = tosa.exp %r : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // A short sum follows (f32 after exp)...
  // CHECK: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  // ...a long one (300 >= 256 elements) is sensitive.
  // CHECK: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  %l = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<1x4x300xf32>) -> tensor<1x4x1xf32>
  // Data movement follows too; a requested output type sets storage only.
  // CHECK: tosa.transpose {{.*}}compute = f16, accumulate = f16, storage = f32, reason = follow
  // STRONG: tosa.transpose {{.*}}compute = f32{{.*}}reason = strong
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1>} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32> loc("Out")
  return %l, %t, %s : tensor<1x4x1xf32>, tensor<1x4x4xf32>, tensor<1x1x4xf32>
}

// -----

// CHECK-LABEL: func.func @follow_and_inputs
// BF16-LABEL: func.func @follow_and_inputs
// STRONG-LABEL: func.func @follow_and_inputs
func.func @follow_and_inputs(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  // Fed only by a binding and a constant: the lowest enabled precision.
  // CHECK: tosa.add %arg0, {{.*}}compute = f16{{.*}}reason = inputs
  // BF16: tosa.add %arg0, {{.*}}compute = bf16{{.*}}reason = inputs
  // STRONG: tosa.add %arg0, {{.*}}compute = f32{{.*}}reason = strong
  %a = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = precision.region bf16 (%in = %a : tensor<4xf32>) -> tensor<4xf32> {
    %n = tosa.abs %in : (tensor<4xf32>) -> tensor<4xf32>
    precision.yield %n : tensor<4xf32>
  }
  // Producers in f16 and bf16 join to f32 (neither holds the other).
  // CHECK: tosa.maximum {{.*}}compute = f32{{.*}}reason = follow
  %j = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Strong typing honours the IR's f16.
  // STRONG: tosa.abs %arg1 {{.*}}compute = f16, accumulate = f16, storage = f16, reason = strong
  %k = tosa.abs %h : (tensor<4xf16>) -> tensor<4xf16>
  return %j, %k : tensor<4xf32>, tensor<4xf16>
}

// -----

// i8 regions accumulate in i32.
// CHECK-LABEL: func.func @int8_accumulates_in_i32
// CHECK: tosa.matmul {{.*}}compute = i8, accumulate = i32, storage = i8, reason = region
func.func @int8_accumulates_in_i32(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
  %r = precision.region i8 input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    precision.yield %m : tensor<1x4x4xf32>
  }
  return %r : tensor<1x4x4xf32>
}
