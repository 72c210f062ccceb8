// --emit-cuda plans only the function the engine computes, @main: another
// function, here one no engine could hold, is left alone.
// RUN: rm -rf %t && prec-translate --emit-cuda %s --output-dir=%t
// RUN: FileCheck %s < %t/engine.cu
// CHECK: __global__ void k0_exp
// RUN: not prec-opt %s --prec-plan-engine 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: error: the engine plan needs statically shaped tensors, not 'tensor<?xf32>'
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @helper(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = tosa.exp %x : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
