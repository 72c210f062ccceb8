// RUN: prec-opt %s -split-input-file | FileCheck %s

// Every policy key is optional; the printed form always spells all four.
// CHECK: module attributes {precision.policy = #precision.policy<typing = weak, enabled = [], constraints = prefer, target = "cpu">}
module attributes {precision.policy = #precision.policy<>} {
}

// -----

// CHECK: #precision.policy<typing = weak, enabled = [bf16], constraints = none, target = "sm_80">
module attributes {precision.policy = #precision.policy<enabled = [bf16], constraints = none, target = "sm_80">} {
}

// -----

// CHECK: #precision.policy<typing = strong, enabled = [], constraints = prefer, target = "sm_53">
module attributes {precision.policy = #precision.policy<typing = strong, target = "sm_53">} {
}
