// The signature changes only when io-types asks; then the casts at the
// bindings disappear.
// RUN: prec-opt %s --prec-legalize="enabled=f16" | FileCheck %s --check-prefix=KEEP
// RUN: prec-opt %s --prec-legalize="enabled=f16 io-types=x:f16,result*:f16" | FileCheck %s --check-prefix=IO
// RUN: prec-opt %s --prec-legalize="enabled=f16 io-types=y:f16" | FileCheck %s --check-prefix=NAMED

// KEEP-LABEL: func.func @f(%arg0: tensor<4xf32>{{.*}}) -> tensor<4xf32>
// KEEP-COUNT-2: tosa.cast
// IO-LABEL: func.func @f(%arg0: tensor<4xf16>{{.*}}) -> tensor<4xf16>
// IO-NOT: tosa.cast
// IO: %[[A:.*]] = tosa.abs %arg0 {{.*}}compute = f16
// IO-NOT: tosa.cast
// IO: return %[[A]] : tensor<4xf16>
func.func @f(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// An output named by precision.name is matched by its name.
// NAMED-LABEL: func.func @g(%arg0: tensor<4xf32>) -> (tensor<4xf16> {precision.name = "y"})
// NAMED: %[[X:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
// NAMED: %[[N:.*]] = tosa.negate %[[X]]
// NAMED-NOT: tosa.cast
// NAMED: return %[[N]] : tensor<4xf16>
func.func @g(%x: tensor<4xf32>) -> (tensor<4xf32> {precision.name = "y"}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
