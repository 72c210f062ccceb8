// prec-report's picture (report-graph=): every op the report lists is a box
// (its name's quotes and backslashes escaped in the label)
// filled with its compute type's colour, inserted casts are red diamonds,
// f32 ops say why they stayed when the policy enables a reduced precision,
// and edges run through what is not drawn (regions, epilogue conversions).
// RUN: prec-opt %s --prec-report="report-graph=%t.dot" -o /dev/null
// RUN: FileCheck %s < %t.dot
// RUN: %if dot %{ prec-opt %s --prec-report="report-graph=%t.svg" -o /dev/null %}
// RUN: %if dot %{ FileCheck %s --check-prefix=SVG < %t.svg %}
// RUN: not prec-opt %s --prec-report="report-graph=%t.jpeg" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not env PATH=/nonexistent %prec_bin/prec-opt %s --prec-report="report-graph=%t.png" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-DOT
// RUN: not prec-opt %s --prec-report="report-graph=%t.missing/g.dot" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// CHECK-LABEL: digraph precision {
// CHECK:      legend_f32 [label="f32", fillcolor="#d9d9d9"];
// CHECK-NEXT: legend_f16 [label="f16", fillcolor="#a6d96a"];
// CHECK-NEXT: legend_bf16 [label="bf16", fillcolor="#66c2a5"];
// CHECK-NEXT: legend_i8 [label="i8", fillcolor="#fdae61"];
// CHECK-NEXT: legend_f8 [label="f8", fillcolor="#f46d43"];
// CHECK-NEXT: legend_cast [shape=diamond, color="#d62728"
// CHECK:      subgraph "cluster_main" {
// CHECK-NEXT:   label="@main";
// CHECK-NEXT:   [[X:n[0-9]+]] [shape=ellipse, fillcolor="#ffffff", label="x\ntensor<4xf32>"];
// CHECK-NEXT:   [[CAST:n[0-9]+]] [shape=diamond, color="#d62728", penwidth=2, fillcolor="#a6d96a", label="cast\nf32 to f16"];
// CHECK-NEXT:   [[X]] -> [[CAST]];
// CHECK-NEXT:   [[ABS:n[0-9]+]] [fillcolor="#a6d96a", label="Abs \"1\" \\ x\ntosa.abs\nf16", tooltip="inputs"];
// CHECK-NEXT:   [[CAST]] -> [[ABS]];
// An f32 op with its reason, and its detail (shortened) in the label.
// CHECK-NEXT:   [[EXP:n[0-9]+]] [fillcolor="#d9d9d9", label="Exp\ntosa.exp\nf32\nf32: range: its result range exceeds f16's largest finite...", tooltip="range: its result range exceeds f16's largest finite value 65504"];
// The epilogue conversion between Abs and Exp is not drawn: the edge runs
// through it.
// CHECK-NEXT:   [[ABS]] -> [[EXP]];
// Inside the region: its operand is the edge's source.
// CHECK-NEXT:   [[NEG:n[0-9]+]] [fillcolor="#66c2a5", label="Tanh\ntosa.tanh\nbf16, accumulate f32", tooltip="region"];
// CHECK-NEXT:   [[EXP]] -> [[NEG]];
// And the region's result is its yielded value.
// CHECK-NEXT:   [[OUT:n[0-9]+]] [shape=ellipse, fillcolor="#ffffff", label="output 0\ntensor<4xf32>"];
// CHECK-NEXT:   [[NEG]] -> [[OUT]];
// CHECK-NEXT: }

// SVG: <title>legend_cast</title>
// SVG: <title>n1</title>
// SVG: <path fill="#a6d96a" stroke="#d62728" stroke-width="2"
// SVG: <title>n2</title>
// SVG: <path fill="#a6d96a" stroke="black"
// SVG-NEXT: <text {{.*}}>Abs &quot;1&quot; \ x</text>
// SVG: <title>n3</title>
// SVG: <path fill="#d9d9d9" stroke="black"
// SVG: >f32: range: its result range exceeds f16&#39;s largest finite...</text>
// SVG: <title>n4</title>
// SVG: <path fill="#66c2a5" stroke="black"
// SVG-NEXT: <text {{.*}}>Tanh</text>

// FORMAT: error: report-graph '{{.*}}.jpeg': name a .dot, .svg, .png or .pdf file
// NO-DOT: error: report-graph '{{.*}}.png': Graphviz's dot is not installed (the Debian package graphviz); a .dot file needs no Graphviz
// UNWRITABLE: error: cannot write report graph '{{.*}}missing/g.dot'

module attributes {precision.policy = #precision.policy<typing = weak, enabled = [f16], constraints = prefer, target = "sm_90">} {
  func.func @main(%x: tensor<4xf32> {precision.name = "x"}) -> tensor<4xf32> {
    %0 = tosa.cast %x {precision.inserted_cast} : (tensor<4xf32>) -> tensor<4xf16>
    %1 = tosa.abs %0 {precision.assigned = #precision.assignment<compute = f16, accumulate = f16, storage = f16, reason = inputs>} : (tensor<4xf16>) -> tensor<4xf16> loc("Abs \"1\" \\ x")
    %2 = tosa.cast %1 {precision.epilogue} : (tensor<4xf16>) -> tensor<4xf32>
    %3 = tosa.exp %2 {precision.assigned = #precision.assignment<compute = f32, accumulate = f32, storage = f32, reason = range, detail = "its result range exceeds f16's largest finite value 65504">} : (tensor<4xf32>) -> tensor<4xf32> loc("Exp")
    %4 = precision.region bf16 prefer accumulate f32 (%a = %3 : tensor<4xf32>) -> tensor<4xf32> {
      %5 = tosa.tanh %a {precision.assigned = #precision.assignment<compute = bf16, accumulate = f32, storage = f32, reason = region>} : (tensor<4xf32>) -> tensor<4xf32> loc("Tanh")
      precision.yield %5 : tensor<4xf32>
    }
    return %4 : tensor<4xf32>
  }
}
