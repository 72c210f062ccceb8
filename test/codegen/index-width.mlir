// Kernels index in 32 bits unless some index space reaches 2^31 elements:
// this 2^31-element input keeps every kernel's indices 64-bit, as the plan
// says (emit-cuda.mlir shows the 32-bit form).
// RUN: prec-opt %s --prec-plan-engine | FileCheck %s --check-prefix=PLAN
// PLAN: func.func @main{{.*}}engine.index_bitwidth = 64 : i64
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=wide
// RUN: FileCheck %s < %t/wide.cu
// CHECK: __global__ void k0_exp(const float *__restrict__ in0, float *__restrict__ out)
// CHECK: const long long base = blockIdx.x * 1024LL + threadIdx.x;
// The blocks cover the elements exactly: no bound check.
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: long long i = base + k * 256LL;
// CHECK-NEXT: long long o0 = i;
// CHECK: prec_launch(e->early_launch, k0_exp, 2097152, 256, 0, stream, 
func.func @main(%x: tensor<2147483648xf32>) -> tensor<2147483648xf32> {
  %y = tosa.exp %x : (tensor<2147483648xf32>) -> tensor<2147483648xf32> loc("exp")
  return %y : tensor<2147483648xf32>
}
