// prec-propagate on its own, from the module policy and the
// precision.request attributes prec-annotate writes: every float op gets a
// precision.assigned (compute, accumulate, storage, reason).
// RUN: prec-opt %s -split-input-file --prec-propagate | FileCheck %s

// Weak typing, f16 enabled: the matmul takes the lowest enabled precision
// and accumulates in f32, abs, the division and the square root follow it,
// exp is sensitive and stays f32,
// the model's cast keeps its type, and a request decides compute and
// storage.
// CHECK-LABEL: func.func @weak
// CHECK: tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>}
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>}
// CHECK: arith.divf {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>}
// CHECK: math.sqrt {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>}
// CHECK: tosa.exp {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>}
// CHECK: tosa.cast {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = user_cast>}
// CHECK: tosa.negate {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f16, reason = pattern>, precision.request
// CHECK-NOT: "tosa.const"() {{.*}}precision.assigned
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @weak(%x: tensor<1x2x2xf32>, %y: tensor<4xf32>) -> (tensor<1x2x2xf32>, tensor<4xf16>, tensor<4xf32>) {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
    %a0 = tosa.abs %m : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %q = arith.divf %a0, %m : tensor<1x2x2xf32>
    %a = math.sqrt %q : tensor<1x2x2xf32>
    %e = tosa.exp %a : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %c = tosa.cast %y : (tensor<4xf32>) -> tensor<4xf16>
    %n = tosa.negate %y, %zp, %zp {precision.request = #precision.request<compute = f32, output = f16, mode = obey, origin = pattern>} : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
    return %e, %c, %n : tensor<1x2x2xf32>, tensor<4xf16>, tensor<4xf32>
  }
}

// -----

// Layer casting: a matmul whose constant weights are f16 computes in f16
// (reason weights) though only bf16 is enabled; abs, which may only follow
// into an enabled precision, stays f32.
// CHECK-LABEL: func.func @weights
// CHECK: tosa.cast {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = user_cast>}
// CHECK: tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = weights>}
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = follow>}
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [bf16], constraints = prefer, target = "cpu">} {
  func.func @weights(%x: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x2x2xf16>}> : () -> tensor<1x2x2xf16>
    %w32 = tosa.cast %w : (tensor<1x2x2xf16>) -> tensor<1x2x2xf32>
    %m = tosa.matmul %x, %w32, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
    %a = tosa.abs %m : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    return %a : tensor<1x2x2xf32>
  }
}

// -----

// Strong typing keeps the types the IR was written with, f16 enabled or
// not.
// CHECK-LABEL: func.func @strong
// CHECK: tosa.matmul {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = strong>}
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = strong>}
module attributes {precision.policy = #precision.policy<typing = strong, enabled = [f16], constraints = prefer, target = "cpu">} {
  func.func @strong(%x: tensor<1x2x2xf32>, %h: tensor<4xf16>) -> (tensor<1x2x2xf32>, tensor<4xf16>) {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
    %a = tosa.abs %h : (tensor<4xf16>) -> tensor<4xf16>
    return %m, %a : tensor<1x2x2xf32>, tensor<4xf16>
  }
}

// -----

// Without a policy nothing reduced is enabled: an op fed by a binding
// takes f32.
// CHECK-LABEL: func.func @no_policy
// CHECK: tosa.abs {{.*}}precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = inputs>}
func.func @no_policy(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
