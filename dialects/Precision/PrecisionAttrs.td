//===- PrecisionAttrs.td - precision dialect attributes ----*- tablegen -*-===//

#ifndef PREC_PRECISION_ATTRS_TD
#define PREC_PRECISION_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "dialects/Precision/PrecisionDialect.td"

def Precision_ConstraintMode : I32Enum<"ConstraintMode",
    "how strictly a precision request binds", [
      // Compile fails where the target cannot honour the request.
      I32EnumCase<"Obey", 0, "obey">,
      // Fall back to the nearest wider supported type, with a remark.
      I32EnumCase<"Prefer", 1, "prefer">,
      // A hint: the compiler may choose otherwise, silently.
      I32EnumCase<"None", 2, "none">
    ]> {
  let cppNamespace = "::prec::precision";
}

def Precision_ConstraintModeAttr
    : EnumAttr<Precision_Dialect, Precision_ConstraintMode, "constraint_mode">;

def Precision_TypingMode : I32Enum<"TypingMode",
    "whether the compiler may change the types written in the IR", [
      // Types are exactly what the IR says (TensorRT strongly typed networks).
      I32EnumCase<"Strong", 0, "strong">,
      // Any enabled precision may be chosen (TensorRT builder flags).
      I32EnumCase<"Weak", 1, "weak">
    ]> {
  let cppNamespace = "::prec::precision";
}

def Precision_PolicyAttr : AttrDef<Precision_Dialect, "Policy"> {
  let mnemonic = "policy";
  let summary = "module-wide precision policy";
  let description = [{
    ```mlir
    module attributes {precision.policy = #precision.policy<
        typing = weak, enabled = [f16, bf16], constraints = prefer,
        target = "sm_90">} { ... }
    ```
    Every key is optional and may come in any order; the defaults are
    `typing = weak`, `enabled = []` (f32 is always enabled and never listed),
    `constraints = prefer` and `target = "cpu"`.
  }];
  let parameters = (ins
    EnumParameter<Precision_TypingMode>:$typing,
    ArrayRefParameter<"::mlir::Type", "enabled reduced precisions">:$enabled,
    EnumParameter<Precision_ConstraintMode>:$constraints,
    StringRefParameter<"target: cpu or sm_XY">:$target
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `type` may be chosen under this policy (f32 always may).
    bool isEnabled(::mlir::Type type) const;
  }];
}

def Precision_Reason : I32Enum<"Reason",
    "why an op has the precision it has", [
      I32EnumCase<"Region", 0, "region">,        // inside a precision.region
      I32EnumCase<"Pattern", 1, "pattern">,      // layer-precisions / layer-output-types
      I32EnumCase<"Plan", 2, "plan">,            // an op entry of a plan file
      I32EnumCase<"PlanClass", 3, "plan_class">, // an op-class rule of a plan file
      I32EnumCase<"ClassRule", 4, "class_rule">, // prec's built-in op-class rules
      I32EnumCase<"Weights", 5, "weights">,      // layer casting: its weights' type
      I32EnumCase<"Follow", 6, "follow">,        // follows its producers
      I32EnumCase<"Inputs", 7, "inputs">,        // fed only by bindings and constants
      I32EnumCase<"Strong", 8, "strong">,        // strong typing: the IR's type
      I32EnumCase<"UserCast", 9, "user_cast">,   // a cast the model asked for
      I32EnumCase<"Range", 10, "range">,         // promoted: its values overflow
      I32EnumCase<"Fallback", 11, "fallback">,   // the target lacks the type
      I32EnumCase<"Normalization", 12, "normalization"> // normalization statistics stay f32
    ]> {
  let cppNamespace = "::prec::precision";
}

def Precision_RequestAttr : AttrDef<Precision_Dialect, "Request"> {
  let mnemonic = "request";
  let summary = "what the user asked of one op";
  let description = [{
    Attached to ops as `precision.request` by `prec-annotate`: the compute,
    accumulate and output (storage) types asked for, each optional (an
    output type alone is TensorRT's `setOutputType`), how strictly (`mode`)
    and where the request came from (`origin`).
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::Type">:$compute,
    OptionalParameter<"::mlir::Type">:$accumulate,
    OptionalParameter<"::mlir::Type">:$output,
    EnumParameter<Precision_ConstraintMode>:$mode,
    EnumParameter<Precision_Reason>:$origin
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Precision_AssignmentAttr : AttrDef<Precision_Dialect, "Assignment"> {
  let mnemonic = "assignment";
  let summary = "the types one op computes, accumulates and stores in";
  let description = [{
    Attached to ops as `precision.assigned` by `prec-propagate` and revised by
    `prec-legalize-types`; `prec-materialize` rewrites the op to it.
    `detail` says, in words, what changed the choice (a range, a target).
  }];
  let parameters = (ins
    "::mlir::Type":$compute,
    "::mlir::Type":$accumulate,
    "::mlir::Type":$storage,
    EnumParameter<Precision_Reason>:$reason,
    StringRefParameter<"what changed the choice", "\"\"">:$detail
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // PREC_PRECISION_ATTRS_TD
