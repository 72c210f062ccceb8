// Where requests come from and which wins: plan op entries, then
// layer-precisions patterns, then the innermost precision.region, then plan
// class rules; within a list the last match wins.
// RUN: prec-opt %s --prec-annotate="plan=%S/Inputs/plan-precedence.json layer-precisions=B*:f32,Cpat:f16,tosa.negate:bf16" | FileCheck %s

// CHECK-LABEL: func.func @precedence
func.func @precedence(%x: tensor<4xf32>, %a: tensor<1x4x4xf32>) -> tensor<4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = precision.region f16 obey (%in = %x : tensor<4xf32>) -> tensor<4xf32> {
    // Inside the region and nothing stronger: the region's request.
    // CHECK: tosa.abs {{.*}}precision.request = #precision.request<compute = f16, mode = obey, origin = region>
    %0 = tosa.abs %in : (tensor<4xf32>) -> tensor<4xf32> loc("A")
    // Innermost region wins.
    %inner = precision.region bf16 prefer accumulate f32 (%v = %0 : tensor<4xf32>) -> tensor<4xf32> {
      // CHECK: tosa.abs {{.*}}precision.request = #precision.request<compute = bf16, accumulate = f32, mode = prefer, origin = region>
      %1 = tosa.abs %v : (tensor<4xf32>) -> tensor<4xf32> loc("A2")
      precision.yield %1 : tensor<4xf32>
    }
    // A pattern beats the region.
    // CHECK: tosa.abs {{.*}}precision.request = #precision.request<compute = f32, mode = prefer, origin = pattern>
    %2 = tosa.abs %inner : (tensor<4xf32>) -> tensor<4xf32> loc("B")
    precision.yield %2 : tensor<4xf32>
  }
  // A plan op entry beats a pattern; the last matching entry wins.
  // CHECK: tosa.abs {{.*}}precision.request = #precision.request<compute = f32, mode = prefer, origin = plan>
  %3 = tosa.abs %r : (tensor<4xf32>) -> tensor<4xf32> loc("Cpat")
  // CHECK: tosa.abs {{.*}}precision.request = #precision.request<compute = bf16, accumulate = f32, output = f32, mode = obey, origin = plan>
  %4 = tosa.abs %3 : (tensor<4xf32>) -> tensor<4xf32> loc("Conly")
  // Patterns match op names too.
  // CHECK: tosa.negate {{.*}}precision.request = #precision.request<compute = bf16, mode = prefer, origin = pattern>
  %5 = tosa.negate %4, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32> loc("Neg")
  // Nothing else matches: the plan's class rule for elementwise ops.
  // CHECK: tosa.add {{.*}}precision.request = #precision.request<compute = f16, mode = none, origin = plan_class>
  %6 = tosa.add %5, %5 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("D")
  // CHECK: tosa.matmul {{.*}}precision.request = #precision.request<compute = bf16, accumulate = f32, mode = prefer, origin = plan_class>
  %7 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32> loc("E")
  // No class rule for sensitive ops: no request.
  // CHECK: tosa.exp
  // CHECK-NOT: precision.request
  // CHECK-SAME: -> tensor<4xf32>
  %8 = tosa.exp %6 : (tensor<4xf32>) -> tensor<4xf32> loc("F")
  return %8 : tensor<4xf32>
}
