// A convolution followed by a ReLU becomes one GEMM with the RELU_BIAS
// epilogue writing the ReLU's result; the clamp gets no kernel. A ReLU
// after an add (not a convolution) keeps its kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --conv=im2col --output-dir=%t --engine-name=conv_relu
// RUN: FileCheck %s < %t/conv_relu.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/conv_relu.cu -o %t/conv_relu.o %}
// Through cuDNN (--conv=cudnn), the ReLU is its activation: the fastest
// algorithm cuDNN measures runs conv1; conv2 only adds its bias.
// RUN: prec-translate --emit-cuda %s --conv=cudnn --output-dir=%t --engine-name=conv_relu_cudnn
// RUN: FileCheck %s --check-prefix=CUDNN < %t/conv_relu_cudnn.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/conv_relu_cudnn.cu -o %t/conv_relu_cudnn.o %}
// CUDNN-NOT: // tosa.clamp conv1.relu
// CUDNN: cudnnSetActivationDescriptor(e->ca[[C1:[0-9]+]], CUDNN_ACTIVATION_RELU,
// CUDNN-NEXT: prec_find_conv_algo(e->dnn, e->cx[[C1]], e->cw[[C1]], e->cc[[C1]], e->cy[[C1]], PREC_DNN_WORKSPACE_LIMIT, &e->calgo[[C1]])
// CUDNN: cudnnSetActivationDescriptor(e->ca[[C2:[0-9]+]], CUDNN_ACTIVATION_IDENTITY,
// CUDNN: // tosa.conv2d 'conv1': 3x3, cuDNN with the bias and ReLU in the same call
// CUDNN: // tosa.conv2d 'conv2': 3x3, cuDNN with the bias in the same call
// CUDNN: // tosa.clamp 'out.relu'
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
