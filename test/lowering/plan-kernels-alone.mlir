// prec-plan-kernels on its own: each op a kernel computes gets
// #engine.kernel<index, kind>; ops of one index run in one launch, at the
// last of them, and are moved next to it, so that the block lists ops in the
// order the engine runs them.
// RUN: prec-opt %s -split-input-file --prec-plan-kernels | FileCheck %s

// A matmul takes its bias (read through its widening, which no kernel
// computes) and epilogue cast; the elementwise chain after it is one fused
// kernel.
// CHECK-LABEL: func.func @gemm_then_chain
// CHECK: "tosa.const"
// CHECK-NOT: engine.kernel
// CHECK: tosa.cast %arg1 {engine.read_through}
// CHECK-NEXT: tosa.matmul {{.*}}{engine.epilogue = #engine.epilogue<bias, convert>, engine.kernel = #engine.kernel<0, contraction>}
// CHECK-NEXT: tosa.add {{.*}}engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.exp {{.*}}engine.kernel = #engine.kernel<1, fused>
// CHECK-NEXT: tosa.tanh {{.*}}engine.kernel = #engine.kernel<1, fused>
// CHECK-NEXT: tosa.negate {{.*}}engine.kernel = #engine.kernel<1, fused>
func.func @gemm_then_chain(%x: tensor<1x4x16xf16>, %b: tensor<1x1x8xf16>) -> tensor<1x4x8xf16> {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<1x16x8xf16>}> : () -> tensor<1x16x8xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %p = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %bw = tosa.cast %b : (tensor<1x1x8xf16>) -> tensor<1x1x8xf32>
  %s = tosa.add %p, %bw : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %d = tosa.cast %s {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  %e = tosa.exp %d : (tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
  %t = tosa.tanh %e : (tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
  %n = tosa.negate %t, %zp, %zp : (tensor<1x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf16>
  return %n : tensor<1x4x8xf16>
}

// -----

// Softmax over rows of 64: one row kernel, across the constant, which its
// ops move after; the trailing reshape aliases its result and launches
// nothing. Its launch, the last op, says a warp computes each row.
// CHECK-LABEL: func.func @softmax
// CHECK: "tosa.const"
// CHECK-NOT: engine.kernel
// CHECK-NEXT: tosa.reduce_max {{.*}} {axis = 1 : i32, engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.sub {{.*}} {engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.exp {{.*}} {engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.reduce_sum {{.*}} {axis = 1 : i32, engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.reciprocal {{.*}} {engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.mul {{.*}} {engine.block_threads = 32 : i64, engine.kernel = #engine.kernel<0, rows>}
// CHECK-NEXT: tosa.const_shape
// CHECK-NOT: engine.kernel
// CHECK-NEXT: tosa.reshape
// CHECK-NOT: engine.kernel
// CHECK: return
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<1x4x64xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %m : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %e = tosa.exp %d : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %r = tosa.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %zp : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  %shape = tosa.const_shape {values = dense<[1, 4, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o = tosa.reshape %y, %shape : (tensor<4x64xf32>, !tosa.shape<3>) -> tensor<1x4x64xf32>
  return %o : tensor<1x4x64xf32>
}

// -----

// Wider rows get more threads a block: 128 for rows of 768 (six elements a
// thread), 256 from 2048 on. A stale count is replaced.
// CHECK-LABEL: func.func @row_widths
// CHECK: tosa.reduce_sum {{.*}} {axis = 1 : i32, engine.block_threads = 128 : i64, engine.kernel = #engine.kernel<0, rows>}
// CHECK: tosa.reduce_max {{.*}} {axis = 1 : i32, engine.block_threads = 256 : i64, engine.kernel = #engine.kernel<1, rows>}
func.func @row_widths(%x: tensor<2x768xf32>, %y: tensor<2x4096xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>) {
  %s = tosa.reduce_sum %x {axis = 1 : i32, engine.block_threads = 32 : i64} : (tensor<2x768xf32>) -> tensor<2x1xf32>
  %m = tosa.reduce_max %y {axis = 1 : i32} : (tensor<2x4096xf32>) -> tensor<2x1xf32>
  return %s, %m : tensor<2x1xf32>, tensor<2x1xf32>
}

// -----

// A convolution cuBLASLt or cuDNN runs applies its ReLU; an i16 one runs a
// direct kernel of its own.
// CHECK-LABEL: func.func @convolutions
// CHECK: tosa.conv2d {{.*}}engine.epilogue = #engine.epilogue<relu>, engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.clamp {{.*}}#engine.kernel<0, contraction>
// CHECK-NOT: engine.epilogue
// CHECK: tosa.conv2d {{.*}}#engine.kernel<1, single>
func.func @convolutions(%x: tensor<1x8x8x4xf16>, %q: tensor<1x8x8x3xi16>) -> (tensor<1x8x8x4xf16>, tensor<1x8x8x4xi48>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<4x3x3x4xf16>}> : () -> tensor<4x3x3x4xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<4xf16>}> : () -> tensor<4xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf16>, tensor<4x3x3x4xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x4xf16>
  %r = tosa.clamp %c {max_val = 0x7C00 : f16, min_val = 0.0 : f16} : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf16>
  %wq = "tosa.const"() <{values = dense<1> : tensor<4x3x3x3xi8>}> : () -> tensor<4x3x3x3xi8>
  %bw = "tosa.const"() <{values = dense<0> : tensor<4xi48>}> : () -> tensor<4xi48>
  %zpw = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %zpq = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = tosa.conv2d %q, %wq, %bw, %zpw, %zpq {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xi16>, tensor<4x3x3x3xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x8x8x4xi48>
  return %r, %d : tensor<1x8x8x4xf16>, tensor<1x8x8x4xi48>
}

// -----

// A transpose of B that only GEMMs read is read through by them (op T): no
// kernel computes it. An elementwise op with two uses is not fused. A plan
// already there is replaced.
// CHECK-LABEL: func.func @shared
// CHECK: "tosa.const"
// CHECK-NOT: engine.kernel
// CHECK: tosa.transpose %arg2 {engine.read_through, perms = array<i32: 0, 2, 1>}
// CHECK-NEXT: tosa.matmul {{.*}}{engine.kernel = #engine.kernel<0, contraction>}
// CHECK-NEXT: tosa.matmul {{.*}}{engine.kernel = #engine.kernel<1, contraction>}
// CHECK-NEXT: tosa.exp {{.*}}#engine.kernel<2, single>
// CHECK-NEXT: tosa.add {{.*}}#engine.kernel<3, single>
func.func @shared(%x: tensor<1x4x16xf16>, %y: tensor<1x4x16xf16>, %k: tensor<1x8x16xf16>) -> (tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> {engine.kernel = #engine.kernel<7, single>} : () -> tensor<1xf16>
  %t = tosa.transpose %k {perms = array<i32: 0, 2, 1>, engine.kernel = #engine.kernel<4, single>} : (tensor<1x8x16xf16>) -> tensor<1x16x8xf16>
  %a = tosa.matmul %x, %t, %zp, %zp {engine.kernel = #engine.kernel<9, single>} : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf16>
  %b = tosa.matmul %y, %t, %zp, %zp : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf16>
  %e = tosa.exp %x : (tensor<1x4x16xf16>) -> tensor<1x4x16xf16>
  %s = tosa.add %e, %e : (tensor<1x4x16xf16>, tensor<1x4x16xf16>) -> tensor<1x4x16xf16>
  return %a, %b, %s : tensor<1x4x8xf16>, tensor<1x4x8xf16>, tensor<1x4x16xf16>
}

// -----

// The exp is fused into the add, past the floor's kernel: it moves next to
// the add, so that each kernel's ops are consecutive.
// CHECK-LABEL: func.func @moved_to_launch
// CHECK: tosa.floor {{.*}}#engine.kernel<0, single>
// CHECK-NEXT: tosa.exp {{.*}}#engine.kernel<1, fused>
// CHECK-NEXT: tosa.add {{.*}}#engine.kernel<1, fused>
func.func @moved_to_launch(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tosa.exp %x : (tensor<64xf32>) -> tensor<64xf32>
  %f = tosa.floor %y : (tensor<64xf32>) -> tensor<64xf32>
  %s = tosa.add %e, %f : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %s, %f : tensor<64xf32>, tensor<64xf32>
}

// -----

// A dequantization scale is cuBLASLt's alpha; a record already there (here
// a stale bias) is replaced.
// CHECK-LABEL: func.func @scaled
// CHECK: tosa.matmul {{.*}}{engine.epilogue = #engine.epilogue<scale, convert>, engine.kernel = #engine.kernel<0, contraction>}
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, contraction>
func.func @scaled(%x: tensor<1x4x16xf16>, %w: tensor<1x16x8xf16>) -> tensor<1x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %alpha = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %p = tosa.matmul %x, %w, %zp, %zp {engine.epilogue = #engine.epilogue<bias>} : (tensor<1x4x16xf16>, tensor<1x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8xf32>
  %s = tosa.mul %p, %alpha, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
  %y = tosa.cast %s {precision.epilogue} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
  return %y : tensor<1x4x8xf16>
}

// -----

// An elementwise chain runs through the reshape between its ops (a view of
// the same elements in the same order) as one kernel, which the reshape
// joins: the SiLU gate's product and its f8 quantization.
// CHECK-LABEL: func.func @through_views
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NEXT: tosa.reshape {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NEXT: return
func.func @through_views(%g: tensor<2x16x8xf16>, %u: tensor<2x16x8xf16>) -> tensor<1x32x8xf8E4M3FN> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<3.0e+02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shape = tosa.const_shape {values = dense<[1, 32, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %m = tosa.mul %g, %u, %shift : (tensor<2x16x8xf16>, tensor<2x16x8xf16>, tensor<1xi8>) -> tensor<2x16x8xf16>
  %r = tosa.reshape %m, %shape : (tensor<2x16x8xf16>, !tosa.shape<3>) -> tensor<1x32x8xf16>
  %w = tosa.cast %r : (tensor<1x32x8xf16>) -> tensor<1x32x8xf32>
  %s = tosa.mul %w, %scale, %shift : (tensor<1x32x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x32x8xf32>
  %q = tosa.cast %s : (tensor<1x32x8xf32>) -> tensor<1x32x8xf8E4M3FN>
  return %q : tensor<1x32x8xf8E4M3FN>
}

// -----

// No fusion through a reshape that another op reads too, nor into a reader
// that broadcasts the reshaped value: the product is its own kernel and the
// reshapes launch nothing.
// CHECK-LABEL: func.func @views_not_fused
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, single>
// CHECK: tosa.reshape
// CHECK-NOT: engine.kernel
// CHECK-SAME: -> tensor<1x32x8xf16>
// CHECK: tosa.exp {{.*}}engine.kernel = #engine.kernel<1, single>
// CHECK: tosa.tanh {{.*}}engine.kernel = #engine.kernel<2, single>
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<3, single>
// CHECK: tosa.reshape
// CHECK-NOT: engine.kernel
// CHECK-SAME: -> tensor<1x1x8xf16>
// CHECK: tosa.add {{.*}}engine.kernel = #engine.kernel<4, single>
func.func @views_not_fused(%g: tensor<2x16x8xf16>, %u: tensor<2x16x8xf16>, %v: tensor<1x1x8xf16>, %x: tensor<4x1x8xf16>) -> (tensor<1x32x8xf16>, tensor<1x32x8xf16>, tensor<4x1x8xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape = tosa.const_shape {values = dense<[1, 32, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %m = tosa.mul %g, %u, %shift : (tensor<2x16x8xf16>, tensor<2x16x8xf16>, tensor<1xi8>) -> tensor<2x16x8xf16>
  %r = tosa.reshape %m, %shape : (tensor<2x16x8xf16>, !tosa.shape<3>) -> tensor<1x32x8xf16>
  %e = tosa.exp %r : (tensor<1x32x8xf16>) -> tensor<1x32x8xf16>
  %t = tosa.tanh %r : (tensor<1x32x8xf16>) -> tensor<1x32x8xf16>
  %flat = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %n = tosa.mul %v, %v, %shift : (tensor<1x1x8xf16>, tensor<1x1x8xf16>, tensor<1xi8>) -> tensor<1x1x8xf16>
  %nr = tosa.reshape %n, %flat : (tensor<1x1x8xf16>, !tosa.shape<3>) -> tensor<1x1x8xf16>
  %a = tosa.add %x, %nr : (tensor<4x1x8xf16>, tensor<1x1x8xf16>) -> tensor<4x1x8xf16>
  return %e, %t, %a : tensor<1x32x8xf16>, tensor<1x32x8xf16>, tensor<4x1x8xf16>
}

// -----

// Ops that only move elements (transpose, slice, concat) are read through
// by the kernel of the elementwise ops after them, even where several of
// its ops read one (the transpose, read by the slices and the first
// multiply): rotary embeddings are one kernel. The elementwise negate
// fuses into the concat that reads it.
// CHECK-LABEL: func.func @rotary
// CHECK: tosa.transpose {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.slice {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.slice {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.negate {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.concat {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK: tosa.add {{.*}}engine.kernel = #engine.kernel<0, fused>
// CHECK-NOT: engine.kernel
func.func @rotary(%q: tensor<1x8x4x16xf16>, %cos: tensor<1x1x8x16xf16>, %sin: tensor<1x1x8x16xf16>) -> tensor<1x4x8x16xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t = tosa.transpose %q {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x4x16xf16>) -> tensor<1x4x8x16xf16>
  %lo_start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %hi_start = tosa.const_shape {values = dense<[0, 0, 0, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %half = tosa.const_shape {values = dense<[1, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %lo = tosa.slice %t, %lo_start, %half : (tensor<1x4x8x16xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x8x8xf16>
  %hi = tosa.slice %t, %hi_start, %half : (tensor<1x4x8x16xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x8x8xf16>
  %n = tosa.negate %hi, %zp, %zp : (tensor<1x4x8x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x8x8xf16>
  %r = tosa.concat %n, %lo {axis = 3 : i32} : (tensor<1x4x8x8xf16>, tensor<1x4x8x8xf16>) -> tensor<1x4x8x16xf16>
  %a = tosa.mul %t, %cos, %shift : (tensor<1x4x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1xi8>) -> tensor<1x4x8x16xf16>
  %b = tosa.mul %r, %sin, %shift : (tensor<1x4x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1xi8>) -> tensor<1x4x8x16xf16>
  %s = tosa.add %a, %b : (tensor<1x4x8x16xf16>, tensor<1x4x8x16xf16>) -> tensor<1x4x8x16xf16>
  return %s : tensor<1x4x8x16xf16>
}

// -----

// Moves are copied by kernels of their own where an op other than an
// elementwise one at their shape reads them: the function's result (the
// transpose), a row kernel (the slice, read by the reduction's cast) or
// two readers (the concat: the exp, and the function's result). An
// elementwise op read by several kernels is computed once, in its own (the
// tanh).
// CHECK-LABEL: func.func @moves_not_fused
// CHECK: tosa.transpose {{.*}}engine.kernel = #engine.kernel<0, single>
// CHECK: tosa.tanh {{.*}}engine.kernel = #engine.kernel<1, single>
// CHECK: tosa.slice {{.*}}engine.kernel = #engine.kernel<2, single>
// CHECK: tosa.concat {{.*}}engine.kernel = #engine.kernel<3, single>
// CHECK: tosa.exp {{.*}}engine.kernel = #engine.kernel<4, single>
// CHECK: tosa.reduce_sum {{.*}}engine.kernel = #engine.kernel<5, rows>
func.func @moves_not_fused(%x: tensor<4x8xf16>) -> (tensor<8x4xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x1xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x8xf16>) -> tensor<8x4xf16>
  %h = tosa.tanh %x : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %h, %start, %size : (tensor<4x8xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x4xf16>
  %c = tosa.concat %h, %h {axis = 1 : i32} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x16xf16>
  %e = tosa.exp %c : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %w = tosa.cast %s : (tensor<4x4xf16>) -> tensor<4x4xf32>
  %sum = tosa.reduce_sum %w {axis = 1 : i32} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  return %t, %c, %e, %sum : tensor<8x4xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x1xf32>
}

// -----

// An implicit-GEMM convolution read only by an elementwise op at its own
// shape joins that op's kernel, whose kind becomes `epilogue`; one read
// twice, or one that runs on im2col, keeps its own kernel, and so do one
// whose reader writes 8-byte elements (the staged outputs would not fit)
// and the first of two convolutions one kernel reads (a residual add).
// CHECK-LABEL: func.func @conv_epilogue
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<1, contraction>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<2, single>
// CHECK-NEXT: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<3, contraction>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<4, single>
func.func @conv_epilogue(%x: tensor<1x4x4x16xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xi32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %f, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %g = tosa.cast %d : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %e = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<im2col>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %h = tosa.cast %e : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  return %m, %d, %g, %h : tensor<1x4x4x4xf32>, tensor<1x4x4x4xi32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @residual
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<1, epilogue>
// CHECK-NEXT: tosa.add {{.*}}engine.kernel = #engine.kernel<1, epilogue>
func.func @residual(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x4xi32> {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 2, 2>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %s = tosa.add %c, %d : (tensor<1x4x4x4xi32>, tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %s : tensor<1x4x4x4xi32>
}

// CHECK-LABEL: func.func @wide_output
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, contraction>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<1, single>
func.func @wide_output(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x4xi64> {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi64>
  return %f : tensor<1x4x4x4xi64>
}

// An epilogue's result that an elementwise kernel of its shape reads (the
// next convolution's quantization) is computed by the epilogue as well: the
// reader's ops join the epilogue's kernel, which launches at the last of
// them and stores both results.
// CHECK-LABEL: func.func @sibling
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.clamp {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: return
func.func @sibling(%x: tensor<1x4x4x16xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xi8>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %f, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %q = tosa.mul %m, %inv, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %k = tosa.clamp %q {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %i = tosa.cast %k : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>
  return %m, %i : tensor<1x4x4x4xf32>, tensor<1x4x4x4xi8>
}

// Not where another reader of the epilogue's result runs before the
// quantization's kernel: that reader needs the result first.
// CHECK-LABEL: func.func @sibling_after_reader
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.transpose {{.*}}engine.kernel = #engine.kernel<1, single>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<2, fused>
// CHECK-NEXT: tosa.clamp {{.*}}engine.kernel = #engine.kernel<2, fused>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<2, fused>
func.func @sibling_after_reader(%x: tensor<1x4x4x16xi8>) -> (tensor<4x4x4x1xf32>, tensor<1x4x4x4xi8>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %inv = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %f, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %t = tosa.transpose %m {perms = array<i32: 3, 1, 2, 0>} : (tensor<1x4x4x4xf32>) -> tensor<4x4x4x1xf32>
  %q = tosa.mul %m, %inv, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %k = tosa.clamp %q {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %i = tosa.cast %k : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>
  return %t, %i : tensor<4x4x4x1xf32>, tensor<1x4x4x4xi8>
}

// Nor where the reader's kernel also reads the result through a move (a
// transpose): the epilogue holds only each element's own value.
// CHECK-LABEL: func.func @sibling_reads_moved
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.transpose {{.*}}engine.kernel = #engine.kernel<1, fused>
// CHECK-NEXT: tosa.add {{.*}}engine.kernel = #engine.kernel<1, fused>
func.func @sibling_reads_moved(%x: tensor<1x4x4x16xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %f, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %t = tosa.transpose %m {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %a = tosa.add %m, %t : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m, %a : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// The earlier of a residual add of two dequantized convolutions cannot
// share the later one's epilogue; rather than storing its int32
// accumulators for it, its dequantization to f16 (the narrowest point of
// the ops only it feeds) becomes a kernel of its own, its epilogue (its
// scale a view of a constant, as imported). The add reads two bytes an
// element.
// CHECK-LABEL: func.func @residual_dequantized
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>} : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf16>
// CHECK-NEXT: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<1, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<1, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<1, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<1, epilogue>
// CHECK-NEXT: tosa.add {{.*}}engine.kernel = #engine.kernel<1, epilogue>
func.func @residual_dequantized(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x4xf16> {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %s4 = "tosa.const"() <{values = dense<0.25> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sr = tosa.reshape %s4, %shape : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x1x1x4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %cf = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %cm = tosa.mul %cf, %sr, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %ch = tosa.cast %cm : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf16>
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 2, 2>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %df = tosa.cast %d : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %dm = tosa.mul %df, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %dh = tosa.cast %dm : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf16>
  %a = tosa.add %ch, %dh : (tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  return %a : tensor<1x4x4x4xf16>
}

// Nor where an elementwise op reads the result at its own index but a move
// after it (a transpose) feeds the kernel: that kernel reads the result at
// other coordinates.
// CHECK-LABEL: func.func @sibling_moves_later
// CHECK: tosa.conv2d {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.cast {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.mul {{.*}}engine.kernel = #engine.kernel<0, epilogue>
// CHECK-NEXT: tosa.exp {{.*}}engine.kernel = #engine.kernel<1, fused>
// CHECK-NEXT: tosa.transpose {{.*}}engine.kernel = #engine.kernel<1, fused>
// CHECK-NEXT: tosa.clamp {{.*}}engine.kernel = #engine.kernel<1, fused>
func.func @sibling_moves_later(%x: tensor<1x4x4x16xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %w = "tosa.const"() <{values = dense<1> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16xi8>
  %b = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xi8>, tensor<4x3x3x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  %f = tosa.cast %c : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %f, %s, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %n = tosa.exp %m : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %t = tosa.transpose %n {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %k = tosa.clamp %t {max_val = 1.0 : f32, min_val = -1.0 : f32} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m, %k : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
