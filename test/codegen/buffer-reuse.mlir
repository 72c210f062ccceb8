// Kernels run in order on one stream, so a buffer is reused once its last
// reader has run: four transposes in a row need two 256-byte buffers, not
// three, and the last writes the output binding. A reshape aliases its
// input's buffer, which lives until the reshape's readers have run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=reuse
// RUN: FileCheck %s < %t/reuse.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/reuse.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/reuse.cu -o %t/reuse.o %}
// CHECK-LABEL: int reuse_enqueue(
// CHECK: // tosa.transpose 'first'
// CHECK-NEXT: prec_launch(e->early_launch, k0_transpose, {{.*}}, stream, ((float *)bindings[0]), ((float *)(e->arena + 0)));
// CHECK: // tosa.transpose 'second'
// CHECK-NEXT: prec_launch(e->early_launch, k1_transpose, {{.*}}, stream, ((float *)(e->arena + 0)), ((float *)(e->arena + 256)));
// 'first' is dead once 'second' has read it:
// CHECK: // tosa.transpose 'third'
// CHECK-NEXT: prec_launch(e->early_launch, k2_transpose, {{.*}}, stream, ((float *)(e->arena + 256)), ((float *)(e->arena + 0)));
// CHECK: // tosa.transpose 'fourth'
// CHECK-NEXT: prec_launch(e->early_launch, k3_transpose, {{.*}}, stream, ((float *)(e->arena + 0)), ((float *)bindings[1]));
// MANIFEST: "activation_bytes": 512,
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("first")
  %b = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("second")
  %shape64 = tosa.const_shape {values = dense<64> : tensor<1xindex>} : () -> !tosa.shape<1>
  %shape8x8 = tosa.const_shape {values = dense<8> : tensor<2xindex>} : () -> !tosa.shape<2>
  %flat = tosa.reshape %b, %shape64 : (tensor<8x8xf32>, !tosa.shape<1>) -> tensor<64xf32>
  %square = tosa.reshape %flat, %shape8x8 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<8x8xf32>
  %c = tosa.transpose %square {perms = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("third")
  %d = tosa.transpose %c {perms = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("fourth")
  return %d : tensor<8x8xf32>
}
