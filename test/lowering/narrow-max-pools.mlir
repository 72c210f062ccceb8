// prec-narrow-max-pools on its own, run on the CPU: the monotone chain
// quantizing a max pool's result moves before the pool, which then pools
// i8; the rewritten program's outputs equal the original's bit for bit
// (max commutes with monotone non-decreasing maps; the pool's padding, a
// row and column before, takes no part).
// RUN: rm -rf %t && mkdir -p %t
// The scale is defined after the pool, as the lowering places constants:
// the chain and the pool move to where the chain ended.
// RUN: prec-opt %s --prec-narrow-max-pools -o %t/narrow.mlir
// RUN: FileCheck %s < %t/narrow.mlir
// RUN: prec-run %s --val-range "x:[-3,3]" --seed 5 --save-inputs %t/in.npz --save-outputs %t/out.npz > /dev/null
// RUN: prec-run %t/narrow.mlir --load-inputs %t/in.npz --compare %t/out.npz --atol 0 --rtol 0 | FileCheck %s --check-prefix=EXACT
// The engine (whose plan runs the pass) compiles:
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=narrow
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/narrow.cu -o %t/narrow.o %}
// EXACT: output 'quantized': atol=0 rtol=0
// EXACT: elements outside tolerance: 0
// EXACT-NEXT: PASS
// EXACT: output 'per_channel': atol=0 rtol=0
// EXACT: elements outside tolerance: 0
// EXACT-NEXT: PASS

// CHECK-LABEL: func.func @main
// CHECK: %[[RELU:.*]] = tosa.clamp %{{.*}} {max_val = 6.550400e+04 : f16, min_val = 0.000000e+00 : f16} : (tensor<2x8x8x4xf16>) -> tensor<2x8x8x4xf16>
// CHECK: %[[WIDE:.*]] = tosa.cast %[[RELU]] : (tensor<2x8x8x4xf16>) -> tensor<2x8x8x4xf32>
// CHECK-NEXT: %[[SCALED:.*]] = tosa.mul %[[WIDE]], %{{.*}}, %{{.*}} : (tensor<2x8x8x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8x4xf32>
// CHECK-NEXT: %[[CLAMPED:.*]] = tosa.clamp %[[SCALED]] {{.*}} : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
// CHECK-NEXT: %[[Q:.*]] = tosa.cast %[[CLAMPED]] : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xi8>
// CHECK-NEXT: %[[POOLED:.*]] = tosa.max_pool2d %[[Q]] {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, precision.layer = "pool", stride = array<i64: 2, 2>} : (tensor<2x8x8x4xi8>) -> tensor<2x4x4x4xi8>
// A per-channel scale moves too; the f32 chain after the cast is wider.
// CHECK: tosa.mul {{.*}} : (tensor<2x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<2x8x8x4xf32>
// CHECK: tosa.max_pool2d {{.*}} -> tensor<2x4x4x4xi8>
// CHECK: return %[[POOLED]]
func.func @main(%x: tensor<2x8x8x4xf32> {precision.name = "x"}) -> (tensor<2x4x4x4xi8> {precision.name = "quantized"}, tensor<2x4x4x4xi8> {precision.name = "per_channel"}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %channels = "tosa.const"() <{values = dense<[[[[10.0, 21.5, 0.0, 40.25]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %h = tosa.cast %x : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf16>
  %r = tosa.clamp %h {max_val = 65504.0 : f16, min_val = 0.0 : f16} : (tensor<2x8x8x4xf16>) -> tensor<2x8x8x4xf16>
  %p = tosa.max_pool2d %r {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>, precision.layer = "pool"} : (tensor<2x8x8x4xf16>) -> tensor<2x4x4x4xf16>
  %w = tosa.cast %p : (tensor<2x4x4x4xf16>) -> tensor<2x4x4x4xf32>
  %scale = "tosa.const"() <{values = dense<42.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %m = tosa.mul %w, %scale, %shift : (tensor<2x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4x4xf32>
  %c = tosa.clamp %m {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %q = tosa.cast %c : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xi8>
  %p2 = tosa.max_pool2d %h {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x8x8x4xf16>) -> tensor<2x4x4x4xf16>
  %w2 = tosa.cast %p2 : (tensor<2x4x4x4xf16>) -> tensor<2x4x4x4xf32>
  %m2 = tosa.mul %w2, %channels, %shift : (tensor<2x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<2x4x4x4xf32>
  %c2 = tosa.clamp %m2 {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %q2 = tosa.cast %c2 : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xi8>
  return %q, %q2 : tensor<2x4x4x4xi8>, tensor<2x4x4x4xi8>
}
