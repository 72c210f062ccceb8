// A 1x1 convolution with unit strides and no padding is a GEMM straight on
// its NHWC input (rows x C): no im2col kernel, no arena buffer. A strided
// 1x1 convolution (ResNet's downsampling shortcut) still gathers its rows
// with --conv=im2col (by default it runs through cuDNN).
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --conv=im2col --output-dir=%t --engine-name=pointwise
// RUN: FileCheck %s < %t/pointwise.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/pointwise.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/pointwise.cu -o %t/pointwise.o %}
// CHECK-NOT: im2col for tosa.conv2d expand
// CHECK: // im2col for tosa.conv2d shortcut
// CHECK-NOT: im2col for tosa.conv2d expand
// CHECK: // tosa.conv2d 'expand': 1x1, a GEMM 81x16x4 on the input with the bias epilogue
// CHECK-NEXT: PREC_CHECK_BLAS(cublasLtMatmul(e->lt, e->desc{{[0-9]+}}, &e->float_one, {{.*}}, ((float *)bindings[0]), e->lb{{[0-9]+}}, &e->float_zero, ((float *)bindings[1])
// CHECK: // tosa.conv2d 'shortcut': im2col, then a GEMM 25x8x4 with the bias epilogue
// CHECK-NEXT: prec_launch(e->early_launch, k{{[0-9]+}}_conv2d, 1, 256, 0, stream, ((float *)bindings[0]), ((float *)(e->arena + 0)));
// The results go straight to their bindings: the shortcut's 25x4 f32
// columns (400 bytes, in 256-byte blocks) are the only activation buffer.
// MANIFEST: "activation_bytes": 512,
func.func @main(%x: tensor<1x9x9x4xf32>) -> (tensor<1x9x9x16xf32>, tensor<1x5x5x8xf32>) {
  %w1 = "tosa.const"() <{values = dense<0.25> : tensor<16x1x1x4xf32>}> : () -> tensor<16x1x1x4xf32>
  %b1 = "tosa.const"() <{values = dense<0.5> : tensor<16xf32>}> : () -> tensor<16xf32>
  %w2 = "tosa.const"() <{values = dense<-0.5> : tensor<8x1x1x4xf32>}> : () -> tensor<8x1x1x4xf32>
  %b2 = "tosa.const"() <{values = dense<1.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %e = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x9x9x4xf32>, tensor<16x1x1x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x16xf32> loc("expand")
  %s = tosa.conv2d %x, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x9x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x8xf32> loc("shortcut")
  return %e, %s : tensor<1x9x9x16xf32>, tensor<1x5x5x8xf32>
}
