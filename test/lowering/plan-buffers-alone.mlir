// prec-plan-buffers on its own, on kernels prec-plan-kernels would make:
// kernel outputs are placed first fit in launch order, and a buffer is
// released after the launch of the kernel of its last reader
// (mlir::Liveness), since each kernel's ops are consecutive.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-plan-buffers | FileCheck %s

// 64 x f32 = 256 bytes. %a dies once %b is written, so %c takes its
// bytes; %d is the result and goes straight into its binding.
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: attributes {engine.arena_bytes = 512 : i64}
// CHECK: tosa.exp {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.abs {{.*}}engine.arena_offset = 256 : i64
// CHECK: tosa.floor {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.tanh
// CHECK-NOT: arena_offset
// CHECK: return
func.func @reuse(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.abs %a {engine.kernel = #engine.kernel<1, single>} : (tensor<64xf32>) -> tensor<64xf32>
  %c = tosa.floor %b {engine.kernel = #engine.kernel<2, single>} : (tensor<64xf32>) -> tensor<64xf32>
  %d = tosa.tanh %c {engine.kernel = #engine.kernel<3, single>} : (tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// -----

// %a's last reader, the abs, is fused into kernel 2, which launches after
// kernel 1: %a is live while kernel 1 writes %c (a lifetime ending at the
// abs's position would let %c reuse %a's bytes while kernel 2 still reads
// them; prec-plan-kernels puts the abs after the floor). A plan already
// there is replaced.
// CHECK-LABEL: func.func @fused_reader
// CHECK-SAME: attributes {engine.arena_bytes = 512 : i64}
// CHECK: "tosa.const"
// CHECK-NOT: arena_offset
// CHECK: tosa.exp {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.floor {{.*}}engine.arena_offset = 256 : i64
// CHECK: tosa.abs
// CHECK-NOT: arena_offset
func.func @fused_reader(%x: tensor<64xf32>) -> tensor<64xf32> {
  %k = "tosa.const"() <{values = dense<1.0> : tensor<64xf32>}> {engine.arena_offset = 99 : i64} : () -> tensor<64xf32>
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<64xf32>) -> tensor<64xf32>
  %c = tosa.floor %x {engine.kernel = #engine.kernel<1, single>} : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.abs %a {engine.kernel = #engine.kernel<2, fused>} : (tensor<64xf32>) -> tensor<64xf32>
  %d = tosa.add %b, %c {engine.kernel = #engine.kernel<2, fused>} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %e = tosa.add %d, %k {engine.kernel = #engine.kernel<2, fused>} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %e : tensor<64xf32>
}

// -----

// An im2col convolution's columns (64 rows x 36 x f16 = 4608 bytes) follow
// its output (the ReLU's, 512 bytes) and are free again once its GEMM has
// run: the tanh reuses them.
// CHECK-LABEL: func.func @im2col
// CHECK-SAME: attributes {engine.arena_bytes = 5120 : i64}
// CHECK: tosa.conv2d {{.*}}engine.columns_offset = 512 : i64
// CHECK: tosa.clamp {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.tanh {{.*}}engine.arena_offset = 512 : i64
func.func @im2col(%x: tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf16> {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<4x3x3x4xf16>}> : () -> tensor<4x3x3x4xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<4xf16>}> : () -> tensor<4xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<im2col>, engine.kernel = #engine.kernel<0, contraction>} : (tensor<1x8x8x4xf16>, tensor<4x3x3x4xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x4xf16>
  %r = tosa.clamp %c {max_val = 0x7C00 : f16, min_val = 0.0 : f16, engine.kernel = #engine.kernel<0, contraction>} : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf16>
  %t = tosa.tanh %r {engine.kernel = #engine.kernel<1, single>} : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf16>
  %e = tosa.exp %t {engine.kernel = #engine.kernel<2, single>} : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf16>
  return %e : tensor<1x8x8x4xf16>
}

// -----

// A row kernel writes the values read after it, in order (%e, then %n),
// not the registers it keeps (%m, %d).
// CHECK-LABEL: func.func @rows
// CHECK-SAME: attributes {engine.arena_bytes = 2048 : i64}
// CHECK: tosa.reduce_max
// CHECK-NOT: arena_offset
// CHECK: tosa.exp {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.add {{.*}}engine.arena_offset = 1024 : i64
// CHECK: tosa.concat
// CHECK-NOT: arena_offset
func.func @rows(%x: tensor<4x64xf32>) -> tensor<8x64xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32, engine.kernel = #engine.kernel<0, rows>} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %m {engine.kernel = #engine.kernel<0, rows>} : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %e = tosa.exp %d {engine.kernel = #engine.kernel<0, rows>} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %n = tosa.add %d, %m {engine.kernel = #engine.kernel<0, rows>} : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %c = tosa.concat %e, %n {axis = 0 : i32, engine.kernel = #engine.kernel<1, single>} : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
  return %c : tensor<8x64xf32>
}

// -----

// A GEMM reads %a through the transpose, which launches nothing: %a lives
// until the GEMM has run, so the floor cannot take its bytes.
// CHECK-LABEL: func.func @read_through
// CHECK: tosa.exp {{.*}}engine.arena_offset = 0 : i64
// CHECK: tosa.floor {{.*}}engine.arena_offset = 256 : i64
func.func @read_through(%x: tensor<1x16x8xf16>, %y: tensor<1x4x8xf16>) -> tensor<1x4x16xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, single>} : (tensor<1x16x8xf16>) -> tensor<1x16x8xf16>
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1>, engine.read_through} : (tensor<1x16x8xf16>) -> tensor<1x8x16xf16>
  %f = tosa.floor %y {engine.kernel = #engine.kernel<1, single>} : (tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
  %m = tosa.matmul %f, %t, %zp, %zp {engine.kernel = #engine.kernel<2, contraction>} : (tensor<1x4x8xf16>, tensor<1x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x16xf16>
  return %m : tensor<1x4x16xf16>
}

// -----

// Kernel 0's ops are split by kernel 1's.
func.func @not_consecutive(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = tosa.exp %x {engine.kernel = #engine.kernel<0, fused>} : (tensor<64xf32>) -> tensor<64xf32>
  %b = tosa.floor %x {engine.kernel = #engine.kernel<1, single>} : (tensor<64xf32>) -> tensor<64xf32>
  // expected-error @+1 {{the ops of engine kernel 0 are not consecutive: run prec-plan-kernels, which orders them}}
  %c = tosa.add %a, %b {engine.kernel = #engine.kernel<0, fused>} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %c : tensor<64xf32>
}
