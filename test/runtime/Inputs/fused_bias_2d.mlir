// An ONNX-style Linear on a 2-D activation: a MatMul layer of three ops
// (reshape, matmul, reshape) and an Add layer whose bias prec-fuse-bias adds
// in the matmul's f32 accumulator while both run low (the reshape moving
// after the add).
func.func @main(%x: tensor<4x16xf32> loc("x")) -> tensor<4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.1> : tensor<1x16x8xf32>}> : () -> tensor<1x16x8xf32>
  %b = "tosa.const"() <{values = dense<0.3> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s3 : (tensor<4x16xf32>, !tosa.shape<3>) -> tensor<1x4x16xf32> loc("fc/MatMul")
  %1 = tosa.matmul %0, %w, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32> loc("fc/MatMul")
  %2 = tosa.reshape %1, %s2 : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32> loc("fc/MatMul")
  %3 = tosa.add %2, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32> loc("fc/Add")
  %4 = tosa.tanh %3 : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("act")
  return %4 : tensor<4x8xf32>
}
