// prec-binding-layout on its own: with layout=nhwc every 4-D input and
// output of a function is bound NHWC, with transposes that keep the body
// NCHW and cancel against the body's own layout transposes; nchw (the
// default) changes nothing.
// RUN: prec-opt %s -split-input-file --prec-binding-layout="layout=nhwc" | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-binding-layout | FileCheck %s --check-prefix=NCHW
// RUN: prec-opt %s -split-input-file --prec-binding-layout="layout=nchw" | FileCheck %s --check-prefix=NCHW
// RUN: not prec-opt %s --prec-binding-layout="layout=nwhc" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --layout option: Cannot find option named 'nwhc'!

// A 4-D input becomes NHWC and is transposed back to NCHW for the body;
// the 4-D result is transposed to NHWC before the return. The 2-D binding
// keeps its type and gets no transpose.
// CHECK-LABEL: func.func @nchw_body
// CHECK-SAME: (%arg0: tensor<1x4x5x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<1x4x5x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[IN:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT: %[[A:.*]] = tosa.abs %[[IN]] : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT: %[[OUT:.*]] = tosa.transpose %[[A]] {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
// CHECK-NEXT: return %[[OUT]], %arg1 : tensor<1x4x5x3xf32>, tensor<2x3xf32>
// NCHW-LABEL: func.func @nchw_body
// NCHW-SAME: (%arg0: tensor<1x3x4x5xf32>, %arg1: tensor<2x3xf32>) -> (tensor<1x3x4x5xf32>, tensor<2x3xf32>)
// NCHW-NEXT: tosa.abs %arg0
// NCHW-NEXT: return
func.func @nchw_body(%x: tensor<1x3x4x5xf32>, %v: tensor<2x3xf32>) -> (tensor<1x3x4x5xf32>, tensor<2x3xf32>) {
  %a = tosa.abs %x : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %a, %v : tensor<1x3x4x5xf32>, tensor<2x3xf32>
}

// -----

// A body that works in NHWC between an NCHW -> NHWC and an NHWC -> NCHW
// transpose (as the importer writes around convolutions): both transposes
// cancel against the bindings' and none is left.
// CHECK-LABEL: func.func @nhwc_body
// CHECK-SAME: (%arg0: tensor<1x4x5x3xf32>) -> tensor<1x4x5x3xf32>
// CHECK-NEXT: %[[A:.*]] = tosa.abs %arg0 : (tensor<1x4x5x3xf32>) -> tensor<1x4x5x3xf32>
// CHECK-NEXT: return %[[A]] : tensor<1x4x5x3xf32>
// NCHW-LABEL: func.func @nhwc_body
// NCHW-SAME: (%arg0: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
// NCHW-COUNT-2: tosa.transpose
func.func @nhwc_body(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  %a = tosa.abs %t : (tensor<1x4x5x3xf32>) -> tensor<1x4x5x3xf32>
  %b = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  return %b : tensor<1x3x4x5xf32>
}

// -----

// The input feeds both an NHWC transpose (which cancels) and an NCHW op
// (which keeps the restoring transpose). The NHWC value returned as is
// is a 4-D output like any other: its NCHW dims 1x4x5x3 are bound NHWC as
// 1x5x3x4.
// CHECK-LABEL: func.func @mixed_users
// CHECK-SAME: (%arg0: tensor<1x4x5x3xf32>) -> (tensor<1x5x3x4xf32>, tensor<1x4x5x3xf32>)
// CHECK-NEXT: %[[IN:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT: %[[A:.*]] = tosa.abs %[[IN]]
// CHECK-NEXT: %[[T:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x5x3xf32>) -> tensor<1x5x3x4xf32>
// CHECK-NEXT: %[[B:.*]] = tosa.transpose %[[A]] {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
// CHECK-NEXT: return %[[T]], %[[B]]
func.func @mixed_users(%x: tensor<1x3x4x5xf32>) -> (tensor<1x4x5x3xf32>, tensor<1x3x4x5xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  %a = tosa.abs %x : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %t, %a : tensor<1x4x5x3xf32>, tensor<1x3x4x5xf32>
}

// -----

// A returned NHWC -> NCHW transpose that another op also reads: the return
// takes its NHWC source, the transpose stays for the other op.
// CHECK-LABEL: func.func @returned_transpose_shared
// CHECK-SAME: (%arg0: tensor<1x4x5x3xf32>) -> (tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>)
// CHECK-NEXT: %[[B:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT: %[[E:.*]] = tosa.exp %[[B]] : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT: %[[OUT:.*]] = tosa.transpose %[[E]] {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT: return %arg0, %[[OUT]] : tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>
func.func @returned_transpose_shared(%x: tensor<1x3x4x5xf32>) -> (tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  %b = tosa.transpose %t {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  %e = tosa.exp %b : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %b, %e : tensor<1x3x4x5xf32>, tensor<1x3x4x5xf32>
}

// -----

// A declaration has no body to transpose in: its signature stays NCHW.
// CHECK-LABEL: func.func private @declaration
// CHECK-SAME: (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
func.func private @declaration(tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
