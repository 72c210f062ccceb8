// An elementwise chain across a reshape is one kernel. The ops before the
// reshape read their inputs at their own shape (2x3x4: the bias's
// coordinates come from the flat index split by it, in rem1), the op after
// it at the result's (1x6x4: the column's, in rem); no buffer holds the
// product.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=through
// RUN: FileCheck %s < %t/through.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/through.cu -o %t/through.o %}
// CHECK: // fused: tosa.mul scale
// CHECK-NEXT: // tosa.add shift
// CHECK-NEXT: __global__ void k0_add(const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, float *__restrict__ out) {
// CHECK: int o2 = 0;
// CHECK-NEXT: int rem = i;
// CHECK-NEXT: rem /= 4;
// CHECK-NEXT: { int c = rem % 6; o2 += c * 1; }
// CHECK-NEXT: int o0 = i;
// CHECK-NEXT: int o1 = 0;
// CHECK-NEXT: int rem1 = i;
// CHECK-NEXT: { int c = rem1 % 4; o1 += c * 1; }
// CHECK-NEXT: v0[k] = (in0[o0]);
// CHECK-NEXT: v1[k] = (in1[o1]);
// CHECK-NEXT: v2[k] = (in2[o2]);
// CHECK: float r = __fadd_rn((__fmul_rn((a0), (a1))), (a2));
// CHECK: prec_launch(e->early_launch, k0_add, 1, 256, 0, stream, ((float *)bindings[0]), ((float *)bindings[1]), ((float *)bindings[2]), ((float *)bindings[3]));
func.func @main(%x: tensor<2x3x4xf32>, %bias: tensor<1x1x4xf32>, %column: tensor<1x6x1xf32>) -> tensor<1x6x4xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %x, %bias, %shift : (tensor<2x3x4xf32>, tensor<1x1x4xf32>, tensor<1xi8>) -> tensor<2x3x4xf32> loc("scale")
  %shape = tosa.const_shape {values = dense<[1, 6, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %m, %shape : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32> loc("merge")
  %a = tosa.add %r, %column : (tensor<1x6x4xf32>, tensor<1x6x1xf32>) -> tensor<1x6x4xf32> loc("shift")
  return %a : tensor<1x6x4xf32>
}
