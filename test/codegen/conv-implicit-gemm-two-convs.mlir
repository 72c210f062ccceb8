// A residual add of two dequantized 1x1 int8 convolutions: the later one's
// epilogue computes the add, and the earlier one's its dequantization to f16
// (not int32 accumulators), which the later one loads ahead as 16-byte runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=two
// RUN: FileCheck %s < %t/two.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/two.cu -o %t/two.o %}

// CHECK: // tosa.cast 'main.half': the epilogue of tosa.conv2d main
// CHECK-NEXT: struct [[MAIN:k[0-9]+_cast_epilogue]] {
// CHECK-NEXT: using Output = __half;
// CHECK-NEXT: __half *out0;
// CHECK: // tosa.add 'residual': the epilogue of tosa.conv2d shortcut
// CHECK-NEXT: struct [[SHORTCUT:k[0-9]+_add_epilogue]] {
// CHECK-NEXT: using Output = __half;
// CHECK-NEXT: const __half *__restrict__ in0;
// CHECK: struct Loaded {
// CHECK-NEXT: __align__(16) __half v0[8];
// CHECK: reinterpret_cast<uint4 *>(loaded.v0)[0] = reinterpret_cast<const uint4 *>(in0 + i0)[0];
// CHECK-NOT: conv2d_epilogue
// CHECK: prec_conv_s8<64, true, {{k[0-9]+_[a-z]+_geometry}}, [[MAIN]]>{{.*}}[[MAIN]]{((__half *)(e->arena + [[F16:[0-9]+]]))}
// CHECK: prec_conv_s8<64, true, {{k[0-9]+_[a-z]+_geometry}}, [[SHORTCUT]]>{{.*}}[[SHORTCUT]]{((__half *)(e->arena + [[F16]])), ((__half *)bindings[2])}
func.func @main(%x: tensor<2x4x4x32xi8> loc("x"), %y: tensor<2x4x4x16xi8> loc("y")) -> tensor<2x4x4x64xf16> {
  %w = "tosa.const"() <{values = dense<3> : tensor<64x1x1x32xi8>}> : () -> tensor<64x1x1x32xi8>
  %w2 = "tosa.const"() <{values = dense<-1> : tensor<64x1x1x16xi8>}> : () -> tensor<64x1x1x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<64xi32>}> : () -> tensor<64xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %scale2 = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("main")
  %f = tosa.cast %c : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("main.convert")
  %m = tosa.mul %f, %scale, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("main.dequantize")
  %h = tosa.cast %m : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf16> loc("main.half")
  %d = tosa.conv2d %y, %w2, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x4x16xi8>, tensor<64x1x1x16xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4x4x64xi32> loc("shortcut")
  %g = tosa.cast %d : (tensor<2x4x4x64xi32>) -> tensor<2x4x4x64xf32> loc("shortcut.convert")
  %n = tosa.mul %g, %scale2, %shift : (tensor<2x4x4x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<2x4x4x64xf32> loc("shortcut.dequantize")
  %k = tosa.cast %n : (tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf16> loc("shortcut.half")
  %a = tosa.add %h, %k : (tensor<2x4x4x64xf16>, tensor<2x4x4x64xf16>) -> tensor<2x4x4x64xf16> loc("residual")
  return %a : tensor<2x4x4x64xf16>
}
