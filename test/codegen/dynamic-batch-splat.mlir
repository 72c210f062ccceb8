// A splat constant of the batched shape (an exporter's scalar broadcast to
// the result, as torch.onnx's legacy GELU divides by sqrt(2)) does not stop
// a dynamic batch: it reads the same at every index, so the kernel takes it
// as an immediate and covers `extent` elements at any batch.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" -o %t/legal.mlir
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=gelu --batch=1:2:4
// RUN: FileCheck %s < %t/gelu.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/gelu.cu -o %t/gelu.o %}

// CHECK: __global__ void k0_{{[a-z_]+}}(const float *__restrict__ in0, float *__restrict__ out, int extent) {
// CHECK: erff({{.*}}__fmul_rn({{.*}}, 0x1.6a13cep-1f)
// CHECK: extern "C" int gelu_set_batch(
func.func @main(%x: tensor<4x8xf32> loc("x")) -> tensor<4x8xf32> {
  %sqrt2 = "tosa.const"() <{values = dense<1.41421354> : tensor<4x8xf32>}> : () -> tensor<4x8xf32> loc("sqrt2")
  %d = arith.divf %x, %sqrt2 : tensor<4x8xf32> loc("Div")
  %e = tosa.erf %d : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("Erf")
  return %e : tensor<4x8xf32>
}
