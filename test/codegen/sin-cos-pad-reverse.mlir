// The ops the precision passes classify but no bench model emits: sin and
// cos fuse into one elementwise kernel; reverse reads its axis backwards;
// pad writes its constant outside the input (rows padded 1 before and after,
// columns 0 before and 2 after).
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=scpr
// RUN: FileCheck %s < %t/scpr.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/scpr.cu -o %t/scpr.o %}
// CHECK: // fused: tosa.sin sin
// CHECK-NEXT: // tosa.cos cos
// CHECK: float r = cosf((sinf((a0))));
// CHECK: // tosa.reverse flip
// CHECK: int o0 = ((i / 3) * 3 + (2 - (i % 3)));
// CHECK: // tosa.pad pad
// CHECK: { int c = rem % 5; rem /= 5; int s = c - 0; inside = inside && s >= 0 && s < 3; o0 += s * 1; }
// CHECK-NEXT: { int c = rem % 4; rem /= 4; int s = c - 1; inside = inside && s >= 0 && s < 2; o0 += s * 3; }
// CHECK: out[i] = o0 < 0 ? (-0x1.4p+1f) : in0[o0];
// CHECK: prec_launch(e->early_launch, k0_cos, 1, 256, 0, stream, ((float *)bindings[0]), ((float *)(e->arena + 0)));
// CHECK: // tosa.reverse 'flip'
// CHECK: // tosa.pad 'pad'
// CHECK-NEXT: prec_launch(e->early_launch, k2_pad, 1, 256, 0, stream, ((float *)bindings[0]), ((float *)bindings[2]));
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x5xf32>) {
  %s = tosa.sin %x : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("sin")
  %c = tosa.cos %s : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("cos")
  %r = tosa.reverse %c {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("flip")
  %padding = tosa.const_shape {values = dense<[1, 1, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %fill = "tosa.const"() <{values = dense<-2.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %x, %padding, %fill : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x5xf32> loc("pad")
  return %r, %p : tensor<2x3xf32>, tensor<4x5xf32>
}
