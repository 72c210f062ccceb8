// A convolution followed by a ReLU becomes one GEMM with the RELU_BIAS
// epilogue writing the ReLU's result; the clamp gets no kernel. A ReLU
// after an add (not a convolution) keeps its kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s -o %t/conv_relu.cu
// RUN: FileCheck %s < %t/conv_relu.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/conv_relu.cu -o %t/conv_relu.o %}
// CHECK-NOT: // tosa.clamp conv1.relu
// im2col: each thread gathers four elements before it stores any.
// CHECK: // im2col for tosa.conv2d conv1
// CHECK: v[u] = inside ? in0[((n * 8 + iy) * 8 + ix) * 3 + c] : (float)0.0f;
// CHECK: out[i] = v[u];
// CHECK: // fused: tosa.add residual
// CHECK-NEXT: // tosa.clamp out.relu
// CHECK: cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
// CHECK: cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
// CHECK: // tosa.conv2d 'conv1': im2col, then a GEMM 64x4x27 with the bias + ReLU epilogue
// CHECK: // tosa.conv2d 'conv2': im2col, then a GEMM 64x4x36 with the bias epilogue
// CHECK: // tosa.clamp 'out.relu'
func.func @main(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w1 = "tosa.const"() <{values = dense<0.1> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %w2 = "tosa.const"() <{values = dense<-0.1> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32> loc("conv1")
  %r1 = tosa.clamp %c1 {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("conv1.relu")
  %c2 = tosa.conv2d %r1, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32> loc("conv2")
  %s = tosa.add %c2, %r1 : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("residual")
  %y = tosa.clamp %s {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("out.relu")
  return %y : tensor<1x8x8x4xf32>
}
