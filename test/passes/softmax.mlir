// Softmax as the importer writes it (max-subtraction, exp, sum, reciprocal,
// product): under every default its exp, sum and reciprocal stay f32, and a
// sum accumulates in f32 even when a pin puts exp in f16.
// RUN: prec-opt %s --prec-legalize="enabled=f16" | FileCheck %s
// RUN: prec-opt %s --prec-legalize="enabled=bf16 target=sm_90" | FileCheck %s --check-prefix=BF16
// RUN: prec-opt %s --prec-legalize="enabled=f16 layer-precisions=exp:f16" | FileCheck %s --check-prefix=PINNED

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // The max and the subtraction follow the input: shifting is exact enough.
  // CHECK: tosa.reduce_max {{.*}}compute = f16, accumulate = f16, storage = f16, reason = inputs
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32> loc("max")
  // CHECK: tosa.sub {{.*}}compute = f16{{.*}}reason = follow
  %shifted = tosa.sub %x, %max : (tensor<2x8x16xf32>, tensor<2x8x1xf32>) -> tensor<2x8x16xf32> loc("sub")
  // CHECK: tosa.exp {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  // BF16: tosa.exp {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  // PINNED: tosa.exp {{.*}}compute = f16, accumulate = f16, storage = f16, reason = pattern
  %e = tosa.exp %shifted : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32> loc("exp")
  // CHECK: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow
  // BF16: tosa.reduce_sum {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow
  // The pinned exp's sum accumulates in f32 and, its reader being f32,
  // stores its f32 accumulator.
  // PINNED: tosa.reduce_sum {{.*}}compute = f16, accumulate = f32, storage = f32, reason = follow
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x16xf32>) -> tensor<2x8x1xf32> loc("sum")
  // CHECK: tosa.reciprocal {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  // BF16: tosa.reciprocal {{.*}}compute = f32, accumulate = f32, storage = f32, reason = class_rule
  %r = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32> loc("reciprocal")
  // CHECK: tosa.mul {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow
  %y = tosa.mul %e, %r, %shift : (tensor<2x8x16xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x16xf32> loc("normalize")
  return %y : tensor<2x8x16xf32>
}
