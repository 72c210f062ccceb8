// A linear layer whose matmul is pinned to f8 E4M3 (@f8) or i8 (@i8) by a
// precision.region with input_range [-4, 4], the bias added outside in f16.
func.func @f8(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region f8E4M3FN obey output f16 input_range [-4.0, 4.0] output_range [-16.0, 16.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5], [0.3, -1.1, 0.2], [1.3, 1.9, -0.7], [0.1, 0.05, 1.4], [-1.7, 0.6, 0.45]]]> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  %b = "tosa.const"() <{values = dense<[[[0.1, 0.2, 0.3]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %yb = tosa.add %y, %b : (tensor<1x4x3xf32>, tensor<1x1x3xf32>) -> tensor<1x4x3xf32> loc("fc.bias")
  return %yb : tensor<1x4x3xf32>
}

func.func @i8(%x: tensor<1x4x8xf32> loc("x")) -> tensor<1x4x3xf32> {
  %y = precision.region i8 obey output f16 input_range [-4.0, 4.0] output_range [-16.0, 16.0] (%a = %x : tensor<1x4x8xf32>) -> tensor<1x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5], [-2.0, 0.75, 0.5], [0.3, -1.1, 0.2], [1.3, 1.9, -0.7], [0.1, 0.05, 1.4], [-1.7, 0.6, 0.45]]]> : tensor<1x8x3xf32>}> : () -> tensor<1x8x3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32> loc("fc")
    precision.yield %h : tensor<1x4x3xf32>
  }
  %b = "tosa.const"() <{values = dense<[[[0.1, 0.2, 0.3]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %yb = tosa.add %y, %b : (tensor<1x4x3xf32>, tensor<1x1x3xf32>) -> tensor<1x4x3xf32> loc("fc.bias")
  return %yb : tensor<1x4x3xf32>
}

// A 3x3 convolution (pad 1) pinned the same ways: input range [-2, 2].
func.func @f8_conv(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x4x4x3xf32> {
  %y = precision.region f8E4M3FN obey output f16 input_range [-2.0, 2.0] output_range [-16.0, 16.0] (%a = %x : tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[[0.5, -0.3], [0.2, 0.1], [-0.7, 0.4]], [[0.3, 0.9], [-0.2, 0.6], [0.05, -0.4]], [[0.8, -0.1], [0.35, 0.25], [-0.6, 0.15]]], [[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], [[-0.1, -0.2], [-0.3, -0.4], [-0.5, -0.6]], [[0.7, 0.0], [0.0, 0.7], [0.2, -0.2]]], [[[1.5, -1.0], [0.0, 0.5], [0.25, -0.75]], [[0.6, 0.6], [-0.9, 0.3], [0.45, 0.1]], [[-0.05, 0.95], [0.4, -0.35], [0.2, 0.3]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
    %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32> loc("conv")
    precision.yield %c : tensor<1x4x4x3xf32>
  }
  return %y : tensor<1x4x4x3xf32>
}

func.func @i8_conv(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x4x4x3xf32> {
  %y = precision.region i8 obey output f16 input_range [-2.0, 2.0] output_range [-16.0, 16.0] (%a = %x : tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
    %w = "tosa.const"() <{values = dense<[[[[0.5, -0.3], [0.2, 0.1], [-0.7, 0.4]], [[0.3, 0.9], [-0.2, 0.6], [0.05, -0.4]], [[0.8, -0.1], [0.35, 0.25], [-0.6, 0.15]]], [[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], [[-0.1, -0.2], [-0.3, -0.4], [-0.5, -0.6]], [[0.7, 0.0], [0.0, 0.7], [0.2, -0.2]]], [[[1.5, -1.0], [0.0, 0.5], [0.25, -0.75]], [[0.6, 0.6], [-0.9, 0.3], [0.45, 0.1]], [[-0.05, 0.95], [0.4, -0.35], [0.2, 0.3]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
    %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32> loc("conv")
    precision.yield %c : tensor<1x4x4x3xf32>
  }
  return %y : tensor<1x4x4x3xf32>
}
