// prec-merge-layer-duplicates on its own: pure ops equal but for their
// names and the range analysis' notes are computed once; an op whose
// assigned types or other attributes differ stays.
// RUN: prec-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(prec-merge-layer-duplicates))' | FileCheck %s

// Two layers' causal masks from one condition: one select and one cast,
// with the first layer's names; both attentions' adds read them.
// CHECK-LABEL: func.func @layer_masks
// CHECK: %[[SELECT:.*]] = tosa.select {{.*}}precision.layer = "layers.0/Where"
// CHECK-NEXT: %[[CAST:.*]] = tosa.cast %[[SELECT]] {{.*}}precision.layer = "layers.0/Cast"
// CHECK-NOT: tosa.select
// CHECK-NOT: tosa.cast
// CHECK: tosa.add %arg1, %[[CAST]]
// CHECK: tosa.add %arg2, %[[CAST]]
func.func @layer_masks(%c: tensor<1x1x4x4xi1>, %s0: tensor<1x2x4x4xf32>, %s1: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %lowest = "tosa.const"() <{values = dense<-65504.0> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %m0 = tosa.select %c, %zero, %lowest {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>, precision.layer = "layers.0/Where", precision.range = array<f64: -65504.0, 0.0>, precision.tensor = "layers.0/Where_output_0"} : (tensor<1x1x4x4xi1>, tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>) -> tensor<1x1x4x4xf16>
  %w0 = tosa.cast %m0 {precision.layer = "layers.0/Cast"} : (tensor<1x1x4x4xf16>) -> tensor<1x1x4x4xf32>
  %a0 = tosa.add %s0, %w0 : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %m1 = tosa.select %c, %zero, %lowest {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.layer = "layers.1/Where", precision.observed_range = array<f64: -65504.0, 0.0>, precision.tensor = "layers.1/Where_output_0"} : (tensor<1x1x4x4xi1>, tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>) -> tensor<1x1x4x4xf16>
  %w1 = tosa.cast %m1 {precision.layer = "layers.1/Cast"} : (tensor<1x1x4x4xf16>) -> tensor<1x1x4x4xf32>
  %a1 = tosa.add %s1, %w1 : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %a0, %a1 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// What stays: matmuls assigned different accumulators, and a cast that is a
// GEMM's epilogue next to one that is not.
// CHECK-LABEL: func.func @different
// CHECK-COUNT-2: tosa.matmul
// CHECK-COUNT-2: tosa.cast
func.func @different(%x: tensor<1x4x8xf16>, %w: tensor<1x8x4xf16>, %z: tensor<1xf16>, %y: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf16>, tensor<1x4x4xf16>) {
  %p0 = tosa.matmul %x, %w, %z, %z {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = follow>} : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %p1 = tosa.matmul %x, %w, %z, %z {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f32, reason = follow>} : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %c0 = tosa.cast %y {precision.epilogue} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %c1 = tosa.cast %y : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  return %p0, %p1, %c0, %c1 : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf16>, tensor<1x4x4xf16>
}
