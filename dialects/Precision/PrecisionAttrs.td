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

#endif // PREC_PRECISION_ATTRS_TD
