// prec-legalize-types on its own, from the precision.assigned,
// precision.request and precision.range attributes the earlier passes
// attach: choices checked against the value ranges and the policy's
// target, and contractions' storage widened for their consumers.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-legalize-types | FileCheck %s

// The compiler's own f16 choice overflowing its range is promoted to f32
// with a remark; the op that followed it follows again, into f32.
// CHECK-LABEL: func.func @range_promotes
// CHECK: tosa.mul {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range, detail = "its result range [60000, 120000] exceeds f16's largest finite value 65504">
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = follow>
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @range_promotes(%x: tensor<4xf32> {precision.range = array<f64: 1.0, 2.0>}) -> tensor<4xf32> {
    %big = "tosa.const"() <{values = dense<60000.0> : tensor<4xf32>}> {precision.range = array<f64: 60000.0, 60000.0>} : () -> tensor<4xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    // expected-remark @+1 {{tosa.mul promoted from 'f16' to 'f32': its result range [60000, 120000] exceeds f16's largest finite value 65504}}
    %y = tosa.mul %x, %big, %shift {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.range = array<f64: 60000.0, 120000.0>} : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    %z = tosa.abs %y {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>, precision.range = array<f64: 60000.0, 120000.0>} : (tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
}

// -----

// An op already computing and storing f32 whose range exceeds f32 has
// nothing to be promoted to: no remark, and its reason stays.
// CHECK-LABEL: func.func @f32_overflows
// CHECK: tosa.exp {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @f32_overflows(%x: tensor<4xf32> {precision.range = array<f64: 0.0, 200.0>}) -> tensor<4xf32> {
    %e = tosa.exp %x {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>, precision.range = array<f64: 1.0, 7.2e86>} : (tensor<4xf32>) -> tensor<4xf32>
    return %e : tensor<4xf32>
  }
}

// -----

