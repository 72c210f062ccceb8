// RUN: prec-opt %s | prec-opt | FileCheck %s
// RUN: prec-opt %s --mlir-print-op-generic | prec-opt | FileCheck %s

// Round trip of every op, clause and attribute of the precision dialect.

// CHECK: module attributes {precision.policy = #precision.policy<typing = strong, enabled = [f16, bf16, i8, f8E4M3FN, f8E5M2], constraints = obey, target = "sm_90a">}
module attributes {precision.policy = #precision.policy<target = "sm_90a", constraints = obey, enabled = [f16, bf16, i8, f8E4M3FN, f8E5M2], typing = strong>} {

// CHECK-LABEL: func.func @region_all_float_clauses
// CHECK: precision.region f16 obey accumulate f32 output f32 (%{{.*}} = %{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK:   tosa.add
// CHECK:   precision.yield %{{.*}} : tensor<4x8xf32>
// CHECK: }
func.func @region_all_float_clauses(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = precision.region f16 obey accumulate f32 output f32 (%a = %x : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %y = tosa.add %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    precision.yield %y : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @region_modes
// CHECK: precision.region bf16 prefer (
// CHECK: precision.region f32 none (
// CHECK: precision.region f16 (
func.func @region_modes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = precision.region bf16 prefer (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    precision.yield %a : tensor<4xf32>
  }
  %1 = precision.region f32 none (%a = %0 : tensor<4xf32>) -> tensor<4xf32> {
    precision.yield %a : tensor<4xf32>
  }
  %2 = precision.region f16 (%a = %1 : tensor<4xf32>) -> tensor<4xf32> {
    precision.yield %a : tensor<4xf32>
  }
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @region_int8_dynamic_ranges
// CHECK: precision.region i8 obey output f16 input_range [-6.000000e+00, 6.000000e+00] output_range [-1.250000e-01, 4.000000e+00] (
func.func @region_int8_dynamic_ranges(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %r = precision.region i8 obey output f16 input_range [-6.0, 6.0] output_range [-0.125, 4.0] (%a = %x : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
    precision.yield %a : tensor<1x3x8x8xf32>
  }
  return %r : tensor<1x3x8x8xf32>
}

// CHECK-LABEL: func.func @region_fp8
// CHECK: precision.region f8E4M3FN prefer accumulate f16 input_range [0.000000e+00, 4.480000e+02] output_range [-1.000000e+00, 1.000000e+00] (
// CHECK: precision.region f8E5M2 accumulate bf16 (
func.func @region_fp8(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = precision.region f8E4M3FN prefer accumulate f16 input_range [0.0, 448.0] output_range [-1.0, 1.0] (%a = %x : tensor<16xf32>) -> tensor<16xf32> {
    precision.yield %a : tensor<16xf32>
  }
  %1 = precision.region f8E5M2 accumulate bf16 (%a = %0 : tensor<16xf32>) -> tensor<16xf32> {
    precision.yield %a : tensor<16xf32>
  }
  return %1 : tensor<16xf32>
}

// Several operands and results, nesting, no results, extra attributes.
// CHECK-LABEL: func.func @region_structure
// CHECK: %[[R:.*]]:2 = precision.region f16 (%[[A:.*]] = %{{.*}} : tensor<2xf32>, %[[B:.*]] = %{{.*}} : tensor<2xf16>) -> (tensor<2xf32>, tensor<2xf16>) {
// CHECK:   precision.region f32 obey (%{{.*}} = %[[A]] : tensor<2xf32>) -> tensor<2xf32> {
// CHECK:   precision.yield %{{.*}}, %[[B]] : tensor<2xf32>, tensor<2xf16>
// CHECK: } attributes {name = "block1"}
// CHECK: precision.region bf16 () {
// CHECK-NEXT: precision.yield
// CHECK-NEXT: }
func.func @region_structure(%x: tensor<2xf32>, %h: tensor<2xf16>) -> (tensor<2xf32>, tensor<2xf16>) {
  %r:2 = precision.region f16 (%a = %x : tensor<2xf32>, %b = %h : tensor<2xf16>) -> (tensor<2xf32>, tensor<2xf16>) {
    %inner = precision.region f32 obey (%c = %a : tensor<2xf32>) -> tensor<2xf32> {
      precision.yield %c : tensor<2xf32>
    }
    precision.yield %inner, %b : tensor<2xf32>, tensor<2xf16>
  } attributes {name = "block1"}
  precision.region bf16 () {
    precision.yield
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf16>
}

// CHECK-LABEL: func.func @casts
// CHECK: precision.cast %{{.*}} : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: precision.cast %{{.*}} : tensor<4x8xf16> to tensor<4x8xbf16>
// CHECK: precision.cast %{{.*}} : tensor<4x8xbf16> to tensor<4x8xi8>
// CHECK: precision.cast %{{.*}} : tensor<4x8xi8> to tensor<4x8xf8E4M3FN>
// CHECK: precision.cast %{{.*}} : tensor<4x8xf8E4M3FN> to tensor<4x8xf8E5M2>
// CHECK: precision.cast %{{.*}} : tensor<?x8xf32> to tensor<?x8xi32>
func.func @casts(%x: tensor<4x8xf32>, %d: tensor<?x8xf32>) -> (tensor<4x8xf8E5M2>, tensor<?x8xi32>) {
  %0 = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %1 = precision.cast %0 : tensor<4x8xf16> to tensor<4x8xbf16>
  %2 = precision.cast %1 : tensor<4x8xbf16> to tensor<4x8xi8>
  %3 = precision.cast %2 : tensor<4x8xi8> to tensor<4x8xf8E4M3FN>
  %4 = precision.cast %3 : tensor<4x8xf8E4M3FN> to tensor<4x8xf8E5M2>
  %5 = precision.cast %d : tensor<?x8xf32> to tensor<?x8xi32>
  return %4, %5 : tensor<4x8xf8E5M2>, tensor<?x8xi32>
}

}

// The attributes the precision passes leave on ops round-trip too.
// CHECK-LABEL: func.func @pass_attributes
// CHECK-SAME: {precision.name = "x", precision.range = array<f64: 1.000000e+00, 2.000000e+00>}
// CHECK-SAME: -> (tensor<4xf16> {precision.name = "y"})
// CHECK: precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = range, detail = "why">
// CHECK-SAME: precision.range = array<f64: -1.000000e+00, 1.000000e+00>
// CHECK-SAME: precision.request = #precision.request<compute = f16, output = f32, mode = prefer, origin = pattern>
// CHECK: tosa.cast {{.*}} {precision.epilogue}
// CHECK: tosa.cast {{.*}} {precision.inserted_cast}
func.func @pass_attributes(%x: tensor<4xf32> {precision.name = "x", precision.range = array<f64: 1.0, 2.0>}) -> (tensor<4xf16> {precision.name = "y"}) {
  %y = tosa.abs %x {precision.request = #precision.request<compute = f16, output = f32, mode = prefer, origin = pattern>, precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = range, detail = "why">, precision.range = array<f64: -1.0, 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
  %h = tosa.cast %y {precision.epilogue} : (tensor<4xf32>) -> tensor<4xf16>
  %k = tosa.cast %h {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf16>
  return %k : tensor<4xf16>
}
