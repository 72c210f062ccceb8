//===- Passes.td - prec's precision passes -----------------*- tablegen -*-===//
//
// The passes of the `prec-legalize` pipeline, in pipeline order. Between
// passes, state lives in attributes of the precision dialect:
// `precision.policy` on the module, `precision.request`,
// `precision.range` and `precision.assigned` on ops.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_TD
#define PREC_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrecApplyCalibration : Pass<"prec-apply-calibration", "::mlir::ModuleOp"> {
  let summary = "Give the ops that may be quantized the ranges of a calibration";
  let description = [{
    Reads a calibration (`calibration=`, written by prec-calibrate), checks
    that it was made for this model (an error names what differs) and
    records, on every matmul and convolution whose input it calibrates, the
    range [-amax, amax] as `precision.input_range` for prec-quantize. A
    range given by the op's precision.region outranks the calibration; the
    calibration outranks range analysis. Runs first in prec-legalize, on the
    model as the user wrote it.

    Example, with a calibration that gives input `x` an amax of 7.9375:

    ```mlir
    // Input:
    %m = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x4x3xf32>
    // Output:
    %m = tosa.matmul %x, %w, %zp, %zp
           {precision.input_range = array<f64: -7.937500e+00, 7.937500e+00>}
           : (...) -> tensor<1x4x3xf32>
    ```
  }];
  let options = [
    Option<"calibration", "calibration", "std::string", /*default=*/"\"\"",
           "a calibration JSON file (prec-calibrate)">
  ];
}

