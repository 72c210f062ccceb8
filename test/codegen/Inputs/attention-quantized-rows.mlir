// The quantized-result attention of ../attention-quantized-result.mlir with
// head sizes 24 (query, keys and values): a warp per query row.
func.func @main(%q: tensor<4x8x24xf16>, %kt: tensor<4x24x8xf16>, %v: tensor<4x8x24xf16>, %mask: tensor<2x1x1x8xf16>) -> (tensor<4x8x24xf8E4M3FN>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x24xf16>, tensor<4x24x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x8xf32>
  %s16 = tosa.cast %s {precision.epilogue} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf16>
  %shape4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s16, %shape4 : (tensor<4x8x8xf16>, !tosa.shape<4>) -> tensor<2x2x8x8xf16>
  %x = tosa.mul %s4, %c, %shift : (tensor<2x2x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x8x8xf16>
  %y = tosa.add %x, %mask : (tensor<2x2x8x8xf16>, tensor<2x1x1x8xf16>) -> tensor<2x2x8x8xf16>
  %m = tosa.reduce_max %y {axis = 3 : i32} : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x1xf16>
  %d = tosa.sub %y, %m : (tensor<2x2x8x8xf16>, tensor<2x2x8x1xf16>) -> tensor<2x2x8x8xf16>
  %d32 = tosa.cast %d : (tensor<2x2x8x8xf16>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d32 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p16 = tosa.cast %p : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf16>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p16, %shape3 : (tensor<2x2x8x8xf16>, !tosa.shape<3>) -> tensor<4x8x8xf16>
  %o = tosa.matmul %p3, %v, %zp, %zp {precision.layer = "/encoder/layer.0/attention/self/MatMul_1"} : (tensor<4x8x8xf16>, tensor<4x8x24xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x24xf32>
  %o16 = tosa.cast %o {precision.epilogue} : (tensor<4x8x24xf32>) -> tensor<4x8x24xf16>
  %w = tosa.cast %o16 : (tensor<4x8x24xf16>) -> tensor<4x8x24xf32>
  %scale = "tosa.const"() <{values = dense<256.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %scaled = tosa.mul %w, %scale, %shift : (tensor<4x8x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x24xf32>
  %q8 = tosa.cast %scaled : (tensor<4x8x24xf32>) -> tensor<4x8x24xf8E4M3FN>
  return %q8 : tensor<4x8x24xf8E4M3FN>
}
