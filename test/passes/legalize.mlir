// Range facts and storage choices of prec-legalize-types.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-annotate="enabled=f16" --prec-range-analysis="val-range=x:[1,2]" --prec-propagate --prec-legalize-types | FileCheck %s

// An overflowing op is promoted, and the op after it follows the promoted
// type instead of the type it first followed.
// CHECK-LABEL: func.func @promotion_refollows
// CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = range
// CHECK: tosa.abs {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow
func.func @promotion_refollows(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %big = "tosa.const"() <{values = dense<60000.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-remark @+1 {{tosa.mul promoted from 'f16' to 'f32': its result range [60000, 120000] exceeds f16's largest finite value 65504}}
  %y = tosa.mul %x, %big, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %z = tosa.abs %y : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Values below f16's smallest normal lose their relative precision.
// CHECK-LABEL: func.func @underflow_promotes
// CHECK: tosa.mul {{.*}}compute = f32{{.*}}reason = range, detail = "its operand #1 range [1e-07, 1e-07] lies below f16's smallest normal value"
func.func @underflow_promotes(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %tiny = "tosa.const"() <{values = dense<1.0e-7> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-remark @+1 {{tosa.mul promoted from 'f16' to 'f32': its operand #1 range [1e-07, 1e-07] lies below f16's smallest normal value}}
  %y = tosa.mul %x, %tiny, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A preferred type gives way to the range, with a warning since a request
// is not honoured; an obeyed one stands, with a warning.
// CHECK-LABEL: func.func @prefer_and_obey
// CHECK: tosa.mul {{.*}}compute = f32{{.*}}reason = range
// CHECK: tosa.add {{.*}}compute = f16{{.*}}reason = region
func.func @prefer_and_obey(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %a = precision.region f16 prefer (%in = %x : tensor<4xf32>) -> tensor<4xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %big = "tosa.const"() <{values = dense<50000.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    // expected-warning @+1 {{tosa.mul promoted from 'f16' to 'f32': its result range [50000, 100000] exceeds f16's largest finite value 65504}}
    %y = tosa.mul %in, %big, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    precision.yield %y : tensor<4xf32>
  }
  %b = precision.region f16 obey (%in = %a : tensor<4xf32>) -> tensor<4xf32> {
    // expected-warning @+1 {{tosa.add computes in 'f16' as required, but its operand #0 range [50000, 100000] exceeds f16's largest finite value 65504: it will overflow}}
    %y = tosa.add %in, %in : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    precision.yield %y : tensor<4xf32>
  }
  return %b : tensor<4xf32>
}

// -----

// A contraction stores in its consumers' type when they all agree and its
// accumulator holds that type; otherwise in its compute type.
// CHECK-LABEL: func.func @storage_follows_consumers
// CHECK: %[[M1:.*]] = tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f32
// CHECK: %[[M2:.*]] = tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f16
// CHECK: tosa.exp %[[M1]] {{.*}}compute = f32
// CHECK: tosa.exp %[[M2]] {{.*}}compute = f32
// CHECK: tosa.abs %[[M2]] {{.*}}compute = f16
func.func @storage_follows_consumers(%a: tensor<1x2x2xf32> loc("x")) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m1 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %m2 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %e1 = tosa.exp %m1 : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %e2 = tosa.exp %m2 : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %n2 = tosa.abs %m2 : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %e1, %e2, %n2 : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>
}
