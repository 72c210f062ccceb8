// TOSA needs a convolution's stride to divide the span its windows cover,
// so importers crop the rows and columns no window reaches (ResNet-50's
// strided 1x1 downsamples read 55x55 of a 56x56 block output). An implicit
// GEMM reads the uncropped source in place (engine.read_through on the
// slice, no kernel for it), its geometry the source's rows and columns. A
// crop whose last row a window reads as padding (3x3, stride 2, padded:
// the source holds data there) stays a kernel of its own.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-lower-to-gpu --prec-plan-engine | FileCheck %s --check-prefix=PLAN
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=crop
// RUN: FileCheck %s < %t/crop.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/crop.cu -o %t/crop.o %}

// PLAN: tosa.slice {{.*}}engine.read_through{{.*}} -> tensor<2x7x7x32xi8>
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>
// PLAN: tosa.slice {{.*}}engine.kernel = {{.*}} -> tensor<2x7x7x32xi8>
// PLAN-NOT: engine.read_through

// CHECK-NOT: // tosa.slice downsample.crop
// CHECK: static constexpr prec_conv_geometry value{8, 8, 32, 4, 4, 64, 1, 1, 2, 2, 0, 0, 1, 1};
// CHECK: // tosa.slice padded.crop
// CHECK: static constexpr prec_conv_geometry value{7, 7, 32, 4, 4, 64, 3, 3, 2, 2, 1, 1, 1, 1};
// CHECK: // tosa.conv2d 'downsample': 1x1, an implicit GEMM 32x64x32
// CHECK: // tosa.conv2d 'padded': 3x3, an implicit GEMM 32x64x288
func.func @main(%x: tensor<2x8x8x32xi8> loc("x")) -> (tensor<2x4x4x64xi8>, tensor<2x4x4x64xi8>) {
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[2, 7, 7, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w = "tosa.const"() <{values = dense<1> : tensor<64x1x1x32xi8>}> : () -> tensor<64x1x1x32xi8>
  %w3 = "tosa.const"() <{values = dense<1> : tensor<64x3x3x32xi8>}> : () -> tensor<64x3x3x32xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %crop = tosa.slice %x, %start, %size : (tensor<2x8x8x32xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x7x7x32xi8> loc("downsample.crop")
  %c = tosa.conv2d %crop, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x7x7x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("downsample")
  %f = tosa.cast %c : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("downsample.convert")
  %m = tosa.mul %f, %scale, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("downsample.scale")
  %q = tosa.cast %m : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xi8> loc("downsample.quantize")
  %x2 = tosa.abs %x : (tensor<2x8x8x32xi8>) -> tensor<2x8x8x32xi8> loc("other")
  %crop2 = tosa.slice %x2, %start, %size : (tensor<2x8x8x32xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x7x7x32xi8> loc("padded.crop")
  %p = tosa.conv2d %crop2, %w3, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x7x7x32xi8>, tensor<64x3x3x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("padded")
  %pf = tosa.cast %p : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("padded.convert")
  %pm = tosa.mul %pf, %scale, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("padded.scale")
  %pq = tosa.cast %pm : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xi8> loc("padded.quantize")
  return %q, %pq : tensor<2x4x4x64xi8>, tensor<2x4x4x64xi8>
}
