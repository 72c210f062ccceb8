// Two ONNX-style Linears, each a MatMul layer and an Add layer: at f16 the
// CPU and GPU pipelines add each bias in its matmul's f32 accumulator
// (prec-fuse-bias) only while both layers run low.
func.func @main(%x: tensor<1x4x16xf32> loc("x")) -> tensor<1x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w1 = "tosa.const"() <{values = dense<0.1> : tensor<1x16x8xf32>}> : () -> tensor<1x16x8xf32>
  %b1 = "tosa.const"() <{values = dense<0.3> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %w2 = "tosa.const"() <{values = dense<0.7> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %b2 = "tosa.const"() <{values = dense<0.9> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
  %0 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32> loc("fc1/MatMul")
  %1 = tosa.add %b1, %0 : (tensor<1x1x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32> loc("fc1/Add")
  %2 = tosa.tanh %1 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32> loc("act")
  %3 = tosa.matmul %2, %w2, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32> loc("fc2/MatMul")
  %4 = tosa.add %3, %b2 : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32> loc("fc2/Add")
  return %4 : tensor<1x4x8xf32>
}
