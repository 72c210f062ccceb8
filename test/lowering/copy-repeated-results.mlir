// RUN: prec-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(prec-copy-repeated-results))" | FileCheck %s
// RUN: prec-opt %s --split-input-file --prec-lower-to-cpu | FileCheck %s --check-prefix=LOWERED

// A value returned twice: the second result is a copy, so that each
// out-parameter has its own writer.
// CHECK-LABEL: func.func @twice
// CHECK: %[[Y:.*]] = tosa.exp
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[Y]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<4xf32>)
// CHECK: return %[[Y]], %[[COPY]]
// LOWERED-LABEL: llvm.func @twice
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// An argument returned three times, with a dynamic dimension: the copies
// take their sizes from the value.
// CHECK-LABEL: func.func @argument
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>)
// CHECK: %[[DIM:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK: tensor.empty(%[[DIM]]) : tensor<?x3xf32>
// CHECK: %[[C1:.*]] = linalg.copy
// CHECK: tensor.empty
// CHECK: %[[C2:.*]] = linalg.copy
// CHECK: return %[[X]], %[[C1]], %[[C2]]
// LOWERED-LABEL: llvm.func @argument
func.func @argument(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  return %x, %x, %x : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}

// -----

// Distinct results are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @distinct(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}
