// The signature changes only when io-types asks; then the casts at the
// bindings disappear.
// RUN: prec-opt %s --prec-legalize="enabled=f16" | FileCheck %s --check-prefix=KEEP
// RUN: prec-opt %s --prec-legalize="enabled=f16 io-types=x:f16,result*:f16" | FileCheck %s --check-prefix=IO

// KEEP: func.func @f(%arg0: tensor<4xf32>{{.*}}) -> tensor<4xf32>
// KEEP-COUNT-2: tosa.cast
// IO: func.func @f(%arg0: tensor<4xf16>{{.*}}) -> tensor<4xf16>
// IO-NOT: tosa.cast
// IO: %[[A:.*]] = tosa.abs %arg0 {{.*}}compute = f16
// IO-NOT: tosa.cast
// IO: return %[[A]] : tensor<4xf16>
func.func @f(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
