// Clamps whose lower bound the input already meets
// (prec-mark-met-lower-bounds) leave it out of their kernels: a ReLU6 after
// a ReLU, in f16, is the ReLU's __hmax and the ReLU6's __hmin alone; the
// i8 quantization of a scaled ReLU has no fmaxf at -127, and converts with
// the one saturating instruction (its input is never NaN).
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=met
// RUN: FileCheck %s < %t/met.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/met.cu -o %t/met.o %}
// CHECK: // tosa.clamp relu6
// CHECK: __hmin((__hmax({{.*}}, __ushort_as_half((unsigned short)0x0U))), __ushort_as_half((unsigned short)0x4600U))
// CHECK: // tosa.cast quantize
// CHECK: float r = ((__fmul_rn((fmaxf((a0), 0x0p+0f)), (0x1.fcp+6f))));
// CHECK-NEXT: out[i] = prec_round_i8(r);
func.func @main(%x: tensor<4x64xf16>, %y: tensor<4x64xf32>) -> (tensor<4x64xf16>, tensor<4x64xi8>) {
  %r = tosa.clamp %x {max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<4x64xf16>) -> tensor<4x64xf16> loc("relu")
  %r6 = tosa.clamp %r {max_val = 6.0 : f16, min_val = 0.0 : f16} : (tensor<4x64xf16>) -> tensor<4x64xf16> loc("relu6")
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<127.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %a = tosa.clamp %y {max_val = 0x7F800000 : f32, min_val = 0.0 : f32} : (tensor<4x64xf32>) -> tensor<4x64xf32> loc("relu2")
  %s = tosa.mul %a, %scale, %shift : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32> loc("scale")
  %c = tosa.clamp %s {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<4x64xf32>) -> tensor<4x64xf32> loc("clamp")
  %q = tosa.cast %c : (tensor<4x64xf32>) -> tensor<4x64xi8> loc("quantize")
  return %r6, %q : tensor<4x64xf16>, tensor<4x64xi8>
}
