// prec-materialize: types rewritten, casts placed and minimised.
// RUN: prec-opt %s -split-input-file --prec-legalize="enabled=f16 layer-output-types=Wide:f32" | FileCheck %s

// f16 -> f32 -> f16 is lossless: an f16 consumer (a matmul) of an op that
// stores f32 reads the op's f16 result directly.
// CHECK-LABEL: func.func @lossless_pair_is_dropped
// CHECK: %[[A:.*]] = tosa.abs %{{.*}}compute = f16, accumulate = f16, storage = f32{{.*}} -> tensor<1x2x2xf16>
// CHECK: %[[A32:.*]] = tosa.cast %[[A]] {precision.epilogue} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
// CHECK: %[[M:.*]] = tosa.matmul %[[A]], %[[A]], {{.*}}compute = f16
// CHECK: return %[[A32]], %[[M]] : tensor<1x2x2xf32>, tensor<1x2x2xf32>
func.func @lossless_pair_is_dropped(%x: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.abs %x : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32> loc("Wide")
  %m = tosa.matmul %a, %a, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %a, %m : tensor<1x2x2xf32>, tensor<1x2x2xf32>
}

// -----

// f32 -> f16 -> f32 loses precision: an f32 consumer of an op that stores
// f16 reads the rounded value, widened again.
// CHECK-LABEL: func.func @lossy_pair_is_kept
// CHECK: %[[RAW:.*]] = tosa.matmul {{.*}}storage = f16{{.*}} -> tensor<1x2x2xf32>
// CHECK: %[[M:.*]] = tosa.cast %[[RAW]] {precision.epilogue} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf16>
// CHECK: %[[M32:.*]] = tosa.cast %[[M]] {precision.inserted_cast} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
// CHECK: tosa.abs %[[M]] {{.*}}compute = f16
// CHECK: tosa.exp %[[M32]] {{.*}}compute = f32
func.func @lossy_pair_is_kept(%a: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %a, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %n = tosa.abs %m : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %e = tosa.exp %m : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %n, %e : tensor<1x2x2xf32>, tensor<1x2x2xf32>
}

// -----

// A sum that computes in f16 and accumulates in f32: values rounded to f16,
// summed in f32, stored in f16.
// CHECK-LABEL: func.func @sum_accumulates_in_f32
// CHECK: %[[H:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<2x8xf32>) -> tensor<2x8xf16>
// CHECK: %[[W:.*]] = tosa.cast %[[H]] {precision.inserted_cast} : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[W]] {{.*}}compute = f16, accumulate = f32, storage = f16{{.*}} -> tensor<2x1xf32>
// CHECK: tosa.cast %[[S]] {precision.epilogue} : (tensor<2x1xf32>) -> tensor<2x1xf16>
func.func @sum_accumulates_in_f32(%x: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %r = precision.region f16 accumulate f32 (%a = %x : tensor<2x8xf32>) -> tensor<2x1xf32> {
    %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x8xf32>) -> tensor<2x1xf32>
    precision.yield %s : tensor<2x1xf32>
  }
  return %r : tensor<2x1xf32>
}

// -----

// Nested regions dissolve; a constant used in two types becomes two.
// CHECK-LABEL: func.func @regions_dissolve
// CHECK-NOT: precision.region
// CHECK-DAG: "tosa.const"() <{values = dense<2.000000e+00> : tensor<4xbf16>}>
// CHECK-DAG: "tosa.const"() <{values = dense<2.000000e+00> : tensor<4xf32>}>
// CHECK: tosa.add {{.*}}compute = bf16
// CHECK: tosa.add {{.*}}compute = f32
func.func @regions_dissolve(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %r = precision.region f32 (%a = %x : tensor<4xf32>, %k = %c : tensor<4xf32>) -> tensor<4xf32> {
    %inner = precision.region bf16 (%b = %a : tensor<4xf32>, %k2 = %k : tensor<4xf32>) -> tensor<4xf32> {
      %y = tosa.add %b, %k2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      precision.yield %y : tensor<4xf32>
    }
    %z = tosa.add %inner, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    precision.yield %z : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Comparisons keep reading their operands in the type they were written
// with.
// CHECK-LABEL: func.func @unassigned_users_read_original_types
// CHECK: %[[A:.*]] = tosa.abs {{.*}} -> tensor<4xf16>
// CHECK: %[[A32:.*]] = tosa.cast %[[A]] {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: tosa.greater %[[A32]], %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @unassigned_users_read_original_types(%x: tensor<4xf32>) -> tensor<4xi1> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %g = tosa.greater %a, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %g : tensor<4xi1>
}

// -----

// A region that yields its own argument (found by prec-fuzz-mlir: the
// argument died with the inlined block) yields its input once dissolved.
// CHECK-LABEL: func.func @region_yields_its_argument
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NOT: precision.region
// CHECK: %[[E:.*]] = tosa.exp %[[X]]
// CHECK: %[[S:.*]] = tosa.add %[[X]], %[[E]]
// CHECK: return %[[S]]
func.func @region_yields_its_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = precision.region f32 (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    precision.yield %a, %e : tensor<4xf32>, tensor<4xf32>
  }
  %s = tosa.add %r#0, %r#1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
