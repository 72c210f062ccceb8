// prec-annotate's typing and constraints: `module` (the default) keeps what
// the module's policy says, any other value overrides it.
// RUN: prec-opt %s --prec-annotate | FileCheck %s --check-prefix=KEEP
// RUN: prec-opt %s --prec-annotate="typing=module constraints=module" | FileCheck %s --check-prefix=KEEP
// RUN: prec-opt %s --prec-annotate="typing=weak constraints=obey" | FileCheck %s --check-prefix=OVERRIDE
// RUN: prec-opt %s --prec-annotate="typing=strong" | FileCheck %s --check-prefix=TYPING

// KEEP: precision.policy = #precision.policy<typing = strong, enabled = [f16], constraints = none, target = "sm_80">
// OVERRIDE: precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = obey, target = "sm_80">
// TYPING: precision.policy = #precision.policy<typing = strong, enabled = [f16], constraints = none, target = "sm_80">
module attributes {precision.policy = #precision.policy<typing = strong, enabled = [f16], constraints = none, target = "sm_80">} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
