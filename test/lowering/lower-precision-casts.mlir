// RUN: prec-opt %s --split-input-file --prec-lower-precision-casts | FileCheck %s
// RUN: prec-run %s --function same_width_floats --val-range "x:[-4,4]" --save-inputs %t.in.npz --save-outputs %t.out.npz | FileCheck %s --check-prefix=RAN
// RUN: %python -c "import numpy as np; x = np.load('%t.in.npz')['x']; y = np.load('%t.out.npz')['result0']; h = x.astype(np.float16).astype(np.float32); b = (h.view(np.uint32) + 0x7fff + ((h.view(np.uint32) >> 16) & 1)) & 0xffff0000; assert np.array_equal(y, b.view(np.float32)), (y, b.view(np.float32)); print('exact')" | FileCheck %s --check-prefix=EXACT

// precision.cast has tosa.cast's semantics.
// CHECK-LABEL: func.func @precision_cast
// CHECK: tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NOT: precision.cast
func.func @precision_cast(%x: tensor<4xf32>) -> tensor<4xf16> {
  %y = precision.cast %x : tensor<4xf32> to tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// f16 to bf16 (found by the differential tests: the lowering emitted an
// arith.truncf between two 16-bit types, which does not verify) goes
// through f32, exactly, then rounds once to bf16.
// CHECK-LABEL: func.func @same_width_floats
// CHECK: %[[WIDE:.*]] = tosa.cast %{{.*}} : (tensor<8xf16>) -> tensor<8xf32>
// CHECK: tosa.cast %[[WIDE]] {precision.inserted_cast} : (tensor<8xf32>) -> tensor<8xbf16>
// RAN: ran @same_width_floats on the CPU
// EXACT: exact
func.func @same_width_floats(%x: tensor<8xf32> loc("x")) -> tensor<8xf32> {
  %h = tosa.cast %x : (tensor<8xf32>) -> tensor<8xf16>
  %b = tosa.cast %h {precision.inserted_cast} : (tensor<8xf16>) -> tensor<8xbf16>
  %y = tosa.cast %b : (tensor<8xbf16>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Rounding back to the type a widening came from gives the value back: the
// casts go, and reshapes between become one reshape of the value.
// CHECK-LABEL: func.func @round_trips
// CHECK-SAME: (%[[H:.*]]: tensor<2x4xf16>, %[[B:.*]]: tensor<8xbf16>)
// CHECK-NOT: tosa.cast
// CHECK: %[[SHAPE:.*]] = tosa.const_shape {values = dense<8> : tensor<1xindex>}
// CHECK: %[[FLAT:.*]] = tosa.reshape %[[H]], %[[SHAPE]] : (tensor<2x4xf16>, !tosa.shape<1>) -> tensor<8xf16>
// CHECK-NOT: tosa.cast
// CHECK: return %[[FLAT]], %[[B]]
func.func @round_trips(%h: tensor<2x4xf16>, %b: tensor<8xbf16>) -> (tensor<8xf16>, tensor<8xbf16>) {
  %wide = tosa.cast %h : (tensor<2x4xf16>) -> tensor<2x4xf32>
  %s1 = tosa.const_shape {values = dense<[4, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r1 = tosa.reshape %wide, %s1 : (tensor<2x4xf32>, !tosa.shape<2>) -> tensor<4x2xf32>
  %s2 = tosa.const_shape {values = dense<8> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r2 = tosa.reshape %r1, %s2 : (tensor<4x2xf32>, !tosa.shape<1>) -> tensor<8xf32>
  %back = tosa.cast %r2 {precision.inserted_cast} : (tensor<8xf32>) -> tensor<8xf16>
  %bw = tosa.cast %b : (tensor<8xbf16>) -> tensor<8xf32>
  %bb = tosa.cast %bw : (tensor<8xf32>) -> tensor<8xbf16>
  return %back, %bb : tensor<8xf16>, tensor<8xbf16>
}

// -----

// Casts that change values stay: a narrowing first, a widening back to
// another type; a widening that something else reads stays for it.
// CHECK-LABEL: func.func @not_round_trips
// CHECK: %[[N:.*]] = tosa.cast %{{.*}} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK: tosa.cast %[[N]] : (tensor<8xf16>) -> tensor<8xf32>
// CHECK: %[[W:.*]] = tosa.cast %[[H:.*]] : (tensor<8xf16>) -> tensor<8xf32>
// CHECK: tosa.cast %[[W]] {precision.inserted_cast} : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK: %[[W2:.*]] = tosa.cast %[[H]] : (tensor<8xf16>) -> tensor<8xf32>
// CHECK-NOT: tosa.cast
// CHECK: return {{.*}}, {{.*}}, %[[H]], %[[W2]]
func.func @not_round_trips(%x: tensor<8xf32>, %h: tensor<8xf16>) -> (tensor<8xf32>, tensor<8xbf16>, tensor<8xf16>, tensor<8xf32>) {
  %n = tosa.cast %x : (tensor<8xf32>) -> tensor<8xf16>
  %nw = tosa.cast %n : (tensor<8xf16>) -> tensor<8xf32>
  %w = tosa.cast %h : (tensor<8xf16>) -> tensor<8xf32>
  %wb = tosa.cast %w {precision.inserted_cast} : (tensor<8xf32>) -> tensor<8xbf16>
  %w2 = tosa.cast %h : (tensor<8xf16>) -> tensor<8xf32>
  %back = tosa.cast %w2 : (tensor<8xf32>) -> tensor<8xf16>
  return %nw, %wb, %back, %w2 : tensor<8xf32>, tensor<8xbf16>, tensor<8xf16>, tensor<8xf32>
}
