// prec-lower-to-gpu quantizes an activation that several f8 Linears read
// once: materialization gives each its own scale constant, multiply and
// cast, which the pipeline merges into one (LLaMA's q, k and v projections
// read one normalized hidden state).
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" | prec-opt --prec-lower-to-gpu | FileCheck %s
// CHECK-LABEL: func.func @two_linears
// CHECK: %[[SCALED:.*]] = tosa.mul %arg0
// CHECK-NEXT: %[[Q:.*]] = tosa.cast %[[SCALED]] : (tensor<1x16x16xf32>) -> tensor<1x16x16xf8E4M3FN>
// CHECK-NOT: tosa.cast {{.*}}-> tensor<1x16x16xf8E4M3FN>
// CHECK: tosa.matmul %[[Q]], {{.*}}precision.layer = "q_proj"
// CHECK-NOT: tosa.cast {{.*}}-> tensor<1x16x16xf8E4M3FN>
// CHECK: tosa.matmul %[[Q]], {{.*}}precision.layer = "k_proj"
func.func @two_linears(%x: tensor<1x16x16xf32>) -> (tensor<1x16x16xf32>, tensor<1x16x8xf32>) {
  %q = precision.region f8E4M3FN obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%a = %x : tensor<1x16x16xf32>) -> tensor<1x16x16xf32> {
    %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32> loc("q_proj")
    precision.yield %m : tensor<1x16x16xf32>
  }
  %k = precision.region f8E4M3FN obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%a = %x : tensor<1x16x16xf32>) -> tensor<1x16x8xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<1x16x8xf32>}> : () -> tensor<1x16x8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32> loc("k_proj")
    precision.yield %m : tensor<1x16x8xf32>
  }
  return %q, %k : tensor<1x16x16xf32>, tensor<1x16x8xf32>
}
