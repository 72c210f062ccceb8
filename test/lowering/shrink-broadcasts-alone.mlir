// prec-shrink-broadcasts on its own: elementwise ops computed at the shape
// their non-splat operands span, where every reader is elementwise.
// RUN: prec-opt %s -split-input-file --prec-shrink-broadcasts | FileCheck %s

// An exporter's padding mask: and(splat true, padding) broadcast to
// [B, 1, S, S] varies over the batch and keys only. The and, the select and
// the f16 cast shrink to [2, 1, 1, 4], reading splats of one element; the
// attention's add keeps its shape, which the scores span.
// CHECK-LABEL: func.func @padding_mask
// CHECK: %[[TRUE:.*]] = "tosa.const"() <{values = dense<true> : tensor<1x1x1x1xi1>}>
// CHECK: %[[KEEP:.*]] = tosa.logical_and %[[TRUE]], %arg1 : (tensor<1x1x1x1xi1>, tensor<2x1x1x4xi1>) -> tensor<2x1x1x4xi1>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> {precision.range = array<f64: 0.000000e+00, 0.000000e+00>}
// CHECK: %[[MASK:.*]] = tosa.select %[[KEEP]], %[[ZERO]], %{{.*}} : (tensor<2x1x1x4xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x1x4xf32>
// CHECK: %[[HALF:.*]] = tosa.cast %[[MASK]] : (tensor<2x1x1x4xf32>) -> tensor<2x1x1x4xf16>
// CHECK: tosa.add %arg0, %[[HALF]] : (tensor<2x3x4x4xf16>, tensor<2x1x1x4xf16>) -> tensor<2x3x4x4xf16>
// CHECK-NOT: tensor<1x1x4x1x
func.func @padding_mask(%scores: tensor<2x3x4x4xf16>, %padding: tensor<2x1x1x4xi1>) -> tensor<2x3x4x4xf16> {
  %true = "tosa.const"() <{values = dense<true> : tensor<1x1x4x1xi1>}> : () -> tensor<1x1x4x1xi1>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x4x1xf32>}> {precision.range = array<f64: 0.0, 0.0>} : () -> tensor<1x1x4x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %keep = tosa.logical_and %true, %padding : (tensor<1x1x4x1xi1>, tensor<2x1x1x4xi1>) -> tensor<2x1x4x4xi1>
  %mask = tosa.select %keep, %zero, %ninf : (tensor<2x1x4x4xi1>, tensor<1x1x4x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x4x4xf32>
  %half = tosa.cast %mask : (tensor<2x1x4x4xf32>) -> tensor<2x1x4x4xf16>
  %y = tosa.add %scores, %half : (tensor<2x3x4x4xf16>, tensor<2x1x4x4xf16>) -> tensor<2x3x4x4xf16>
  return %y : tensor<2x3x4x4xf16>
}

// -----

// A mask that is also returned keeps its shape (the function's signature
// says it), and so does the and it reads, which alone spans that shape.
// CHECK-LABEL: func.func @returned
// CHECK: tosa.logical_and {{.*}} -> tensor<2x1x4x4xi1>
// CHECK: tosa.select {{.*}} -> tensor<2x1x4x4xf32>
func.func @returned(%scores: tensor<2x3x4x4xf32>, %padding: tensor<2x1x1x4xi1>) -> (tensor<2x3x4x4xf32>, tensor<2x1x4x4xf32>) {
  %true = "tosa.const"() <{values = dense<true> : tensor<1x1x4x1xi1>}> : () -> tensor<1x1x4x1xi1>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %keep = tosa.logical_and %true, %padding : (tensor<1x1x4x1xi1>, tensor<2x1x1x4xi1>) -> tensor<2x1x4x4xi1>
  %mask = tosa.select %keep, %zero, %ninf : (tensor<2x1x4x4xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x4x4xf32>
  %y = tosa.add %scores, %mask : (tensor<2x3x4x4xf32>, tensor<2x1x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %y, %mask : tensor<2x3x4x4xf32>, tensor<2x1x4x4xf32>
}

// -----

// The select is read by a matmul, so it keeps its shape: its own splat
// operand spans the query axis there, so the and shrinks beneath it.
// A multiplication's shift is no broadcast operand and stays as it is.
// CHECK-LABEL: func.func @kept_reader
// CHECK: tosa.logical_and {{.*}} -> tensor<2x1x1x4xi1>
// CHECK: tosa.select {{.*}} : (tensor<2x1x1x4xi1>, tensor<1x1x4x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x4x4xf32>
// CHECK: tosa.mul {{.*}} : (tensor<1x1x1x1xf32>, tensor<2x1x1x4xf32>, tensor<1xi8>) -> tensor<2x1x1x4xf32>
func.func @kept_reader(%padding: tensor<2x1x1x4xi1>, %x: tensor<2x1x1x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x1x1x4xf32>) {
  %true = "tosa.const"() <{values = dense<true> : tensor<1x1x4x1xi1>}> : () -> tensor<1x1x4x1xi1>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x4x1xf32>}> : () -> tensor<1x1x4x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %keep = tosa.logical_and %true, %padding : (tensor<1x1x4x1xi1>, tensor<2x1x1x4xi1>) -> tensor<2x1x4x4xi1>
  %mask = tosa.select %keep, %zero, %ninf : (tensor<2x1x4x4xi1>, tensor<1x1x4x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x4x4xf32>
  %shape = tosa.const_shape {values = dense<[2, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %m3 = tosa.reshape %mask, %shape : (tensor<2x1x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %m3, %m3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %two, %x, %shift : (tensor<1x1x1x1xf32>, tensor<2x1x1x4xf32>, tensor<1xi8>) -> tensor<2x1x1x4xf32>
  return %p, %y : tensor<2x4x4xf32>, tensor<2x1x1x4xf32>
}

// -----

// A kept op whose shape comes only from the operand that would shrink: the
// operand keeps its shape too. Dynamic shapes are left alone.
// CHECK-LABEL: func.func @spanned_by_operand
// CHECK: tosa.logical_not {{.*}} -> tensor<2x4xi1>
// CHECK: tosa.logical_and {{.*}} -> tensor<?x4xi1>
func.func @spanned_by_operand(%a: tensor<2x1xi1>, %d: tensor<?x4xi1>, %e: tensor<?x1xi1>) -> (tensor<2x4xi1>, tensor<?x4xi1>) {
  %true = "tosa.const"() <{values = dense<true> : tensor<1x4xi1>}> : () -> tensor<1x4xi1>
  %and = tosa.logical_and %true, %a : (tensor<1x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
  %not = tosa.logical_not %and : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %dyn = tosa.logical_and %e, %d : (tensor<?x1xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
  return %not, %dyn : tensor<2x4xi1>, tensor<?x4xi1>
}
