// RUN: prec-opt %s -split-input-file -verify-diagnostics

// One case per verifier and parser error of the precision dialect.

func.func @yield_count_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = precision.region f16 (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'precision.yield' op yields 0 values but the enclosing precision.region has 1 results}}
    precision.yield
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type_mismatch(%x: tensor<4xf32>, %h: tensor<4xf16>) -> tensor<4xf32> {
  %r = precision.region f16 (%a = %x : tensor<4xf32>, %b = %h : tensor<4xf16>) -> tensor<4xf32> {
    // expected-error @+1 {{'precision.yield' op yielded value #0 has type 'tensor<4xf16>' but region result #0 has type 'tensor<4xf32>'}}
    precision.yield %b : tensor<4xf16>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_argument_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op body argument #0 has type 'tensor<4xf16>' but operand #0 has type 'tensor<4xf32>'}}
  "precision.region"(%x) <{precision = f16}> ({
  ^bb0(%a: tensor<4xf16>):
    precision.yield
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @block_argument_count_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op body has 0 arguments but the region has 1 operands}}
  "precision.region"(%x) <{precision = f16}> ({
    precision.yield
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @accumulate_narrower_than_precision(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op accumulate type 'f16' is narrower than precision 'bf16': it cannot hold every 'bf16' value}}
  precision.region bf16 accumulate f16 (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @accumulate_f8_narrower_than_f32(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op accumulate type 'f8E4M3FN' is narrower than precision 'f32'}}
  precision.region f32 accumulate f8E4M3FN (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @accumulate_on_integer_precision(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op accumulate type 'i32' given for non-float precision 'i8' (i8 always accumulates in i32)}}
  precision.region i8 accumulate i32 input_range [-1.0, 1.0] output_range [-1.0, 1.0] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @accumulate_not_a_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op accumulate type 'i32' is not a float precision type}}
  precision.region f16 accumulate i32 (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @unsupported_precision(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op precision 'f64' is not one of f32, f16, bf16, i8, f8E4M3FN, f8E5M2}}
  precision.region f64 (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @unsupported_output_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op output type 'i16' is not one of f32, f16, bf16, i8, f8E4M3FN, f8E5M2}}
  precision.region f16 output i16 (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @range_min_greater_than_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op input_range minimum 6 is greater than its maximum -6}}
  precision.region i8 input_range [6.0, -6.0] output_range [-1.0, 1.0] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @output_range_min_greater_than_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op output_range minimum 2 is greater than its maximum 1}}
  precision.region f8E4M3FN input_range [-1.0, 1.0] output_range [2.0, 1.0] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @range_not_finite(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op input_range [-inf, 1] is not finite}}
  precision.region i8 input_range [0xFFF0000000000000, 1.0] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @range_nan(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op output_range [0, nan] is not finite}}
  precision.region i8 output_range [0.0, 0x7FF8000000000000] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @range_half_given(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op input_range needs both a minimum and a maximum}}
  "precision.region"(%x) <{precision = i8, input_min = 1.0 : f64}> ({
  ^bb0(%a: tensor<4xf32>):
    precision.yield
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @range_on_float_precision(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.region' op dynamic ranges apply only to i8 and f8 precisions, not to 'f16'}}
  precision.region f16 input_range [-1.0, 1.0] (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @region_not_isolated(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  precision.region f16 () {
    // expected-error @+1 {{'tosa.abs' op using value defined outside the region}}
    %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    precision.yield
  }
  return
}

// -----

func.func @unknown_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '('}}
  precision.region f16 strict (%a = %x : tensor<4xf32>) {
    precision.yield
  }
  return
}

// -----

func.func @yield_outside_region(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.yield' op expects parent op 'precision.region'}}
  precision.yield %x : tensor<4xf32>
}

// -----

func.func @cast_shape_mismatch(%x: tensor<4x8xf32>) -> tensor<8x4xf16> {
  // expected-error @+1 {{'precision.cast' op input type 'tensor<4x8xf32>' and result type 'tensor<8x4xf16>' differ in shape}}
  %0 = precision.cast %x : tensor<4x8xf32> to tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

func.func @cast_non_numeric_input(%x: tensor<4xindex>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.cast' op input element type 'index' is neither a float nor an integer}}
  %0 = precision.cast %x : tensor<4xindex> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_non_numeric_result(%x: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'precision.cast' op result element type 'complex<f32>' is neither a float nor an integer}}
  %0 = precision.cast %x : tensor<4xf32> to tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @cast_unranked(%x: tensor<*xf32>) -> tensor<*xf16> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = precision.cast %x : tensor<*xf32> to tensor<*xf16>
  return %0 : tensor<*xf16>
}

// -----

// expected-error @+1 {{unknown policy key 'precisions'; expected typing, enabled, constraints or target}}
module attributes {precision.policy = #precision.policy<precisions = [f16]>} {
}

// -----

// expected-error @+1 {{policy key 'target' given twice}}
module attributes {precision.policy = #precision.policy<target = "cpu", target = "sm_80">} {
}

// -----

// expected-error @+1 {{unknown typing mode 'loose'; expected strong or weak}}
module attributes {precision.policy = #precision.policy<typing = loose>} {
}

// -----

// expected-error @+1 {{unknown constraint mode 'strict'; expected obey, prefer or none}}
module attributes {precision.policy = #precision.policy<constraints = strict>} {
}

// -----

// expected-error @+1 {{unknown target 'sm_99'; expected cpu, sm_53}}
module attributes {precision.policy = #precision.policy<target = "sm_99">} {
}

// -----

// expected-error @+1 {{enabled precision 'f64' is not one of f32, f16, bf16, i8, f8E4M3FN, f8E5M2}}
module attributes {precision.policy = #precision.policy<enabled = [f16, f64]>} {
}

// -----

// expected-error @+1 {{enabled precision 'f16' is listed twice}}
module attributes {precision.policy = #precision.policy<enabled = [f16, bf16, f16]>} {
}

// -----

// expected-error @+1 {{'precision.policy' must be a #precision.policy, got "sm_90"}}
module attributes {precision.policy = "sm_90"} {
}

// -----

// expected-error @+1 {{'precision.policy' belongs on a builtin.module, not on 'func.func'}}
func.func @policy_on_function() attributes {precision.policy = #precision.policy<>} {
  return
}

// -----

// expected-error @+1 {{unknown precision dialect attribute 'precision.polcy'}}
module attributes {precision.polcy = #precision.policy<>} {
}

// -----

func.func @request_of_the_wrong_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.request' must be a #precision.request, got f16}}
  %y = tosa.abs %x {precision.request = f16} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @assignment_of_the_wrong_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.assigned' must be a #precision.assignment, got #precision.request<compute = f16, mode = obey, origin = region>}}
  %y = tosa.abs %x {precision.assigned = #precision.request<compute = f16, mode = obey, origin = region>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @range_of_the_wrong_shape(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.range' must be array<f64: lo, hi>, got array<f64: 1.000000e+00>}}
  %y = tosa.abs %x {precision.range = array<f64: 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @range_upside_down(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.range' has its minimum above its maximum}}
  %y = tosa.abs %x {precision.range = array<f64: 2.0, 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'precision.range' has its minimum above its maximum}}
func.func @argument_range_upside_down(%x: tensor<4xf32> {precision.range = array<f64: 2.0, 1.0>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown precision dialect argument attribute 'precision.rnage'}}
func.func @unknown_argument_attribute(%x: tensor<4xf32> {precision.rnage = array<f64: 1.0, 2.0>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @inserted_cast_marker_is_a_unit(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'precision.inserted_cast' must be a unit attribute, got 1 : i64}}
  %y = tosa.cast %x {precision.inserted_cast = 1} : (tensor<4xf32>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

func.func @loose_range_marker_is_a_unit(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.range_loose' must be a unit attribute, got true}}
  %y = tosa.abs %x {precision.range = array<f64: 0.0, 1.0>, precision.range_loose = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'precision.name' must be a string, got 3 : i64}}
func.func @binding_name_not_a_string(%x: tensor<4xf32> {precision.name = 3}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown precision dialect result attribute 'precision.range'}}
func.func @result_range(%x: tensor<4xf32>) -> (tensor<4xf32> {precision.range = array<f64: 0.0, 1.0>}) {
  return %x : tensor<4xf32>
}

// -----

func.func @layer_name_not_a_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'precision.layer' must be a string, got 1 : i64}}
  %y = tosa.abs %x {precision.layer = 1} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
