// prec-fuse-elementwise on its own, on the linalg.generic ops that
// tosa-to-linalg writes: a producer with one user fuses into it unless
// the fused body would exceed max-body-ops.
// RUN: prec-opt %s -split-input-file --prec-fuse-elementwise | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-fuse-elementwise="max-body-ops=3" | FileCheck %s --check-prefix=BOUNDED

// Two generics of two body ops each: one body of three unbounded; 2 + 2
// exceeds a bound of 3, so they stay apart.
// CHECK-LABEL: func.func @pair
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[IN]] : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[E]] : f32
// CHECK-NEXT: linalg.yield %[[T]] : f32
// CHECK: return %[[G]]
// BOUNDED-LABEL: func.func @pair
// BOUNDED-COUNT-2: linalg.generic
// BOUNDED-NOT: linalg.generic
func.func @pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// A producer that is also returned has a second user: it is not fused.
// CHECK-LABEL: func.func @shared_producer
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>)
// CHECK-NOT: math.exp
// CHECK: math.tanh
// CHECK: return %[[A]], %[[B]]
// BOUNDED-LABEL: func.func @shared_producer
// BOUNDED-COUNT-2: linalg.generic
func.func @shared_producer(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// No producer fuses into an op that reduces: a sum reads its operands as
// they are laid out, so its order does not depend on how they were made
// (prec-debug's compile-once program relies on it).
// CHECK-LABEL: func.func @into_reduction
// BOUNDED-LABEL: func.func @into_reduction
// CHECK: %[[T:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[T]] : tensor<8x4xf32>)
func.func @into_reduction(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<8x4xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
