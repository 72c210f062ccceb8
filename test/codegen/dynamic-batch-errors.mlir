// A dynamic batch the engine cannot honour is an error at the op that
// mixes samples, and bad --batch values are errors too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch=1:2:4 --output-dir=%t --engine-name=e 2>&1 | FileCheck %s
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch=4:2:8 --output-dir=%t --engine-name=e 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch=two --output-dir=%t --engine-name=e 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch-inputs=x --output-dir=%t --engine-name=e 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch=1:2:4 --batch-inputs=nope --output-dir=%t --engine-name=e 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not prec-translate --emit-cuda %s -split-input-file --batch=1:2:8 --batch-inputs=x --output-dir=%t --engine-name=e 2>&1 | FileCheck %s --check-prefix=SIZE

// A malformed --batch is an error of the command line, before the module is
// read; the others are errors at the module.
// ORDER: prec-translate: for the --batch option: '4:2:8' needs 1 <= MIN <= OPT <= MAX and MAX >= 2
// ORDER-NOT: see current operation
// SYNTAX: prec-translate: for the --batch option: 'two' is not MIN:OPT:MAX
// INPUTS: error: --batch-inputs needs --batch
// NAME: error: --batch-inputs names 'nope', which is not an input
// NAME-NOT: see current operation
// SIZE: error: dynamic batch: input 'x' must have the largest batch, 8, as its dimension 0

// CHECK: error: {{.*}}dynamic batch: 'tosa.reduce_sum' cannot run at a smaller batch: it reduces along the batch dimension
func.func @main(%x: tensor<4x3xf32> loc("x")) -> tensor<1x3xf32> {
  %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4x3xf32>) -> tensor<1x3xf32> loc("sum")
  return %s : tensor<1x3xf32>
}

// -----

// CHECK: error: {{.*}}dynamic batch: 'tosa.transpose' cannot run at a smaller batch: it moves the batch dimension inwards
func.func @main(%x: tensor<4x3xf32> loc("x")) -> tensor<3x4xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32> loc("t")
  return %t : tensor<3x4xf32>
}

// -----

// CHECK: error: {{.*}}dynamic batch: 'tosa.concat' cannot run at a smaller batch: it concatenates along the batch dimension or mixes batched and shared inputs
func.func @main(%x: tensor<4x3xf32> loc("x")) -> tensor<8x3xf32> {
  %c = tosa.concat %x, %x {axis = 0 : i32} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32> loc("c")
  return %c : tensor<8x3xf32>
}

// -----

// A weight that varies along the batch is not shared by the samples.
// CHECK: error: {{.*}}dynamic batch: 'tosa.add' cannot run at a smaller batch: an operand that does not depend on the batch is not broadcast along it
func.func @main(%x: tensor<4x3xf32> loc("x")) -> tensor<4x3xf32> {
  %w = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32>}> : () -> tensor<4x3xf32>
  %y = tosa.add %x, %w : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32> loc("add")
  return %y : tensor<4x3xf32>
}

// -----

// The batch in the columns of a matmul's B mixes samples.
// CHECK: error: {{.*}}dynamic batch: 'tosa.matmul' cannot run at a smaller batch: the batch must be the batch dimension of both operands or the rows of A alone
func.func @main(%x: tensor<1x3x4xf32> loc("w"), %y: tensor<4x1xf32> loc("x")) -> tensor<1x3x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[1, 4, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %b = tosa.reshape %y, %s : (tensor<4x1xf32>, !tosa.shape<3>) -> tensor<1x4x1xf32>
  %m = tosa.matmul %x, %b, %zp, %zp : (tensor<1x3x4xf32>, tensor<1x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1xf32> loc("mm")
  return %m : tensor<1x3x1xf32>
}

// -----

// CHECK: error: {{.*}}dynamic batch: no input has the largest batch, 4, as its dimension 0
func.func @main(%x: tensor<2x3xf32> loc("x")) -> tensor<2x3xf32> {
  %y = tosa.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// An attention whose query holds the batch in dimension 0 but reads it by
// a stride inside the sequence's: a smaller batch is no prefix of it.
// CHECK: error: {{.*}}dynamic batch: 'engine.attention' cannot run at a smaller batch: its query, keys and values must carry the batch in dimension 0, outermost, as its mask if any
func.func @main(%q: tensor<4x8x32xf16> loc("q"), %kt: tensor<8x16x8xf16> loc("kt"), %v: tensor<8x8x16xf16> loc("v")) -> tensor<8x8x16xf16> {
  %o = engine.attention %q, %kt, %v {heads = 2 : i64, kernel = #engine.attention_kernel<warp_per_row>, masked_type = f32, scale = 1.0 : f64, scaled_type = f32, score_type = f32, sizes = array<i64: 8, 8, 8, 16, 16>, query_strides = array<i64: 32, 16, 128, 1>} : (tensor<4x8x32xf16>, tensor<8x16x8xf16>, tensor<8x8x16xf16>) -> tensor<8x8x16xf16> loc("attention")
  return %o : tensor<8x8x16xf16>
}


// -----

// A pad of the batch dimension adds samples.
// CHECK: error: {{.*}}dynamic batch: 'tosa.pad' cannot run at a smaller batch: it pads the batch dimension
func.func @main(%x: tensor<4x3xf32> loc("x")) -> tensor<5x3xf32> {
  %padding = tosa.const_shape {values = dense<[0, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %x, %padding, %zero : (tensor<4x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<5x3xf32> loc("pad")
  return %p : tensor<5x3xf32>
}
