// TRTorch's explicit layer precision example, in TOSA (NHWC): conv1 runs in
// whatever the policy allows, conv2 is pinned to f16 by a precision.region
// (TRTorch's start_setting_precision / stop_setting_precision), then max pool
// and ReLU. Only f32 is enabled (TRTorch's default enabled_precisions), so
// conv2 is the one op in f16; the target is an H100.
module attributes {precision.policy = #precision.policy<typing = weak, enabled = [], constraints = prefer, target = "sm_90">} {
  func.func @forward(%x: tensor<1x16x16x3xf32>) -> tensor<1x12x12x3xf32> {
    %w1 = "tosa.const"() <{values = dense<[[[[0.10, -0.20, 0.05], [0.00, 0.30, -0.10], [0.20, 0.10, 0.00]], [[-0.10, 0.20, 0.10], [0.05, -0.05, 0.20], [0.10, 0.00, -0.20]], [[0.00, 0.10, 0.10], [0.20, -0.10, 0.00], [-0.05, 0.05, 0.10]]], [[[0.20, 0.00, -0.10], [0.10, 0.10, 0.10], [-0.20, 0.05, 0.00]], [[0.00, -0.10, 0.20], [0.30, 0.00, -0.05], [0.10, 0.20, 0.10]], [[-0.10, 0.00, 0.05], [0.00, 0.20, 0.10], [0.10, -0.10, 0.20]]], [[[0.05, 0.05, 0.05], [-0.10, 0.20, 0.00], [0.10, 0.00, 0.30]], [[0.20, -0.20, 0.00], [0.00, 0.10, -0.10], [0.05, 0.10, 0.00]], [[0.10, 0.10, -0.05], [0.00, 0.00, 0.20], [-0.10, 0.30, 0.10]]]]> : tensor<3x3x3x3xf32>}> : () -> tensor<3x3x3x3xf32>
    %b1 = "tosa.const"() <{values = dense<[0.01, -0.02, 0.03]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %conv1 = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x3xf32>, tensor<3x3x3x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x14x14x3xf32> loc("conv1")

    %conv2 = precision.region f16 (%in = %conv1 : tensor<1x14x14x3xf32>) -> tensor<1x12x12x3xf32> {
      %w2 = "tosa.const"() <{values = dense<[[[[0.20, 0.10, 0.00], [-0.10, 0.00, 0.10], [0.05, 0.20, -0.05]], [[0.10, -0.10, 0.20], [0.00, 0.30, 0.00], [0.10, 0.05, 0.10]], [[-0.20, 0.10, 0.00], [0.10, 0.00, 0.20], [0.00, -0.05, 0.10]]], [[[0.00, 0.20, 0.10], [0.10, -0.20, 0.00], [0.30, 0.00, 0.05]], [[0.05, 0.10, -0.10], [0.20, 0.00, 0.10], [-0.10, 0.10, 0.00]], [[0.10, 0.00, 0.20], [0.00, 0.10, -0.20], [0.20, 0.05, 0.00]]], [[[0.10, -0.05, 0.00], [0.00, 0.20, 0.10], [-0.10, 0.00, 0.30]], [[0.20, 0.10, 0.05], [0.10, -0.10, 0.00], [0.00, 0.20, 0.10]], [[0.05, 0.00, -0.10], [0.10, 0.10, 0.00], [0.00, 0.30, -0.05]]]]> : tensor<3x3x3x3xf32>}> : () -> tensor<3x3x3x3xf32>
      %b2 = "tosa.const"() <{values = dense<[0.00, 0.01, -0.01]> : tensor<3xf32>}> : () -> tensor<3xf32>
      %zp2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %y = tosa.conv2d %in, %w2, %b2, %zp2, %zp2 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x14x14x3xf32>, tensor<3x3x3x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x12x12x3xf32> loc("conv2")
      precision.yield %y : tensor<1x12x12x3xf32>
    }

    %pool = tosa.max_pool2d %conv2 {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x12x12x3xf32>) -> tensor<1x12x12x3xf32> loc("pool")
    %relu = tosa.clamp %pool {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x12x12x3xf32>) -> tensor<1x12x12x3xf32> loc("relu")
    return %relu : tensor<1x12x12x3xf32>
  }
}
