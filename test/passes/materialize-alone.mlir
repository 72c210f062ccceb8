// prec-materialize on its own, from the attributes prec-propagate and
// prec-legalize-types attach: ops rewritten to their precision.assigned
// types, casts inserted only where a value crosses types, constants
// converted at compile time, quantized matmuls marked for prec-quantize.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-materialize | FileCheck %s
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-materialize="io-types=x:f16,y:f16" | FileCheck %s --check-prefix=IO
// RUN: not prec-opt %s -split-input-file --prec-materialize="io-types=x:f15" 2>&1 | FileCheck %s --check-prefix=BADIO

// BADIO: error: io-types entry 'x:f15' names unknown precision 'f15'

// An op computing in f16 and storing f32 keeps its f16 result for an f16
// consumer (f16 -> f32 -> f16 is looked through); its epilogue cast feeds
// the f32 return. The weight and the zero points become f16 constants
// (0.1 rounds to 9.997550e-02), not casts.
// CHECK-LABEL: func.func @lossless_pair
// CHECK-NEXT: %[[X:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf16>
// CHECK-NEXT: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK-NEXT: %[[W:.*]] = "tosa.const"() <{values = dense<9.997550e-02> : tensor<1x2x2xf16>}>
// CHECK-NEXT: %[[A:.*]] = tosa.abs %[[X]] {{.*}} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf16>
// CHECK-NEXT: %[[A32:.*]] = tosa.cast %[[A]] {precision.epilogue} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
// CHECK-NEXT: %[[M:.*]] = tosa.matmul %[[A]], %[[W]], %[[ZP]], %[[ZP]] {{.*}} : (tensor<1x2x2xf16>, tensor<1x2x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2xf32>
// CHECK-NEXT: return %[[A32]], %[[M]] : tensor<1x2x2xf32>, tensor<1x2x2xf32>
// CHECK-NOT: tosa.const
func.func @lossless_pair(%x: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.1> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %a = tosa.abs %x {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f32, reason = inputs>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %m = tosa.matmul %a, %w, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %a, %m : tensor<1x2x2xf32>, tensor<1x2x2xf32>
}

// -----

// A matmul accumulating in f32 and storing f16: its epilogue rounds to f16,
// and the two f32 consumers share one widening cast of the rounded value
// (f32 -> f16 -> f32 is not looked through).
// CHECK-LABEL: func.func @lossy_pair_shared_cast
// CHECK: %[[RAW:.*]] = tosa.matmul {{.*}} -> tensor<1x2x2xf32>
// CHECK-NEXT: %[[M:.*]] = tosa.cast %[[RAW]] {precision.epilogue} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf16>
// CHECK-NEXT: %[[M32:.*]] = tosa.cast %[[M]] {precision.inserted_cast} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
// CHECK-NEXT: tosa.abs %[[M]] {{.*}} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf16>
// CHECK-NEXT: tosa.cast %{{.*}} {precision.inserted_cast} : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
// CHECK-NEXT: tosa.exp %[[M32]] {{.*}} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT: tosa.log %[[M32]] {{.*}} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT: return
func.func @lossy_pair_shared_cast(%x: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %x, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %n = tosa.abs %m {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %e = tosa.exp %m {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %l = tosa.log %m {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %n, %e, %l : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>
}

// -----

// The model's own cast of an activation stays, beside the compiler's cast
// of the same value; a weight behind the model's casts is folded through
// them (3.1 -> bf16 3.09375 -> f32 -> f16) and the chain is erased.
// CHECK-LABEL: func.func @model_casts
// CHECK-NEXT: %[[X:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %[[W:.*]] = "tosa.const"() <{values = dense<3.093750e+00> : tensor<4xf16>}>
// CHECK-NEXT: %[[C:.*]] = tosa.cast %arg0 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %[[A:.*]] = tosa.add %[[X]], %[[W]] {{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT: %[[A32:.*]] = tosa.cast %[[A]] {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[C]], %[[A32]] : tensor<4xf16>, tensor<4xf32>
func.func @model_casts(%x: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %w = "tosa.const"() <{values = dense<3.1> : tensor<4xf32>}> : () -> tensor<4xf32>
  %wb = tosa.cast %w : (tensor<4xf32>) -> tensor<4xbf16>
  %wf = tosa.cast %wb : (tensor<4xbf16>) -> tensor<4xf32>
  %c = tosa.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %a = tosa.add %x, %wf {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c, %a : tensor<4xf16>, tensor<4xf32>
}

// -----

// A clamp's bounds follow its compute type (6.1 rounds to 6.101560e+00 in
// f16).
// CHECK-LABEL: func.func @clamp_bounds
// CHECK: tosa.clamp %{{.*}} {max_val = 6.101560e+00 : f16, min_val = 0.000000e+00 : f16, {{.*}} : (tensor<4xf16>) -> tensor<4xf16>
func.func @clamp_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.1 : f32, precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A sum computing in f16 and accumulating in f32: values rounded to f16,
// widened, summed in f32, stored in f16 by the epilogue.
// CHECK-LABEL: func.func @sum_accumulates_wider
// CHECK-NEXT: %[[H:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<2x8xf32>) -> tensor<2x8xf16>
// CHECK-NEXT: %[[W:.*]] = tosa.cast %[[H]] {precision.inserted_cast} : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[S:.*]] = tosa.reduce_sum %[[W]] {{.*}} : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: tosa.cast %[[S]] {precision.epilogue} : (tensor<2x1xf32>) -> tensor<2x1xf16>
func.func @sum_accumulates_wider(%x: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %s = tosa.reduce_sum %x {axis = 1 : i32, precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = region>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}

// -----

// A convolution storing its compute type produces f16 directly (no
// epilogue) and takes its bias in that type; acc_type stays f32.
// CHECK-LABEL: func.func @conv_bias
// CHECK-DAG: %[[B:.*]] = "tosa.const"() <{values = dense<9.997550e-02> : tensor<2xf16>}>
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<2x1x1x2xf16>}>
// CHECK: %[[C:.*]] = tosa.conv2d %{{.*}}, %[[W]], %[[B]], %{{.*}}, %{{.*}} {acc_type = f32, {{.*}} -> tensor<1x4x4x2xf16>
// CHECK-NOT: precision.epilogue
// CHECK: tosa.cast %[[C]] {precision.inserted_cast} : (tensor<1x4x4x2xf16>) -> tensor<1x4x4x2xf32>
func.func @conv_bias(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %c : tensor<1x4x4x2xf32>
}

// -----

// A matmul assigned i8 inside an i8 region: the region dissolves, the
// matmul stays on f32 values, marked precision.quantize with the region's
// input_range for prec-quantize.
// CHECK-LABEL: func.func @quantized_matmul
// CHECK-NOT: precision.region
// CHECK-NOT: tosa.cast
// CHECK: tosa.matmul %arg0, {{.*}}precision.input_range = array<f64: -4.000000e+00, 3.000000e+00>, precision.quantize = i8} : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
// CHECK-NOT: tosa.cast
// CHECK: return
func.func @quantized_matmul(%arg0: tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
  %0 = precision.region i8 obey input_range [-4.000000e+00, 3.000000e+00] (%arg1 = %arg0 : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %1 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.matmul %arg1, %1, %2, %2 {precision.assigned = #precision.assignment<compute = i8, accumulate = i32, storage = f32, reason = region>} : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
    precision.yield %3 : tensor<1x4x3xf32>
  }
  return %0 : tensor<1x4x3xf32>
}

// -----

// Both operands of an f8 matmul are region inputs (attention's Q and Kᵀ):
// the region's input_range goes to B as well, as b_input_range.
// CHECK-LABEL: func.func @quantized_activations
// CHECK: tosa.matmul %arg0, %arg1, {{.*}}precision.b_input_range = array<f64: -2.000000e+00, 2.000000e+00>, precision.input_range = array<f64: -2.000000e+00, 2.000000e+00>, precision.quantize = f8E4M3FN}
func.func @quantized_activations(%arg0: tensor<1x4x8xf32>, %arg1: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
  %0 = precision.region f8E4M3FN obey input_range [-2.000000e+00, 2.000000e+00] (%a = %arg0 : tensor<1x4x8xf32>, %b = %arg1 : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.matmul %a, %b, %1, %1 {precision.assigned = #precision.assignment<compute = f8E4M3FN, accumulate = f32, storage = f32, reason = region>} : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    precision.yield %2 : tensor<1x4x4xf32>
  }
  return %0 : tensor<1x4x4xf32>
}

// -----

// The signature keeps f32 unless io-types asks: then input x and output y
// are f16 bindings and their casts disappear; the other input keeps f32.
// CHECK-LABEL: func.func @io_types
// CHECK-SAME: (%arg0: tensor<4xf32> {precision.name = "x"}, %arg1: tensor<4xf32>) -> (tensor<4xf32> {precision.name = "y"})
// CHECK: tosa.cast %arg1 {precision.inserted_cast}
// CHECK: tosa.cast %arg0 {precision.inserted_cast}
// CHECK: %[[S:.*]] = tosa.sub
// CHECK: %[[R:.*]] = tosa.cast %[[S]] {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
// IO-LABEL: func.func @io_types
// IO-SAME: (%arg0: tensor<4xf16> {precision.name = "x"}, %arg1: tensor<4xf32>) -> (tensor<4xf16> {precision.name = "y"})
// IO-NEXT: %[[O:.*]] = tosa.cast %arg1 {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// IO-NEXT: %[[S:.*]] = tosa.sub %arg0, %[[O]] {{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// IO-NEXT: return %[[S]] : tensor<4xf16>
func.func @io_types(%in: tensor<4xf32> {precision.name = "x"}, %other: tensor<4xf32>) -> (tensor<4xf32> {precision.name = "y"}) {
  %n = tosa.sub %in, %other {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// i8 is materialized for matmuls and convolutions only.
func.func @i8_add(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot materialize 'i8' for 'tosa.add': i8 and f8 are implemented for matmuls and 2-D convolutions}}
  %a = tosa.add %x, %x {precision.assigned = #precision.assignment<compute = i8, accumulate = i32, storage = i8, reason = region>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
