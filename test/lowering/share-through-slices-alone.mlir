// prec-share-through-slices on its own: a chain of elementwise ops reading
// a slice, whose twin chain reads the whole tensor earlier, becomes a slice
// of the twin's result.
// RUN: prec-opt %s -split-input-file --prec-share-through-slices | FileCheck %s

// A downsample's quantization of the sliced block output is a slice of the
// next block's quantization of the whole (the same scale): the f16 slice
// and the four ops after it go, and the slice moves i8.
// CHECK-LABEL: func.func @quantized_twice
// CHECK: %[[WHOLE:.*]] = tosa.cast %{{.*}} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xi8>
// CHECK-NOT: tosa.cast
// CHECK-NOT: tosa.mul
// CHECK: %[[SLICE:.*]] = tosa.slice %[[WHOLE]], %{{.*}}, %{{.*}} : (tensor<1x4x4x8xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x8xi8>
// CHECK-NEXT: return %[[WHOLE]], %[[SLICE]]
func.func @quantized_twice(%x: tensor<1x4x4x8xf16>) -> (tensor<1x4x4x8xi8>, tensor<1x3x3x8xi8>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<60.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %f = tosa.cast %x : (tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf32>
  %m = tosa.mul %f, %scale, %shift : (tensor<1x4x4x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x8xf32>
  %c = tosa.clamp %m {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %q = tosa.cast %c : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xi8>
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 3, 3, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x4x4x8xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x8xf16>
  %sf = tosa.cast %s : (tensor<1x3x3x8xf16>) -> tensor<1x3x3x8xf32>
  %sm = tosa.mul %sf, %scale, %shift : (tensor<1x3x3x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x3x3x8xf32>
  %sc = tosa.clamp %sm {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  %sq = tosa.cast %sc : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xi8> loc("downsample.quantize")
  return %q, %sq : tensor<1x4x4x8xi8>, tensor<1x3x3x8xi8>
}

// -----

// Chains that differ (another clamp) share only their first op, the f32
// widening: moved through the slice it would widen what the slice moves,
// and make the twin's f32 result be stored. Nothing changes.
// CHECK-LABEL: func.func @different_clamp
// CHECK: tosa.slice %arg0
// CHECK-NEXT: tosa.cast
// CHECK-NEXT: tosa.clamp
func.func @different_clamp(%x: tensor<1x4x4x8xf16>) -> (tensor<1x4x4x8xf32>, tensor<1x3x3x8xf32>) {
  %f = tosa.cast %x : (tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf32>
  %c = tosa.clamp %f {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 3, 3, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x4x4x8xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x8xf16>
  %sf = tosa.cast %s : (tensor<1x3x3x8xf16>) -> tensor<1x3x3x8xf32>
  %sc = tosa.clamp %sf {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  return %c, %sc : tensor<1x4x4x8xf32>, tensor<1x3x3x8xf32>
}

// -----

// A twin after the sliced chain is not used (its result would be read
// before it exists), nor is a twin reading another tensor.
// CHECK-LABEL: func.func @later_twin
// CHECK: tosa.slice %arg0
// CHECK-NEXT: tosa.cast
// CHECK: tosa.cast %arg0
// CHECK-NEXT: tosa.cast %arg1
func.func @later_twin(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x8xf32>) -> (tensor<1x3x3x8xf16>, tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>) {
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 3, 3, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x4x4x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x8xf32>
  %sh = tosa.cast %s : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf16>
  %h = tosa.cast %x : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf16>
  %g = tosa.cast %y : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf16>
  return %sh, %h, %g : tensor<1x3x3x8xf16>, tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>
}

// -----

// Nor an op broadcasting the slice along a sliced dimension: its element
// reads the slice's one row for all of its rows, the twin's every row.
// CHECK-LABEL: func.func @broadcast_slice
// CHECK: tosa.add %arg0, %arg1
// CHECK: tosa.slice %arg0
// CHECK-NEXT: tosa.add
func.func @broadcast_slice(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %a = tosa.add %x, %y : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 1, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x4x4x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x4x8xf32>
  %b = tosa.add %s, %y : (tensor<1x1x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %a, %b : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}
