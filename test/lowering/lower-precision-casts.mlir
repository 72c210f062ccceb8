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
