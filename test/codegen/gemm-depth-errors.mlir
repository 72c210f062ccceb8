// A program legalized for the CPU may hold an i8 GEMM whose K is not a
// multiple of 16, which cuBLASLt has no algorithm for (the engine's create
// failed with 20002): the emitter refuses it when it writes the engine.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize | not prec-translate --emit-cuda --output-dir=%t --engine-name=e 2>&1 | FileCheck %s
// CHECK: error: the CUDA emitter cannot generate 'tosa.matmul': cuBLASLt's 8-bit GEMMs need K, the reduced dimension, to be a multiple of 16; it is 8
module attributes {precision.policy = #precision.policy<target = "cpu">} {
  func.func @main(%a: tensor<1x4x8xf32> loc("a")) -> tensor<1x4x4xf32> {
    %r = precision.region i8 obey input_range [-1.0, 1.0] (%x = %a : tensor<1x4x8xf32>) -> tensor<1x4x4xf32> {
      %w = "tosa.const"() <{values = dense<0.5> : tensor<1x8x4xf32>}> : () -> tensor<1x8x4xf32>
      %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32> loc("fc")
      precision.yield %m : tensor<1x4x4xf32>
    }
    return %r : tensor<1x4x4xf32>
  }
}
