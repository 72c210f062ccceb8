// A LayerNorm between two linear layers, legalized to f16 (its statistics
// and the first GEMM's output in f32), as a CUDA engine: the row kernel
// reads and writes its rows in runs of consecutive elements
// (prec-plan-elementwise-vectors), sized by the widest, the f32 rows: four
// elements, 16 bytes of f32 and 8 of f16. Rows of 256 are 64 runs: a warp
// a row, two runs a thread, four rows a block.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-legalize="enabled=f16 target=sm_90" -o %t/legal.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/legal.mlir --output-dir=%t --engine-name=runs
// RUN: FileCheck %s < %t/runs.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/runs.cu -o %t/runs.o %}

// CHECK: // row kernel: 8 rows of 256, 4 rows of 32 threads a block, runs of 4 elements, for
// CHECK: __global__ void [[ROW:k[0-9]+_add]](const float *__restrict__ in0, const __half *__restrict__ in1, const __half *__restrict__ in2, __half *__restrict__ out0) {
// CHECK: const int row = blockIdx.x * 4 + threadIdx.x / 32;
// CHECK-NEXT: if (row >= 8) return;
// CHECK-NEXT: const int lane = threadIdx.x % 32;
// The f32 row: a 16-byte load a run, into the thread's 8 elements.
// CHECK-NEXT: float [[X:f[0-9]+]][8];
// CHECK: for (int e = 0; e < 2; ++e) {
// CHECK-NEXT: const int j0 = (lane + e * 32) * 4;
// CHECK-NEXT: __align__(16) float v[4];
// CHECK-NEXT: *reinterpret_cast<uint4 *>(v) = *reinterpret_cast<const uint4 *>(in0 + row * 256 + j0);
// CHECK: for (int l = 0; l < 4; ++l) {
// CHECK-NEXT: {{\[\[maybe_unused\]\]}} const int j = j0 + l;
// CHECK-NEXT: {{\[\[maybe_unused\]\]}} const int x = e * 4 + l;
// CHECK-NEXT: [[X]][x] = (v[l]);
// A row takes one warp: its sums need no barrier.
// CHECK: = __fadd_rn({{s[0-9]+}}_acc, [[X]][x]);
// CHECK: = prec_row_reduce<false, 1>(
// CHECK: = prec_row_reduce<false, 1>(
// gamma and beta, row vectors of f16: an 8-byte load a run, at j0.
// CHECK: *reinterpret_cast<uint2 *>(v) = *reinterpret_cast<const uint2 *>(in1 + j0);
// CHECK: *reinterpret_cast<uint2 *>(v) = *reinterpret_cast<const uint2 *>(in2 + j0);
// The f16 output: converted a run at a time, stored as 8 bytes.
// CHECK: __align__(16) __half w[4];
// CHECK: w[l] = __float2half_rn(
// CHECK: *reinterpret_cast<uint2 *>(out0 + row * 256 + j0) = *reinterpret_cast<const uint2 *>(w);
// CHECK-LABEL: static int runs_enqueue(
// CHECK: // row kernel ending at tosa.add 'norm.beta'
// CHECK-NEXT: prec_launch(e->early_launch, [[ROW]], 2, 128, 0, stream,
func.func @main(%input: tensor<1x8x64xf32> loc("input")) -> tensor<1x8x64xf32> {
  %w0 = "tosa.const"() <{values = dense<0.02> : tensor<1x64x256xf32>}> : () -> tensor<1x64x256xf32>
  %gamma = "tosa.const"() <{values = dense<[[[0.500, 0.885, 1.271, 0.646, 1.031, 1.417, 0.792, 1.177, 0.552, 0.938, 1.323, 0.698, 1.083, 1.469, 0.844, 1.229, 0.604, 0.990, 1.375, 0.750, 1.135, 0.510, 0.896, 1.281, 0.656, 1.042, 1.427, 0.802, 1.188, 0.562, 0.948, 1.333, 0.708, 1.094, 1.479, 0.854, 1.240, 0.615, 1.000, 1.385, 0.760, 1.146, 0.521, 0.906, 1.292, 0.667, 1.052, 1.438, 0.812, 1.198, 0.573, 0.958, 1.344, 0.719, 1.104, 1.490, 0.865, 1.250, 0.625, 1.010, 1.396, 0.771, 1.156, 0.531, 0.917, 1.302, 0.677, 1.062, 1.448, 0.823, 1.208, 0.583, 0.969, 1.354, 0.729, 1.115, 1.500, 0.875, 1.260, 0.635, 1.021, 1.406, 0.781, 1.167, 0.542, 0.927, 1.312, 0.688, 1.073, 1.458, 0.833, 1.219, 0.594, 0.979, 1.365, 0.740, 1.125, 0.500, 0.885, 1.271, 0.646, 1.031, 1.417, 0.792, 1.177, 0.552, 0.938, 1.323, 0.698, 1.083, 1.469, 0.844, 1.229, 0.604, 0.990, 1.375, 0.750, 1.135, 0.510, 0.896, 1.281, 0.656, 1.042, 1.427, 0.802, 1.188, 0.562, 0.948, 1.333, 0.708, 1.094, 1.479, 0.854, 1.240, 0.615, 1.000, 1.385, 0.760, 1.146, 0.521, 0.906, 1.292, 0.667, 1.052, 1.438, 0.812, 1.198, 0.573, 0.958, 1.344, 0.719, 1.104, 1.490, 0.865, 1.250, 0.625, 1.010, 1.396, 0.771, 1.156, 0.531, 0.917, 1.302, 0.677, 1.062, 1.448, 0.823, 1.208, 0.583, 0.969, 1.354, 0.729, 1.115, 1.500, 0.875, 1.260, 0.635, 1.021, 1.406, 0.781, 1.167, 0.542, 0.927, 1.312, 0.688, 1.073, 1.458, 0.833, 1.219, 0.594, 0.979, 1.365, 0.740, 1.125, 0.500, 0.885, 1.271, 0.646, 1.031, 1.417, 0.792, 1.177, 0.552, 0.938, 1.323, 0.698, 1.083, 1.469, 0.844, 1.229, 0.604, 0.990, 1.375, 0.750, 1.135, 0.510, 0.896, 1.281, 0.656, 1.042, 1.427, 0.802, 1.188, 0.562, 0.948, 1.333, 0.708, 1.094, 1.479, 0.854, 1.240, 0.615, 1.000, 1.385, 0.760, 1.146, 0.521, 0.906, 1.292, 0.667, 1.052, 1.438, 0.812, 1.198, 0.573, 0.958, 1.344, 0.719, 1.104, 1.490, 0.865, 1.250, 0.625, 1.010, 1.396, 0.771]]]> : tensor<1x1x256xf32>}> : () -> tensor<1x1x256xf32>
  %beta = "tosa.const"() <{values = dense<[[[-0.500, -0.115, 0.271, -0.354, 0.031, 0.417, -0.208, 0.177, -0.448, -0.062, 0.323, -0.302, 0.083, 0.469, -0.156, 0.229, -0.396, -0.010, 0.375, -0.250, 0.135, -0.490, -0.104, 0.281, -0.344, 0.042, 0.427, -0.198, 0.188, -0.438, -0.052, 0.333, -0.292, 0.094, 0.479, -0.146, 0.240, -0.385, 0.000, 0.385, -0.240, 0.146, -0.479, -0.094, 0.292, -0.333, 0.052, 0.438, -0.188, 0.198, -0.427, -0.042, 0.344, -0.281, 0.104, 0.490, -0.135, 0.250, -0.375, 0.010, 0.396, -0.229, 0.156, -0.469, -0.083, 0.302, -0.323, 0.062, 0.448, -0.177, 0.208, -0.417, -0.031, 0.354, -0.271, 0.115, 0.500, -0.125, 0.260, -0.365, 0.021, 0.406, -0.219, 0.167, -0.458, -0.073, 0.312, -0.312, 0.073, 0.458, -0.167, 0.219, -0.406, -0.021, 0.365, -0.260, 0.125, -0.500, -0.115, 0.271, -0.354, 0.031, 0.417, -0.208, 0.177, -0.448, -0.062, 0.323, -0.302, 0.083, 0.469, -0.156, 0.229, -0.396, -0.010, 0.375, -0.250, 0.135, -0.490, -0.104, 0.281, -0.344, 0.042, 0.427, -0.198, 0.188, -0.438, -0.052, 0.333, -0.292, 0.094, 0.479, -0.146, 0.240, -0.385, 0.000, 0.385, -0.240, 0.146, -0.479, -0.094, 0.292, -0.333, 0.052, 0.438, -0.188, 0.198, -0.427, -0.042, 0.344, -0.281, 0.104, 0.490, -0.135, 0.250, -0.375, 0.010, 0.396, -0.229, 0.156, -0.469, -0.083, 0.302, -0.323, 0.062, 0.448, -0.177, 0.208, -0.417, -0.031, 0.354, -0.271, 0.115, 0.500, -0.125, 0.260, -0.365, 0.021, 0.406, -0.219, 0.167, -0.458, -0.073, 0.312, -0.312, 0.073, 0.458, -0.167, 0.219, -0.406, -0.021, 0.365, -0.260, 0.125, -0.500, -0.115, 0.271, -0.354, 0.031, 0.417, -0.208, 0.177, -0.448, -0.062, 0.323, -0.302, 0.083, 0.469, -0.156, 0.229, -0.396, -0.010, 0.375, -0.250, 0.135, -0.490, -0.104, 0.281, -0.344, 0.042, 0.427, -0.198, 0.188, -0.438, -0.052, 0.333, -0.292, 0.094, 0.479, -0.146, 0.240, -0.385, 0.000, 0.385, -0.240, 0.146, -0.479, -0.094, 0.292, -0.333, 0.052, 0.438, -0.188, 0.198, -0.427, -0.042, 0.344, -0.281, 0.104, 0.490, -0.135, 0.250, -0.375, 0.010, 0.396, -0.229]]]> : tensor<1x1x256xf32>}> : () -> tensor<1x1x256xf32>
  %w = "tosa.const"() <{values = dense<0.01> : tensor<1x256x64xf32>}> : () -> tensor<1x256x64xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<0.00390625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.matmul %input, %w0, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x256xf32> loc("input.linear")
  %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x8x256xf32>) -> tensor<1x8x1xf32> loc("norm.sum")
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32> loc("norm.mean")
  %c = tosa.sub %x, %mean : (tensor<1x8x256xf32>, tensor<1x8x1xf32>) -> tensor<1x8x256xf32> loc("norm.center")
  %c2 = tosa.mul %c, %c, %shift : (tensor<1x8x256xf32>, tensor<1x8x256xf32>, tensor<1xi8>) -> tensor<1x8x256xf32> loc("norm.square")
  %vsum = tosa.reduce_sum %c2 {axis = 2 : i32} : (tensor<1x8x256xf32>) -> tensor<1x8x1xf32> loc("norm.var_sum")
  %var = tosa.mul %vsum, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32> loc("norm.var")
  %ve = tosa.add %var, %eps : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32> loc("norm.eps")
  %r = tosa.rsqrt %ve : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32> loc("norm.rsqrt")
  %n = tosa.mul %c, %r, %shift : (tensor<1x8x256xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x256xf32> loc("norm.scale")
  %g = tosa.mul %n, %gamma, %shift : (tensor<1x8x256xf32>, tensor<1x1x256xf32>, tensor<1xi8>) -> tensor<1x8x256xf32> loc("norm.gamma")
  %y = tosa.add %g, %beta : (tensor<1x8x256xf32>, tensor<1x1x256xf32>) -> tensor<1x8x256xf32> loc("norm.beta")
  %h = tosa.matmul %y, %w, %zp, %zp : (tensor<1x8x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x64xf32> loc("linear")
  return %h : tensor<1x8x64xf32>
}

