// Requests checked against the target support table: obey fails, prefer
// falls back with a warning, none falls back silently.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-annotate --prec-propagate --prec-legalize-types | FileCheck %s

module attributes {precision.policy = #precision.policy<target = "sm_75">} {
  func.func @bf16_obey_on_turing(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = precision.region bf16 obey (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
      // expected-error @+1 {{tosa.add must compute in 'bf16' (obey), but target sm_75 cannot: bf16 arithmetic needs sm_80 or later; the target is sm_75}}
      %y = tosa.add %a, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      precision.yield %y : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
}

// -----

module attributes {precision.policy = #precision.policy<target = "sm_80">} {
  func.func @fp8_obey_on_ampere(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %r = precision.region f8E4M3FN obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // expected-error @+1 {{tosa.matmul must compute in 'f8E4M3FN' (obey), but target sm_80 cannot: f8 tensor-core support needs sm_89 or later; the target is sm_80}}
      %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r : tensor<1x4x4xf32>
  }
}

// -----

module attributes {precision.policy = #precision.policy<target = "sm_90">} {
  func.func @fp8_elementwise_obey(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = precision.region f8E4M3FN obey input_range [-1.0, 1.0] output_range [-2.0, 2.0] (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
      // expected-error @+1 {{tosa.add must compute in 'f8E4M3FN' (obey), but target sm_90 cannot: no f8E4M3FN implementation exists for elementwise ops}}
      %y = tosa.add %a, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      precision.yield %y : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
}

// -----

// CHECK-LABEL: func.func @bf16_prefer_on_turing
// CHECK: tosa.add {{.*}}compute = f32, accumulate = f32, storage = f32, reason = fallback, detail = "target sm_75: bf16 arithmetic needs sm_80 or later; the target is sm_75"
module attributes {precision.policy = #precision.policy<target = "sm_75">} {
  func.func @bf16_prefer_on_turing(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = precision.region bf16 prefer (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
      // expected-warning @+1 {{tosa.add prefers 'bf16', but target sm_75 cannot (bf16 arithmetic needs sm_80 or later; the target is sm_75): it computes in 'f32' instead}}
      %y = tosa.add %a, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      precision.yield %y : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
}

// -----

// No mode on the region: the policy's default (none) applies, silently.
// CHECK-LABEL: func.func @bf16_none_on_turing
// CHECK: tosa.add {{.*}}compute = f32{{.*}}reason = fallback
module attributes {precision.policy = #precision.policy<target = "sm_75", constraints = none>} {
  func.func @bf16_none_on_turing(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = precision.region bf16 (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
      %y = tosa.add %a, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      precision.yield %y : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
}

// -----

// i8 needs sm_61 (dp4a): on sm_53 a preferred i8 conv falls back to the
// nearest wider supported type, f16.
// CHECK-LABEL: func.func @int8_prefer_on_maxwell
// CHECK: tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f16, reason = fallback
module attributes {precision.policy = #precision.policy<target = "sm_53">} {
  func.func @int8_prefer_on_maxwell(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %r = precision.region i8 prefer input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // expected-warning @+1 {{tosa.matmul prefers 'i8', but target sm_53 cannot (i8 dot-product support (dp4a) needs sm_61 or later; the target is sm_53): it computes in 'f16' instead}}
      %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r : tensor<1x4x4xf32>
  }
}

// -----

// The same requests on the CPU: every type runs (emulated), nothing to say.
// CHECK-LABEL: func.func @bf16_obey_on_cpu
// CHECK: tosa.add {{.*}}compute = bf16, accumulate = bf16, storage = bf16, reason = region
module attributes {precision.policy = #precision.policy<target = "cpu">} {
  func.func @bf16_obey_on_cpu(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = precision.region bf16 obey (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
      %y = tosa.add %a, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      precision.yield %y : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
}

// -----

// i8 and f8 have scales for contractions only. A transpose or reshape
// pinned with its matmul (an ONNX layer's layout change) computes nothing:
// it moves its producer's type, without a warning under prefer or a
// refusal under obey; the matmul computes in the scaled format.
module attributes {precision.policy = #precision.policy<target = "sm_90", enabled = [f16]>} {
  // CHECK-LABEL: func.func @i8_layer_transpose
  func.func @i8_layer_transpose(%a: tensor<1x16x4xf32>) -> tensor<1x4x4xf32> {
    %r = precision.region i8 prefer input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<1x16x4xf32>) -> tensor<1x4x4xf32> {
      // CHECK: tosa.transpose {{.*}}compute = f16, accumulate = f16, storage = f16, reason = follow, detail = "moves data of a layer pinned to i8"
      %t = tosa.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<1x16x4xf32>) -> tensor<1x4x16xf32>
      %w = "tosa.const"() <{values = dense<0.5> : tensor<1x16x4xf32>}> : () -> tensor<1x16x4xf32>
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // CHECK: tosa.matmul {{.*}}compute = i8
      %m = tosa.matmul %t, %w, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r : tensor<1x4x4xf32>
  }

  // CHECK-LABEL: func.func @f8_layer_reshapes_obey
  func.func @f8_layer_reshapes_obey(%a: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %r = precision.region f8E4M3FN obey input_range [-1.0, 1.0] output_range [-8.0, 8.0] (%x = %a : tensor<64x16xf32>) -> tensor<64x16xf32> {
      %in = tosa.const_shape {values = dense<[1, 64, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
      // CHECK: tosa.reshape {{.*}}reason = follow, detail = "moves data of a layer pinned to f8E4M3FN"
      %x3 = tosa.reshape %x, %in : (tensor<64x16xf32>, !tosa.shape<3>) -> tensor<1x64x16xf32>
      %w = "tosa.const"() <{values = dense<0.5> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // CHECK: tosa.matmul {{.*}}compute = f8E4M3FN
      %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x64x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x16xf32>
      %out = tosa.const_shape {values = dense<[64, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
      // CHECK: tosa.reshape {{.*}}reason = follow, detail = "moves data of a layer pinned to f8E4M3FN"
      %m2 = tosa.reshape %m, %out : (tensor<1x64x16xf32>, !tosa.shape<2>) -> tensor<64x16xf32>
      precision.yield %m2 : tensor<64x16xf32>
    }
    return %r : tensor<64x16xf32>
  }
}

// -----

// cuBLASLt's 8-bit GEMMs need K to be a multiple of 16 (found by the
// differential tests: a K = 1 i8 engine failed to create): obey fails,
// prefer falls back to f16; the CPU runs any K.
module attributes {precision.policy = #precision.policy<target = "sm_90">} {
  func.func @i8_gemm_odd_depth(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
    %r = precision.region i8 obey input_range [-1.0, 1.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // expected-error @+1 {{tosa.matmul must compute in 'i8' (obey), but target sm_90 cannot: cuBLASLt's 8-bit GEMMs need K, the reduced dimension, to be a multiple of 16; it is 8}}
      %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    %s = precision.region i8 prefer input_range [-1.0, 1.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      // expected-warning @+1 {{tosa.matmul prefers 'i8', but target sm_90 cannot (cuBLASLt's 8-bit GEMMs need K, the reduced dimension, to be a multiple of 16; it is 8): it computes in 'f16' instead}}
      %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r, %s : tensor<1x4x4xf32>, tensor<1x4x4xf32>
  }
}

// -----

// CHECK-LABEL: func.func @i8_gemm_odd_depth_on_cpu
// CHECK: tosa.matmul {{.*}}compute = i8
module attributes {precision.policy = #precision.policy<target = "cpu">} {
  func.func @i8_gemm_odd_depth_on_cpu(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
    %r = precision.region i8 obey input_range [-1.0, 1.0] (%x = %a : tensor<1x4x8xf32>, %y = %b : tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %m = tosa.matmul %x, %y, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r : tensor<1x4x4xf32>
  }
}
