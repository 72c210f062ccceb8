// prec-plan-batch on its own: which inputs carry a dynamic batch and which
// values scale with it.
// RUN: prec-opt %s --prec-plan-batch="batch=1:2:4" | FileCheck %s
// RUN: prec-opt %s --prec-plan-batch | FileCheck %s --check-prefix=STATIC
// RUN: prec-opt %s --prec-plan-batch="batch=1:2:4 batch-inputs=y" | FileCheck %s --check-prefix=NAMED
// RUN: not prec-opt %s --prec-plan-batch="batch=1:2:4 batch-inputs=nope" 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not prec-opt %s --prec-plan-batch="batch=1:2:8" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not prec-opt %s --prec-plan-batch="batch-inputs=x" 2>&1 | FileCheck %s --check-prefix=NEEDS

// Both inputs of size 4 carry the batch, which the reshape moves to the
// matmul's rows; the shared weight and the bias do not, and a plan already
// there is replaced.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: attributes {engine.batched_inputs = array<i64: 0, 1>}
// CHECK: "tosa.const"
// CHECK-NOT: batch_dim
// CHECK: tosa.reshape {{.*}}engine.batch_dim = 1 : i64
// CHECK: tosa.matmul {{.*}}engine.batch_dim = 1 : i64
// CHECK: tosa.add {{.*}}engine.batch_dim = 1 : i64
// CHECK: tosa.exp {{.*}}engine.batch_dim = 0 : i64
// STATIC-LABEL: func.func @linear
// STATIC-NOT: engine.batch
// NAMED-LABEL: func.func @linear
// NAMED-SAME: attributes {engine.batched_inputs = array<i64: 1>}
// NAMED-NOT: tosa.matmul {{.*}}batch_dim
// NAMED: tosa.exp {{.*}}engine.batch_dim = 0 : i64
// NOPE: error: --batch-inputs names 'nope', which is not an input
// NONE: error: dynamic batch: no input has the largest batch, 8, as its dimension 0
// NEEDS: error: --batch-inputs needs --batch

func.func @linear(%x: tensor<4x8xf32> {precision.name = "x"}, %y: tensor<4x8xf32> {precision.name = "y"}) -> (tensor<1x4x8xf32>, tensor<4x8xf32>) {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x8x8xf32>}> {engine.batch_dim = 0 : i64} : () -> tensor<1x8x8xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %x, %shape : (tensor<4x8xf32>, !tosa.shape<3>) -> tensor<1x4x8xf32>
  %p = tosa.matmul %r, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %s = tosa.add %p, %b : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %e = tosa.exp %y : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %e : tensor<1x4x8xf32>, tensor<4x8xf32>
}
