// f16 and bf16 additions, subtractions, multiplications and negations run
// in their own type (__hadd_rn, __hsub_rn, __hmul_rn: the forms nvcc never
// contracts into an fma; __hneg): the hardware rounds each exactly as the
// f32 operation rounded to 16 bits would (f32's 24 bits make the double
// rounding innocuous), with no conversions between them. 16-bit inputs are
// loaded as they are and widened only where an op reads them as float (the
// erf); a 16-bit result of such an op enters the next exact op rounded once
// (__float2half_rn); constants are 16-bit literals; a root computed in its
// type is stored as it is. f32 keeps __fadd_rn.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=half
// RUN: FileCheck %s --implicit-check-not="__hadd(" --implicit-check-not="__hsub(" --implicit-check-not="__hmul(" < %t/half.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/half.cu -o %t/half.o %}

// GELU as BERT's exports write it, in f16.
// CHECK: // fused: arith.divf
// CHECK-NEXT: // fused: tosa.erf
// CHECK: // tosa.mul gelu
// CHECK-NEXT: __global__ void k0_mul(const __half *__restrict__ in0, __half *__restrict__ out) {
// CHECK: __half v0[4];
// CHECK: v0[k] = in0[o0];
// CHECK: float a0 = __half2float(v0[k]);
// CHECK: out[i] = __hmul_rn((__hmul_rn((v0[k]), (__hadd_rn((__float2half_rn(erff((__half2float((__float2half_rn(__fmul_rn((a0), 0x1.6a13cep-1f)))))))), (__ushort_as_half((unsigned short)0x3c00U)))))), (__ushort_as_half((unsigned short)0x3800U)));

// bf16: the same intrinsics on __nv_bfloat16, negation and subtraction.
// CHECK: __global__ void k1_sub(const __nv_bfloat16 *__restrict__ in0, const __nv_bfloat16 *__restrict__ in1, __nv_bfloat16 *__restrict__ out) {
// CHECK: out[i] = __hsub_rn((__hneg((v0[k]))), (v1[k]));

// f32 stays in f32; a cast to f16 enters __hadd rounded once.
// CHECK: __global__ void k2_add(const float *__restrict__ in0, const __half *__restrict__ in1, __half *__restrict__ out) {
// CHECK: out[i] = __hadd_rn((__float2half_rn((__fadd_rn((a0), (a0))))), (v1[k]));
func.func @main(%x: tensor<4x256xf16>, %b: tensor<4x256xbf16>, %c: tensor<4x256xbf16>, %w: tensor<4x256xf32>, %h: tensor<4x256xf16>) -> (tensor<4x256xf16>, tensor<4x256xbf16>, tensor<4x256xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %root2 = arith.constant dense<1.414> : tensor<4x256xf16>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %bzp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %d = arith.divf %x, %root2 : tensor<4x256xf16>
  %e = tosa.erf %d : (tensor<4x256xf16>) -> tensor<4x256xf16>
  %s = tosa.add %e, %one : (tensor<4x256xf16>, tensor<1x1xf16>) -> tensor<4x256xf16>
  %m = tosa.mul %x, %s, %shift : (tensor<4x256xf16>, tensor<4x256xf16>, tensor<1xi8>) -> tensor<4x256xf16>
  %g = tosa.mul %m, %half, %shift : (tensor<4x256xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<4x256xf16> loc("gelu")
  %n = tosa.negate %b, %bzp, %bzp : (tensor<4x256xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<4x256xbf16>
  %t = tosa.sub %n, %c : (tensor<4x256xbf16>, tensor<4x256xbf16>) -> tensor<4x256xbf16>
  %ww = tosa.add %w, %w : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
  %wh = tosa.cast %ww : (tensor<4x256xf32>) -> tensor<4x256xf16>
  %a = tosa.add %wh, %h : (tensor<4x256xf16>, tensor<4x256xf16>) -> tensor<4x256xf16>
  return %g, %t, %a : tensor<4x256xf16>, tensor<4x256xbf16>, tensor<4x256xf16>
}
