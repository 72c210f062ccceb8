// Average pooling sums its window: it accumulates in f32 whatever it
// computes in, as convolutions do, and its acc_type says so. bf16 has no
// accumulator of its own in TOSA (acc_type f32 only), so a bf16 pool that
// kept its compute type as accumulator did not verify.
// RUN: prec-opt %s --prec-legalize="enabled=bf16 target=sm_90" | FileCheck %s --check-prefix=BF16
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" | FileCheck %s --check-prefix=F16
// RUN: prec-run %s --policy "enabled=bf16 target=sm_90" --reference f32 --atol 0.02 --rtol 0 | FileCheck %s --check-prefix=CPU
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize="enabled=bf16 target=sm_90" -o %t/legal.mlir
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=pool
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/pool.cu -o %t/pool.o %}

// The f32 accumulator holds the f32 result the function returns, so the pool
// stores f32 (as a convolution would).
// BF16: tosa.avg_pool2d {{.*}}{acc_type = f32{{.*}}compute = bf16, accumulate = f32, storage = f32{{.*}} : (tensor<1x4x4x8xbf16>, {{.*}}) -> tensor<1x1x1x8xf32>
// F16: tosa.avg_pool2d {{.*}}{acc_type = f32{{.*}}compute = f16, accumulate = f32, storage = f32{{.*}} : (tensor<1x4x4x8xf16>, {{.*}}) -> tensor<1x1x1x8xf32>
// CPU: PASSED
func.func @main(%x: tensor<1x4x4x8xf32> loc("x")) -> tensor<1x1x1x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 4, 4>} : (tensor<1x4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x8xf32> loc("pool")
  return %p : tensor<1x1x1x8xf32>
}
