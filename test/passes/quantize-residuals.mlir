// prec-quantize with residuals: an add that a quantized product feeds reads
// its other operand, a residual of its shape, quantized in the product's
// type and dequantized back (TensorRT's Q/DQ placement for residual adds).
// Without the option, adds keep their float inputs.
// RUN: prec-opt %s -split-input-file -verify-diagnostics --prec-quantize=residuals=true --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: prec-opt %s -split-input-file --prec-quantize | FileCheck %s --check-prefix=PLAIN
// RUN: prec-opt %S/Inputs/residual-block.mlir --prec-legalize="target=cpu enabled=f16,i8 constraints=obey layer-precisions=mm:i8 val-range=x:[-2,2] quantize-residuals=true" | FileCheck %s --check-prefix=PIPELINE
// RUN: prec-opt %S/Inputs/residual-block.mlir --prec-legalize="target=cpu enabled=f16,i8 constraints=obey layer-precisions=mm:i8 val-range=x:[-2,2] quantize-residuals=true report-table=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// The report says so in the add's detail.
// REPORT: sum tosa.add f16 f16 f16 follow 0 its residual input is stored in i8 (quantize-residuals)

// The prec-legalize option: the f16 residual of an i8 matmul is read
// through i8 (scale 2 / 127).
// PIPELINE: %[[Q:.*]] = tosa.cast %{{.*}} : (tensor<1x2x16xf32>) -> tensor<1x2x16xi8>
// PIPELINE: tosa.matmul
// PIPELINE: %[[R:.*]] = tosa.cast %[[Q]] : (tensor<1x2x16xi8>) -> tensor<1x2x16xf32>
// PIPELINE: %[[S:.*]] = "tosa.const"() <{values = dense<0.0157480314> : tensor<1x1x1xf32>}>
// PIPELINE: %[[RS:.*]] = tosa.mul %[[R]], %[[S]]
// PIPELINE: %[[R16:.*]] = tosa.cast %[[RS]] : (tensor<1x2x16xf32>) -> tensor<1x2x16xf16>
// PIPELINE: tosa.add %{{.*}}, %[[R16]] {{{.*}}precision.layer = "sum"

// PLAIN-LABEL: func.func @block
// PLAIN-NOT: tosa.cast {{.*}} : (tensor<1x2x4xi8>) -> tensor<1x2x4xf32>
// PLAIN: tosa.add %{{.*}}, %arg0 :
// PLAIN-LABEL: func.func @two_products
// PLAIN-NOT: tosa.cast {{.*}} : (tensor<1x2x4xi8>) -> tensor<1x2x4xf32>
// PLAIN: tosa.add %{{.*}}, %{{.*}} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>)
// PLAIN-LABEL: func.func @f8_argument
// PLAIN: tosa.add %{{.*}}, %arg1 :

