// RUN: prec-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg,prec-fuse-elementwise))" | FileCheck %s --check-prefix=ALL
// RUN: prec-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg,prec-fuse-elementwise{max-body-ops=4}))" | FileCheck %s --check-prefix=BOUNDED

// Four elementwise ops, each a generic of two body ops (the op and the
// yield). Unbounded they fuse into one body; bounded at four operations
// (producer and consumer bodies counted together), into pairs.
// ALL-LABEL: func.func @chain
// ALL: linalg.generic
// ALL: math.exp
// ALL-NEXT: math.tanh
// ALL-NEXT: math.exp
// ALL-NEXT: math.tanh
// ALL-NEXT: linalg.yield
// ALL-NOT: linalg.generic
// BOUNDED-LABEL: func.func @chain
// BOUNDED: linalg.generic
// BOUNDED: math.exp
// BOUNDED-NEXT: math.tanh
// BOUNDED-NEXT: linalg.yield
// BOUNDED: linalg.generic
// BOUNDED: math.exp
// BOUNDED-NEXT: math.tanh
// BOUNDED-NEXT: linalg.yield
// BOUNDED-NOT: linalg.generic
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %c = tosa.exp %b : (tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.tanh %c : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
