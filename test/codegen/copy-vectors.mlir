// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=cv
// RUN: FileCheck %s < %t/cv.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t/cv.cu -o %t/cv.o %}

// Copy kernels that move vectors (prec-plan-copy-vectors): each thread
// moves 16, 8 or 4 bytes and indexes in those units, and the launch passes
// the buffers as that type. A split of heads that keeps the innermost
// dimension moves 8 f16 a thread (uint4); slices from 4 elements in and a
// concat of 60 + 4 elements, 4 (uint2); an embedding lookup, 8 f16 of its
// table's rows, with its indices read as int32. The offsets come from the
// ops' index maps, with the innermost coordinate counted in elements and
// divided back into vectors. Two kernels read each
// transpose and concat, so they are kernels of their own rather than read
// through. Each thread moves 4 vectors, 256 apart (a block 1024), as an
// elementwise kernel's threads take 4 elements, and stops at the first past
// the end.
// CHECK-LABEL: __global__ void k1_transpose(const uint4 *__restrict__ in0, uint4 *__restrict__ out) {
// CHECK-NEXT: prec_kernel_start();
// CHECK-NEXT: const int base = blockIdx.x * 1024 + threadIdx.x;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: int i = base + k * 256;
// CHECK-NEXT: if (i >= 1024) return;
// CHECK-NEXT: int o0 = (((i / 8) % 16) * 64 + (i / 128) * 8 + (((i % 8) * 8) / 8));
// CHECK-NEXT: out[i] = in0[o0];
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-LABEL: __global__ void k4_slice(const uint2 *__restrict__ in0, uint2 *__restrict__ out) {
// CHECK: if (i >= 1920) return;
// CHECK: int o0 = ((i / 120) * 128 + ((i / 15) % 8) * 16 + ((((i % 15) * 4) + 4) / 4));
// CHECK-LABEL: __global__ void k6_concat(const uint2 *__restrict__ in0, uint2 *__restrict__ out) {
// CHECK: out[o0] = in0[i];
// CHECK-LABEL: __global__ void k7_concat(const uint2 *__restrict__ in0, uint2 *__restrict__ out) {
// CHECK-NEXT: prec_kernel_start();
// CHECK-NEXT: const int base = blockIdx.x * 1024 + threadIdx.x;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: int i = base + k * 256;
// CHECK-NEXT: if (i >= 128) return;
// CHECK-NEXT: int rem = i, o0 = 0;
// CHECK-NEXT: o0 += 15 * 1;
// CHECK-LABEL: __global__ void k10_gather(const uint4 *__restrict__ in0, const int32_t *__restrict__ in1, uint4 *__restrict__ out) {
// CHECK-NEXT: prec_kernel_start();
// CHECK-NEXT: int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
// CHECK-NEXT: if (i >= 32) return;
// CHECK-NEXT: int c = i % 8, w = (i / 8) % 4, n = i / (8 * 4);
// CHECK-NEXT: int k = in1[n * 4 + w];
// CHECK-NEXT: out[i] = in0[(n * 10 + k) * 8 + c];
// 1024 vectors of 16 bytes: one block of 256 threads.
// CHECK: prec_launch(e->early_launch, k1_transpose, 1, 256, 0, stream, ((uint4 *)(e->arena + {{[0-9]+}})), ((uint4 *)(e->arena + {{[0-9]+}})));
// CHECK: prec_launch(e->early_launch, k4_slice, 2, 256, 0, stream, ((uint2 *)(e->arena
// CHECK: prec_launch(e->early_launch, k10_gather, 1, 256, 0, stream, ((uint4 *)(e->weights + {{[0-9]+}})), ((int32_t *)bindings[1]), ((uint4 *)(e->arena
func.func @main(%x: tensor<16x8x64xf16>, %ids: tensor<1x4xi32>) -> (tensor<8x16x64xf16>, tensor<8x16x64xf16>, tensor<16x8x64xf16>, tensor<16x8x64xf16>, tensor<1x4x64xf16>) {
  %a = tosa.exp %x : (tensor<16x8x64xf16>) -> tensor<16x8x64xf16>
  %t = tosa.transpose %a {perms = array<i32: 1, 0, 2>} : (tensor<16x8x64xf16>) -> tensor<8x16x64xf16>
  %r = tosa.exp %t : (tensor<8x16x64xf16>) -> tensor<8x16x64xf16>
  %r2 = tosa.tanh %t : (tensor<8x16x64xf16>) -> tensor<8x16x64xf16>
  %start = tosa.const_shape {values = dense<[0, 0, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[16, 8, 60]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.slice %a, %start, %size : (tensor<16x8x64xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<16x8x60xf16>
  %start2 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size2 = tosa.const_shape {values = dense<[16, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %h = tosa.slice %a, %start2, %size2 : (tensor<16x8x64xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<16x8x4xf16>
  %c = tosa.concat %s, %h {axis = 2 : i32} : (tensor<16x8x60xf16>, tensor<16x8x4xf16>) -> tensor<16x8x64xf16>
  %d = tosa.exp %c : (tensor<16x8x64xf16>) -> tensor<16x8x64xf16>
  %d2 = tosa.tanh %c : (tensor<16x8x64xf16>) -> tensor<16x8x64xf16>
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x10x64xf16>}> : () -> tensor<1x10x64xf16>
  %g = tosa.gather %w, %ids : (tensor<1x10x64xf16>, tensor<1x4xi32>) -> tensor<1x4x64xf16>
  %e = tosa.exp %g : (tensor<1x4x64xf16>) -> tensor<1x4x64xf16>
  return %r, %r2, %d, %d2, %e : tensor<8x16x64xf16>, tensor<8x16x64xf16>, tensor<16x8x64xf16>, tensor<16x8x64xf16>, tensor<1x4x64xf16>
}