def PrecBindingLayout : Pass<"prec-binding-layout", "::mlir::ModuleOp"> {
  let summary = "Choose the memory layout of 4-D bindings: NCHW or NHWC";
  let description = [{
    With `layout=nhwc` (PyTorch's channels_last), every 4-D input and output
    of the functions is bound in NHWC order: a transpose at the entry (and
    before the return) keeps the body's NCHW semantics, and where the body
    itself transposes to NHWC (the importer does around convolutions) the
    two transposes cancel. `nchw`, the default, changes nothing.

    Example, with `layout=nhwc`:

    ```mlir
    // Input:
    func.func @f(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
      %a = tosa.abs %x : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
      return %a : tensor<1x3x4x5xf32>
    }
    // Output:
    func.func @f(%x: tensor<1x4x5x3xf32>) -> tensor<1x4x5x3xf32> {
      %0 = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
      %1 = tosa.abs %0 : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
      %2 = tosa.transpose %1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
      return %2 : tensor<1x4x5x3xf32>
    }
    ```
  }];
  let options = [
    Option<"layout", "layout", "::prec::BindingLayout",
           /*default=*/"::prec::BindingLayout::NCHW",
           "memory layout of 4-D bindings", [{PREC_BINDING_LAYOUT_VALUES}]>
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecAnnotate : Pass<"prec-annotate", "::mlir::ModuleOp"> {
  let summary = "Turn the policy, regions, patterns and a plan into per-op "
                "precision requests";
  let description = [{
    Writes the module's `precision.policy` (the options override what the
    module already says) and attaches a `precision.request` to every op
    somebody asked a precision of. Precedence, highest first:

    1. an op entry of the plan file (`plan=`),
    2. a `layer-precisions` pattern,
    3. the innermost enclosing `precision.region`,
    4. an op-class rule of the plan file.

    Within the plan and within `layer-precisions` the last matching entry
    wins, so `*:f16,Add:f32` reads as "everything f16 but Add".
    `layer-output-types` sets the storage type whatever set the compute type.
    A pattern matches an op's name (its location's `NameLoc`) or its op name
    (`tosa.add`), with `*` and `?` globs.

    Example, with `enabled=f16 layer-precisions=Abs:bf16` (the module also
    gets `precision.policy = #precision.policy<typing = weak, enabled =
    [f16], constraints = prefer, target = "cpu">`):

    ```mlir
    // Input:
    %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32> loc("Abs")
    %r = precision.region f16 obey (%in = %a : tensor<4xf32>) -> tensor<4xf32> {
      %e = tosa.exp %in : (tensor<4xf32>) -> tensor<4xf32>
      precision.yield %e : tensor<4xf32>
    }
    // Output:
    %a = tosa.abs %x {precision.layer = "Abs", precision.request = #precision.request<compute = bf16, mode = prefer, origin = pattern>} : (tensor<4xf32>) -> tensor<4xf32>
    %r = precision.region f16 obey (%in = %a : tensor<4xf32>) -> tensor<4xf32> {
      %e = tosa.exp %in {precision.request = #precision.request<compute = f16, mode = obey, origin = region>} : (tensor<4xf32>) -> tensor<4xf32>
      precision.yield %e : tensor<4xf32>
    }
    ```
  }];
  let options = [
    Option<"typing", "typing", "::prec::TypingChoice",
           /*default=*/"::prec::TypingChoice::Module",
           "whether ops keep the model's types", [{PREC_TYPING_VALUES}]>,
    ListOption<"enabled", "enabled", "std::string",
               "reduced precisions the compiler may choose (f32 always may)">,
    Option<"constraints", "constraints", "::prec::ConstraintsChoice",
           /*default=*/"::prec::ConstraintsChoice::Module",
           "default mode of pinned ops", [{PREC_CONSTRAINTS_VALUES}]>,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "cpu or sm_53 ... sm_121">,
    ListOption<"layerPrecisions", "layer-precisions", "std::string",
               "<pattern>:<type> compute types of matching ops">,
    ListOption<"layerOutputTypes", "layer-output-types", "std::string",
               "<pattern>:<type> storage types of matching ops">,
    Option<"planFile", "plan", "std::string", /*default=*/"\"\"",
           "a precision plan JSON file">
  ];
  let dependentDialects = ["::prec::precision::PrecisionDialect"];
}

def PrecRangeAnalysis : Pass<"prec-range-analysis", "::mlir::ModuleOp"> {
  let summary = "Bound the values of every tensor from input ranges";
  let description = [{
    Forward interval propagation. `val-range=x:[1,2]` gives input `x` (an
    argument named by its `NameLoc`, or `argN`) the range [1, 2]; the
    pass records it as the argument's `precision.range` and attaches to each
    op the range of its result as `precision.range = array<f64: lo, hi>`.
    Ranges the analysis cannot bound are not recorded.

    Example, with `val-range=x:[1,2]`:

    ```mlir
    // Input:
    func.func @f(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
      %e = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
      ...
    // Output:
    func.func @f(%x: tensor<4xf32> {precision.range = array<f64: 1.000000e+00, 2.000000e+00>}) -> tensor<4xf32> {
      %e = tosa.exp %x {precision.range = array<f64: 2.7182818284590451, 7.3890560989306504>} : (tensor<4xf32>) -> tensor<4xf32>
      ...
    ```
  }];
  let options = [
    ListOption<"valRanges", "val-range", "std::string",
               "<input>:[lo,hi] ranges of the inputs">
  ];
  let dependentDialects = ["::prec::precision::PrecisionDialect"];
}

def PrecPropagate : Pass<"prec-propagate", "::mlir::ModuleOp"> {
  let summary = "Give every op its compute, accumulate and storage types";
  let description = [{
    Attaches a `precision.assigned` to every float op, from its request if it
    has one, else from the policy's typing mode and the op-class rules:
    strong typing keeps the IR's types; under weak typing an op whose weights
    are of a reduced type computes in it (layer casting), contractions take
    the lowest enabled precision, sensitive ops stay f32, and the rest follow
    their producers (bindings and constants pin nothing: an op fed only by
    them takes the lowest enabled precision).

    Example, under a policy of weak typing with f16 enabled:

    ```mlir
    // Input:
    %m = tosa.matmul %x, %x, %zp, %zp : (...) -> tensor<1x2x2xf32>
    %a = tosa.abs %m : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %e = tosa.exp %a : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    // Output:
    %m = tosa.matmul %x, %x, %zp, %zp {precision.assigned = #precision.assignment<compute = f16, accumulate = f32, storage = f16, reason = class_rule>} : (...) -> tensor<1x2x2xf32>
    %a = tosa.abs %m {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = follow>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    %e = tosa.exp %a {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = class_rule>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
    ```
  }];
  let dependentDialects = ["::prec::precision::PrecisionDialect"];
}

def PrecLegalizeTypes : Pass<"prec-legalize-types", "::mlir::ModuleOp"> {
  let summary = "Check every choice against the target and the value ranges";
  let description = [{
    Against the support table of the policy's target: an unsupported type
    requested with `obey` is an error at the op, with `prefer` it falls back
    to the nearest wider supported type with a warning, otherwise silently.
    Against the ranges: an op whose operands or result overflow (or
    underflow) its type is promoted to a wider type with a remark, unless
    typing is strong or the op is pinned with `obey`, where a warning says it
    will overflow. Finally contractions store in the type their consumers
    compute in, when their accumulator holds it, to save casts.

    Example, an f16 choice of the compiler's whose range overflows f16:

    ```mlir
    // Input:
    %y = tosa.mul %x, %big, %shift {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>, precision.range = array<f64: 6.000000e+04, 1.200000e+05>} : (...) -> tensor<4xf32>
    // Output, with the remark "tosa.mul promoted from 'f16' to 'f32': its
    // result range [60000, 120000] exceeds f16's largest finite value 65504":
    %y = tosa.mul %x, %big, %shift {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range, detail = "its result range [60000, 120000] exceeds f16's largest finite value 65504">, precision.range = array<f64: 6.000000e+04, 1.200000e+05>} : (...) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::prec::precision::PrecisionDialect"];
}

def PrecMaterialize : Pass<"prec-materialize", "::mlir::ModuleOp"> {
  let summary = "Rewrite ops to their assigned types and insert the casts";
  let description = [{
    Dissolves `precision.region`s, rewrites every assigned op to its types
    and inserts `tosa.cast`s only where a value crosses types: one cast per
    (value, type), shared by all users; a widening cast is looked through
    when its source already has the wanted type (f16 -> f32 -> f16 becomes
    nothing, f32 -> f16 -> f32 is kept); constants are converted at compile
    time. Casts the model asked for are kept. The function signature does
    not change unless `io-types` asks.

    Example:

    ```mlir
    // Input:
    %w = "tosa.const"() <{values = dense<0.1> : tensor<4xf32>}> : () -> tensor<4xf32>
    %a = tosa.add %x, %w {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e = tosa.exp %a {precision.assigned = #precision.assignment<compute = f32, ...>} : (tensor<4xf32>) -> tensor<4xf32>
    // Output:
    %0 = tosa.cast %x {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
    %1 = "tosa.const"() <{values = dense<9.997550e-02> : tensor<4xf16>}> : () -> tensor<4xf16>
    %2 = tosa.add %0, %1 {precision.assigned = ...} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
    %3 = tosa.cast %2 {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
    %4 = tosa.exp %3 {precision.assigned = ...} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let options = [
    ListOption<"ioTypes", "io-types", "std::string",
               "<binding>:<type> element types of inputs (by name or argN) "
               "and outputs (resultN)">
  ];
  let dependentDialects = ["::prec::precision::PrecisionDialect",
                           "::mlir::tosa::TosaDialect"];
}

def PrecQuantize : Pass<"prec-quantize", "::mlir::ModuleOp"> {
  let summary = "Give the matmuls pinned to i8 or f8 their scales and types";
  let description = [{
    After prec-materialize, which leaves a matmul pinned to i8 or f8 on f32
    values (marked `precision.quantize`): its input is divided by a
    per-tensor scale from its range (its region's `input_range`, a
    calibration, or range analysis) and converted (i8: clamped to +-127 and rounded to nearest
    even; f8: rounded to nearest even, saturating); its constant weights
    are quantized here, per output channel for i8 and per tensor for f8;
    the product (i8: i32, f8: f32) is multiplied back by the scales in f32.
    Without a range, or with weights that are not constant, it is an error.

    Example, f8E4M3FN with the input range [-4, 4] and weights of 0.5
    (s_x = 4 / 448, s_w = 0.5 / 448):

    ```mlir
    // Input:
    %m = tosa.matmul %x, %w, %zp, %zp {precision.input_range = array<f64: -4.0, 4.0>, precision.quantize = f8E4M3FN} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>, ...) -> tensor<1x2x2xf32>
    // Output:
    %1 = "tosa.const"() <{values = dense<1.120000e+02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %2 = tosa.mul %x, %1, %shift : (tensor<1x2x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x4xf32>
    %3 = tosa.cast %2 : (tensor<1x2x4xf32>) -> tensor<1x2x4xf8E4M3FN>
    %4 = "tosa.const"() <{values = dense<4.480000e+02> : tensor<1x4x2xf8E4M3FN>}> : () -> tensor<1x4x2xf8E4M3FN>
    %6 = tosa.matmul %3, %4, %5, %5 : (tensor<1x2x4xf8E4M3FN>, tensor<1x4x2xf8E4M3FN>, ...) -> tensor<1x2x2xf32>
    %7 = "tosa.const"() <{values = dense<9.96492326E-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %8 = tosa.mul %6, %7, %shift : (tensor<1x2x2xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x2xf32>
    ```

    With `residuals`, an add that a quantized product feeds (directly or
    through its storage conversion) reads its other operand, a residual of
    its own shape, quantized in the product's type and dequantized back:
    TensorRT's recommended Q/DQ placement for residual adds, which stores
    the residual stream between blocks in 8 bits. The residual is quantized
    with the scale a product reading the same tensor uses, else from its
    range. Of an add fed by two products, the later one stays in float.
  }];
  let options = [
    Option<"residuals", "residuals", "bool", "false",
           "quantize the residual inputs of adds that quantized products "
           "feed">,
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def PrecReport : Pass<"prec-report", "::mlir::ModuleOp"> {
  let summary = "Explain the precision of every op";
  let description = [{
    Writes, per op, its name, op, location, compute / accumulate / storage
    types, the reason and the casts inserted in front of it, with totals, as
    JSON (`report=`) and as a table (`report-table=`, `-` for stderr).
    `baseline=` names an earlier JSON report: the table then lists only the
    ops whose types changed since. `report-graph=` draws the dataflow graph
    with Graphviz: ops coloured by compute type, inserted casts as red
    diamonds, f32 ops labelled with their reason (a `.dot` file is written
    as it is; `.svg`, `.png` or `.pdf` are rendered by `dot`). `report-html=`
    writes the table as one self-contained HTML page, rows coloured by
    compute type, sortable by any column.

    Example, with `report-table=-`; the IR is unchanged:

    ```mlir
    // Input:
    %0 = tosa.cast %x {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
    %1 = tosa.abs %0 {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf16>) -> tensor<4xf16> loc("Abs")
    %2 = tosa.cast %1 {precision.inserted_cast} : (tensor<4xf16>) -> tensor<4xf32>
    // Table on stderr:
    // name    op        compute  accumulate storage  reason        casts detail
    // Abs     tosa.abs  f16      f16        f16      inputs        1
    // totals: 1 ops (f16: 1), 2 casts inserted, 0 epilogue conversions
    ```
  }];
  let options = [
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "where to write the JSON report">,
    Option<"tableFile", "report-table", "std::string", /*default=*/"\"\"",
           "where to write the table (- for stderr)">,
    Option<"baselineFile", "baseline", "std::string", /*default=*/"\"\"",
           "an earlier JSON report to diff against">,
    Option<"graphFile", "report-graph", "std::string", /*default=*/"\"\"",
           "where to draw the graph (.dot, .svg, .png or .pdf)">,
    Option<"htmlFile", "report-html", "std::string", /*default=*/"\"\"",
           "where to write the report as one HTML page with a sortable table">
  ];
}

#endif // PREC_PASSES_TD