// A preferred f16 gives way to the range with a warning; an obeyed one
// stands, with a warning that it will overflow.
// CHECK-LABEL: func.func @prefer_and_obey
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range,
// CHECK: tosa.floor {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = pattern>
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @prefer_and_obey(%x: tensor<4xf32> {precision.range = array<f64: 50000.0, 100000.0>}) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-warning @+1 {{tosa.abs promoted from 'f16' to 'f32': its operand #0 range [50000, 100000] exceeds f16's largest finite value 65504}}
    %a = tosa.abs %x {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = pattern>, precision.range = array<f64: 50000.0, 100000.0>, precision.request = #precision.request<compute = f16, mode = prefer, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-warning @+1 {{tosa.floor computes in 'f16' as required, but its operand #0 range [50000, 100000] exceeds f16's largest finite value 65504: it will overflow}}
    %n = tosa.floor %x {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = pattern>, precision.range = array<f64: 50000.0, 100000.0>, precision.request = #precision.request<compute = f16, mode = obey, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    return %a, %n : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// bf16 on sm_75: a preferred request falls back to f32 with a warning, one
// without a mode silently; both record why.
// CHECK-LABEL: func.func @target_fallback
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = fallback, detail = "target sm_75: bf16 arithmetic needs sm_80 or later; the target is sm_75">
// CHECK: tosa.floor {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = fallback,
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16, bf16], constraints = prefer, target = "sm_75">} {
  func.func @target_fallback(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-warning @+1 {{tosa.abs prefers 'bf16', but target sm_75 cannot (bf16 arithmetic needs sm_80 or later; the target is sm_75): it computes in 'f32' instead}}
    %a = tosa.abs %x {precision.assigned = #precision.assignment<compute = bf16, accumulate = bf16, storage = bf16, reason = pattern>, precision.request = #precision.request<compute = bf16, mode = prefer, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    %b = tosa.floor %x {precision.assigned = #precision.assignment<compute = bf16, accumulate = bf16, storage = bf16, reason = pattern>, precision.request = #precision.request<compute = bf16, mode = none, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    return %a, %b : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// A matmul read only by f32 ops stores f32 (its f32 accumulator holds it:
// no cast needed); one read by an f16 and an f32 op keeps storing f16.
// CHECK-LABEL: func.func @storage_widens
// CHECK: %[[M:.*]] = tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = class_rule>}
// CHECK: tosa.exp %[[M]]
// CHECK: %[[K:.*]] = tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>}
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @storage_widens(%x: tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %x, %x, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
    %e = tosa.exp %m {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %k = tosa.matmul %x, %x, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
    %l = tosa.abs %k {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %s = tosa.exp %k {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %t = tosa.add %l, %s {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = follow>} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    return %e, %t : tensor<1x2x2xf32>, tensor<1x2x2xf32>
  }
}

// -----

// An obeyed type the target cannot compute is an error.
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16, bf16], constraints = prefer, target = "sm_75">} {
  func.func @obey_unsupported(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{tosa.abs must compute in 'bf16' (obey), but target sm_75 cannot: bf16 arithmetic needs sm_80 or later; the target is sm_75}}
    %a = tosa.abs %x {precision.assigned = #precision.assignment<compute = bf16, accumulate = bf16, storage = bf16, reason = pattern>, precision.request = #precision.request<compute = bf16, mode = obey, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    return %a : tensor<4xf32>
  }
}

// -----

// An attention mask of 0 and -inf stays in f16: an infinity is a value
// f16 holds, not an overflow. finfo(f32).min does overflow f16.
// CHECK-LABEL: func.func @infinite_mask
// CHECK: tosa.select {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>
// CHECK: tosa.select {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @infinite_mask(%keep: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>) {
    %zero = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> {precision.range = array<f64: 0.0, 0.0>} : () -> tensor<4xf32>
    %inf = "tosa.const"() <{values = dense<0xFF800000> : tensor<4xf32>}> {precision.range = array<f64: 0xFFF0000000000000, 0xFFF0000000000000>} : () -> tensor<4xf32>
    %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<4xf32>}> {precision.range = array<f64: -3.40282347E+38, -3.40282347E+38>} : () -> tensor<4xf32>
    %a = tosa.select %keep, %zero, %inf {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.range = array<f64: 0xFFF0000000000000, 0.0>} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    // expected-remark @+1 {{tosa.select promoted from 'f16' to 'f32': its operand #2 range [-3.40282e+38, -3.40282e+38] exceeds f16's largest finite value 65504}}
    %b = tosa.select %keep, %zero, %min {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.range = array<f64: -3.40282347E+38, 0.0>} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %a, %b : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// An op computing in f32 already whose result overflows its f16 storage:
// what is promoted is the storage, and the remark says so.
// CHECK-LABEL: func.func @storage_promotes
// CHECK: tosa.mul {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @storage_promotes(%x: tensor<4xf32> {precision.range = array<f64: 1.0, 2.0>}) -> tensor<4xf32> {
    %big = "tosa.const"() <{values = dense<60000.0> : tensor<4xf32>}> {precision.range = array<f64: 60000.0, 60000.0>} : () -> tensor<4xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    // expected-remark @+1 {{tosa.mul storage promoted from 'f16' to 'f32': its result range [60000, 120000] exceeds f16's largest finite value 65504}}
    %y = tosa.mul %x, %big, %shift {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f16, reason = class_rule>, precision.range = array<f64: 60000.0, 120000.0>} : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// A loose range (precision.range_loose: a worst case no input is known to
// reach, as a matmul of normalized rows) that may overflow keeps its f16,
// with no remark (its storage widens to f32 for the f32 result and the f32
// mul); one that overflows everywhere is still promoted.
// CHECK-LABEL: func.func @loose_ranges
// CHECK: tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = class_rule>
// CHECK: tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f32, reason = class_rule>
// CHECK: tosa.mul {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @loose_ranges(%q: tensor<1x4x8xf32>, %k: tensor<1x8x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
    %zp0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %alone = tosa.matmul %q, %k, %zp0, %zp0 {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>, precision.range = array<f64: -2.0e+05, 2.0e+05>, precision.range_loose} : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> {precision.range = array<f64: 0.5, 0.5>} : () -> tensor<1x4x4xf32>
    %s = tosa.matmul %q, %k, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>, precision.range = array<f64: -2.0e+05, 2.0e+05>, precision.range_loose} : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    // expected-remark @+1 {{tosa.mul promoted from 'f16' to 'f32': its result range [100000, 200000] exceeds f16's largest finite value 65504}}
    %t = tosa.mul %s, %half, %shift {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.range = array<f64: 1.0e+05, 2.0e+05>, precision.range_loose} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
    return %alone, %t : tensor<1x4x4xf32>, tensor<1x4x4xf32>
  }
}
