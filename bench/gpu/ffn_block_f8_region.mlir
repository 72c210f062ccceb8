// The FFN block of the engine benchmark with both Linears pinned to f8 E4M3
// by precision.regions (x in [-7, 7], the GELU output in [-4, 4]), the
// rest as ffn_block.mlir. The weights are constants (quantization needs
// them): the resources ffn_w1 and ffn_w2 ([1, in, out] f16) are appended
// by the benchmark's generator, which fills them from a formula PyTorch
// evaluates too. Legalized with enabled=f16 io-types=*:f16 target=sm_90.
func.func @main(%x: tensor<2048x4096xf32> loc("x"),
                %b1: tensor<16384xf32> loc("b1"), %b2: tensor<4096xf32> loc("b2"),
                %gamma: tensor<4096xf32> loc("gamma"), %beta: tensor<4096xf32> loc("beta"))
    -> (tensor<2048x4096xf32> {precision.name = "y"}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rsqrt2 = "tosa.const"() <{values = dense<0.707106769> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv_n = "tosa.const"() <{values = dense<2.44140625e-04> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s_x = tosa.const_shape {values = dense<[1, 2048, 4096]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b1 = tosa.const_shape {values = dense<[1, 1, 16384]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_c = tosa.const_shape {values = dense<[1, 1, 4096]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_y = tosa.const_shape {values = dense<[2048, 4096]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s_x : (tensor<2048x4096xf32>, !tosa.shape<3>) -> tensor<1x2048x4096xf32>
  %b13 = tosa.reshape %b1, %s_b1 : (tensor<16384xf32>, !tosa.shape<3>) -> tensor<1x1x16384xf32>
  %b23 = tosa.reshape %b2, %s_c : (tensor<4096xf32>, !tosa.shape<3>) -> tensor<1x1x4096xf32>
  %g3 = tosa.reshape %gamma, %s_c : (tensor<4096xf32>, !tosa.shape<3>) -> tensor<1x1x4096xf32>
  %be3 = tosa.reshape %beta, %s_c : (tensor<4096xf32>, !tosa.shape<3>) -> tensor<1x1x4096xf32>
  %h = precision.region f8E4M3FN obey output f16 input_range [-7.0, 7.0] output_range [-16.0, 16.0] (%a = %x3 : tensor<1x2048x4096xf32>) -> tensor<1x2048x16384xf32> {
    %w1 = "tosa.const"() <{values = dense_resource<ffn_w1> : tensor<1x4096x16384xf16>}> : () -> tensor<1x4096x16384xf16>
    %w1f = tosa.cast %w1 : (tensor<1x4096x16384xf16>) -> tensor<1x4096x16384xf32>
    %zp1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %p = tosa.matmul %a, %w1f, %zp1, %zp1 : (tensor<1x2048x4096xf32>, tensor<1x4096x16384xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2048x16384xf32> loc("linear1")
    precision.yield %p : tensor<1x2048x16384xf32>
  }
  %hb = tosa.add %h, %b13 : (tensor<1x2048x16384xf32>, tensor<1x1x16384xf32>) -> tensor<1x2048x16384xf32> loc("linear1.bias")
  %scaled = tosa.mul %hb, %rsqrt2, %shift : (tensor<1x2048x16384xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x16384xf32> loc("gelu.scale")
  %erf = tosa.erf %scaled : (tensor<1x2048x16384xf32>) -> tensor<1x2048x16384xf32> loc("gelu.erf")
  %erf1 = tosa.add %erf, %one : (tensor<1x2048x16384xf32>, tensor<1x1x1xf32>) -> tensor<1x2048x16384xf32> loc("gelu.add")
  %gx = tosa.mul %hb, %erf1, %shift : (tensor<1x2048x16384xf32>, tensor<1x2048x16384xf32>, tensor<1xi8>) -> tensor<1x2048x16384xf32> loc("gelu.mul")
  %g = tosa.mul %gx, %half, %shift : (tensor<1x2048x16384xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x16384xf32> loc("gelu.half")
  %o = precision.region f8E4M3FN obey output f16 input_range [-4.0, 4.0] output_range [-16.0, 16.0] (%a = %g : tensor<1x2048x16384xf32>) -> tensor<1x2048x4096xf32> {
    %w2 = "tosa.const"() <{values = dense_resource<ffn_w2> : tensor<1x16384x4096xf16>}> : () -> tensor<1x16384x4096xf16>
    %w2f = tosa.cast %w2 : (tensor<1x16384x4096xf16>) -> tensor<1x16384x4096xf32>
    %zp2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %p = tosa.matmul %a, %w2f, %zp2, %zp2 : (tensor<1x2048x16384xf32>, tensor<1x16384x4096xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2048x4096xf32> loc("linear2")
    precision.yield %p : tensor<1x2048x4096xf32>
  }
  %ob = tosa.add %o, %b23 : (tensor<1x2048x4096xf32>, tensor<1x1x4096xf32>) -> tensor<1x2048x4096xf32> loc("linear2.bias")
  %r = tosa.add %ob, %x3 : (tensor<1x2048x4096xf32>, tensor<1x2048x4096xf32>) -> tensor<1x2048x4096xf32> loc("residual")
  %sum = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x2048x4096xf32>) -> tensor<1x2048x1xf32> loc("norm.sum")
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32> loc("norm.mean")
  %c = tosa.sub %r, %mean : (tensor<1x2048x4096xf32>, tensor<1x2048x1xf32>) -> tensor<1x2048x4096xf32> loc("norm.center")
  %c2 = tosa.mul %c, %c, %shift : (tensor<1x2048x4096xf32>, tensor<1x2048x4096xf32>, tensor<1xi8>) -> tensor<1x2048x4096xf32> loc("norm.square")
  %vsum = tosa.reduce_sum %c2 {axis = 2 : i32} : (tensor<1x2048x4096xf32>) -> tensor<1x2048x1xf32> loc("norm.var_sum")
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2048x1xf32> loc("norm.var")
  %ve = tosa.add %var, %eps : (tensor<1x2048x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2048x1xf32> loc("norm.eps")
  %inv = tosa.rsqrt %ve : (tensor<1x2048x1xf32>) -> tensor<1x2048x1xf32> loc("norm.rsqrt")
  %n = tosa.mul %c, %inv, %shift : (tensor<1x2048x4096xf32>, tensor<1x2048x1xf32>, tensor<1xi8>) -> tensor<1x2048x4096xf32> loc("norm.scale")
  %ng = tosa.mul %n, %g3, %shift : (tensor<1x2048x4096xf32>, tensor<1x1x4096xf32>, tensor<1xi8>) -> tensor<1x2048x4096xf32> loc("norm.gamma")
  %nb = tosa.add %ng, %be3 : (tensor<1x2048x4096xf32>, tensor<1x1x4096xf32>) -> tensor<1x2048x4096xf32> loc("norm.beta")
  %y = tosa.reshape %nb, %s_y : (tensor<1x2048x4096xf32>, !tosa.shape<2>) -> tensor<2048x4096xf32>
  return %y : tensor<2048x4096xf32>
}