// A bottleneck's end: the block input %h (f16) feeds the product, through
// its widening, and the residual add. The add reads the i8 tensor the
// product already reads (one quantization of %h: scale 4 / 127), widened,
// times 4 / 127, rounded to f16.
// CHECK-LABEL: func.func @block
// CHECK: %[[WIDE:.*]] = tosa.cast %arg0 : (tensor<1x2x4xf16>) -> tensor<1x2x4xf32>
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<3.175000e+01> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %[[WIDE]], %[[INV]]
// CHECK: %[[CLAMPED:.*]] = tosa.clamp %[[SCALED]]
// CHECK: %[[Q:.*]] = tosa.cast %[[CLAMPED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8>
// CHECK-NOT: -> tensor<1x2x4xi8>
// CHECK: %[[ACC:.*]] = tosa.matmul %[[Q]]
// CHECK: %[[Y:.*]] = tosa.cast %{{.*}} {precision.epilogue} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf16>
// CHECK: %[[R:.*]] = tosa.cast %[[Q]] : (tensor<1x2x4xi8>) -> tensor<1x2x4xf32> loc("sum.residual.dequantize.convert"
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<0.0314960629> : tensor<1x1x1xf32>}>
// CHECK: %[[RS:.*]] = tosa.mul %[[R]], %[[S]], %{{.*}} : {{.*}} loc("sum.residual.dequantize"
// CHECK: %[[R16:.*]] = tosa.cast %[[RS]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xf16> loc("sum.residual"
// CHECK: tosa.add %[[Y]], %[[R16]] : {{.*}} loc("sum"
func.func @block(%h: tensor<1x2x4xf16>) -> tensor<1x2x4xf16> {
  %wide = tosa.cast %h : (tensor<1x2x4xf16>) -> tensor<1x2x4xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %wide, %w, %zp, %zp {precision.input_range = array<f64: -4.0, 4.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %y = tosa.cast %m {precision.epilogue} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf16>
  %a = tosa.add %y, %h : (tensor<1x2x4xf16>, tensor<1x2x4xf16>) -> tensor<1x2x4xf16> loc("sum")
  return %a : tensor<1x2x4xf16>
}

// -----

// An add of two products (a block's last convolution and its projection
// shortcut): the later one stays in float, the earlier one is the residual,
// quantized after it from the range observed of its float result
// ([-3, 2]: scale 3 / 127, times 42.33 to quantize), in f32 as it is. An
// add of a product and a broadcast bias is not a residual add.
// CHECK-LABEL: func.func @two_products
// CHECK: %[[FIRST:.*]] = tosa.mul {{.*}} loc("first.dequantize"
// CHECK: %[[INV:.*]] = "tosa.const"() <{values = dense<42.3333321> : tensor<1x1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %[[FIRST]], %[[INV]], %{{.*}} loc("sum.residual.quantize.scale"
// CHECK: %[[CLAMPED:.*]] = tosa.clamp %[[SCALED]] {{.*}} loc("sum.residual.quantize.clamp"
// CHECK: %[[Q:.*]] = tosa.cast %[[CLAMPED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8> loc("sum.residual.quantize"
// CHECK: %[[SECOND:.*]] = tosa.mul {{.*}} loc("second.dequantize"
// CHECK: %[[R:.*]] = tosa.cast %[[Q]] : (tensor<1x2x4xi8>) -> tensor<1x2x4xf32>
// CHECK: %[[RS:.*]] = tosa.mul %[[R]], {{.*}} loc("sum.residual.dequantize"
// CHECK: %[[SUM:.*]] = tosa.add %[[RS]], %[[SECOND]] : {{.*}} loc("sum"
// CHECK: tosa.add %[[SUM]], %{{.*}} : (tensor<1x2x4xf32>, tensor<1x1x4xf32>) -> tensor<1x2x4xf32> loc("bias"
func.func @two_products(%x: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = "tosa.const"() <{values = dense<1.0> : tensor<1x1x4xf32>}> : () -> tensor<1x1x4xf32>
  %m1 = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.observed_range = array<f64: -3.0, 2.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32> loc("first")
  %m2 = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32> loc("second")
  %a = tosa.add %m1, %m2 : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32> loc("sum")
  %c = tosa.add %a, %b : (tensor<1x2x4xf32>, tensor<1x1x4xf32>) -> tensor<1x2x4xf32> loc("bias")
  return %c : tensor<1x2x4xf32>
}

// -----

// f8: the residual, the function's argument, is quantized from its range
// ([0, 8], val-range) in f8E4M3FN, without a clamp (the conversion
// saturates), at the start of the function.
// CHECK-LABEL: func.func @f8_argument
// CHECK-NEXT: %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT: %[[INV:.*]] = "tosa.const"() <{values = dense<5.600000e+01> : tensor<1x1x1xf32>}>
// CHECK-NEXT: %[[SCALED:.*]] = tosa.mul %arg1, %[[INV]], %[[SHIFT]]
// CHECK-NEXT: %[[Q:.*]] = tosa.cast %[[SCALED]] : (tensor<1x2x4xf32>) -> tensor<1x2x4xf8E4M3FN>
// CHECK: %[[R:.*]] = tosa.cast %[[Q]] : (tensor<1x2x4xf8E4M3FN>) -> tensor<1x2x4xf32>
// CHECK: %[[RS:.*]] = tosa.mul %[[R]], {{.*}} loc("sum.residual.dequantize"
// CHECK: tosa.add %{{.*}}, %[[RS]]
func.func @f8_argument(%x: tensor<1x2x4xf32>, %y: tensor<1x2x4xf32> {precision.range = array<f64: 0.0, 8.0>}) -> tensor<1x2x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = f8E4M3FN} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %a = tosa.add %m, %y : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32> loc("sum")
  return %a : tensor<1x2x4xf32>
}

// -----

// A tensor has one scale: %y, the residual, is quantized by a product
// after the add (input_range [-2, 2]); the add reads it quantized with that
// scale (times 63.5), built where %y is, though %y has no range of its own.
// An add of a product to itself has no residual.
// CHECK-LABEL: func.func @later_product
// CHECK-NEXT: %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT: %[[INV:.*]] = "tosa.const"() <{values = dense<6.350000e+01> : tensor<1x1x1xf32>}>
// CHECK-NEXT: %[[SCALED:.*]] = tosa.mul %arg1, %[[INV]], %[[SHIFT]]
// CHECK: %[[SUM:.*]] = tosa.add %{{.*}}, %{{.*}} : {{.*}} loc("sum"
// CHECK: tosa.mul %arg1, %{{.*}} loc("later.quantize.scale"
// CHECK: %[[TWICE:.*]] = tosa.add %[[P:.*]], %[[P]] : {{.*}} loc("twice"
func.func @later_product(%x: tensor<1x2x4xf32>, %y: tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32> loc("first")
  %a = tosa.add %m, %y : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32> loc("sum")
  %l = tosa.matmul %y, %w, %zp, %zp {precision.input_range = array<f64: -2.0, 2.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32> loc("later")
  %t = tosa.add %l, %l : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32> loc("twice")
  return %a, %l, %t : tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// A residual without a range has no scale.
func.func @no_range(%x: tensor<1x2x4xf32>, %y: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -1.0, 1.0>, precision.quantize = i8} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  // expected-error @+1 {{the residual input of tosa.add is quantized to 'i8' (quantize-residuals) but has no range: calibrate the model}}
  %a = tosa.add %m, %y : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  return %a : tensor<1x2x4xf32>
}
