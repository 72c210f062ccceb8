// TOSA's contractions and pools take no bf16 accumulator: a plan that asks
// a convolution to accumulate in bf16 (prec-debug's low precision does)
// gets f32, as on tensor cores, rather than IR that does not verify.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"version": 1, "ops": [{"name": "conv", "compute": "bf16", "accumulate": "bf16", "output": "bf16", "mode": "obey"}]}' > %t/plan.json
// RUN: prec-opt %s --prec-legalize="plan=%t/plan.json target=sm_90" | FileCheck %s

// CHECK: tosa.conv2d {{.*}}acc_type = f32{{.*}}compute = bf16, accumulate = f32, storage = bf16
func.func @main(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("conv")
  return %y : tensor<1x4x4x2xf32>
}
