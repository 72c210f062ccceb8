//===- PrecisionOps.td - precision dialect ops -------------*- tablegen -*-===//

#ifndef PREC_PRECISION_OPS_TD
#define PREC_PRECISION_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "dialects/Precision/PrecisionAttrs.td"
include "dialects/Precision/PrecisionOpInterface.td"

def Precision_RegionOp : Precision_Op<"region", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getEntrySuccessorOperands"]>]> {
  let summary = "pins the precision of the ops it wraps";
  let description = [{
    Runs its body with the operands bound to the block arguments and returns
    what `precision.yield` yields. The ops inside are requested to compute in
    `precision`; `accumulate` is the accumulation type of contractions and
    reductions, `output` the storage type of the results. Nested regions:
    the innermost wins. For i8 and f8 precisions `input_range` and
    `output_range` give the dynamic ranges of the region's inputs and
    outputs unless a calibration supplies them. Control enters the body once,
    with the operands, and leaves it with the yielded values
    (`RegionBranchOpInterface`), which is how analyses see through it.

    ```mlir
    %r = precision.region i8 obey input_range [-6.0, 6.0]
           output_range [-6.0, 6.0] (%a = %x : tensor<1x3x8x8xf32>)
           -> tensor<1x3x8x8xf32> {
      ...
      precision.yield %y : tensor<1x3x8x8xf32>
    }
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    TypeAttr:$precision,
    OptionalAttr<Precision_ConstraintModeAttr>:$mode,
    OptionalAttr<TypeAttr>:$accumulate,
    OptionalAttr<TypeAttr>:$output,
    OptionalAttr<F64Attr>:$input_min,
    OptionalAttr<F64Attr>:$input_max,
    OptionalAttr<F64Attr>:$output_min,
    OptionalAttr<F64Attr>:$output_max
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the op with an entry block whose arguments mirror `inputs`;
    // the caller fills the body and its terminator.
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs, "::mlir::Type":$precision)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    YieldOp getYield();
    /// Whether the region carries both dynamic ranges.
    bool hasDynamicRanges() {
      return getInputMin() && getInputMax() && getOutputMin() && getOutputMax();
    }
  }];
}

def Precision_YieldOp : Precision_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"RegionOp">]> {
  let summary = "returns the results of a precision.region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

def Precision_CastOp : Precision_Op<"cast", [Pure,
    DeclareOpInterfaceMethods<Precision_PrecisionOpInterface,
                              ["inferResultRange"]>]> {
  let summary = "a tensor cast the user asked for";
  let description = [{
    Converts every element to the result element type: float to float rounds
    to nearest even; float to integer rounds to nearest even and saturates
    (TensorRT's cast semantics); integer to float rounds to nearest even.
    Unlike the casts the compiler inserts, this one is user intent (ONNX
    `Cast`, `aten::to`) and every pass keeps it.

    ```mlir
    %h = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

#endif // PREC_PRECISION_OPS_TD
