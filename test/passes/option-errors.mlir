// Every option's bad value is an error that names it, with a non-zero exit.
func.func @f(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32> loc("Abs")
  return %y : tensor<4xf32>
}

// RUN: not prec-opt %s --prec-legalize="layer-precisions=Abs:f17" 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: layer-precisions entry 'Abs:f17' names unknown precision 'f17'; expected f32, f16, bf16, i8, f8E4M3FN, f8E5M2

// RUN: not prec-opt %s --prec-legalize="layer-precisions=Abs" 2>&1 | FileCheck %s --check-prefix=NOCOLON
// NOCOLON: error: layer-precisions entry 'Abs' is not <pattern>:<type>

// RUN: not prec-opt %s --prec-legalize="layer-precisions=:f16" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: layer-precisions entry ':f16' has an empty pattern

// RUN: not prec-opt %s --prec-legalize="layer-precisions=Ab[s:f16" 2>&1 | FileCheck %s --check-prefix=GLOB
// GLOB: error: layer-precisions entry 'Ab[s:f16' has a malformed pattern 'Ab[s': invalid glob pattern, unmatched '['

// RUN: not prec-opt %s --prec-legalize="layer-output-types=Abs:half3" 2>&1 | FileCheck %s --check-prefix=OUTTYPE
// OUTTYPE: error: layer-output-types entry 'Abs:half3' names unknown precision 'half3'

// RUN: not prec-opt %s --prec-legalize="typing=loose" 2>&1 | FileCheck %s --check-prefix=TYPING
// TYPING: for the --typing option: Cannot find option named 'loose'!

// RUN: not prec-opt %s --prec-legalize="constraints=strict" 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: for the --constraints option: Cannot find option named 'strict'!

// An option error names the module's location without printing the module.
// RUN: not prec-opt %s --prec-legalize="enabled=f16,fp4" 2>&1 | FileCheck %s --check-prefix=ENABLED
// ENABLED: error: enabled names unknown precision 'fp4'
// ENABLED-NOT: see current operation

// RUN: not prec-opt %s --prec-legalize="target=sm_99" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: unknown target 'sm_99'; expected cpu, sm_53

// RUN: not prec-opt %s --prec-legalize="val-range=x:[2,1]" 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: val-range entry 'x:[2,1]' needs finite bounds with lo <= hi

// RUN: not prec-opt %s --prec-legalize="val-range=x:[1,two]" 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: error: val-range entry 'x:[1,two]' is not <input>:[<lo>,<hi>]

// RUN: not prec-opt %s --prec-legalize="val-range=x:1,2" 2>&1 | FileCheck %s --check-prefix=BRACKETS
// BRACKETS: error: val-range entry 'x:1' is not <input>:[<lo>,<hi>]

// RUN: not prec-opt %s --prec-legalize="val-range=y:[1,2]" 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: error: val-range names input 'y', but the inputs are: x

// RUN: not prec-opt %s --prec-legalize="io-types=x:f15" 2>&1 | FileCheck %s --check-prefix=IO
// IO: error: io-types entry 'x:f15' names unknown precision 'f15'

// RUN: not prec-opt %s --prec-legalize="plan=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: {{.*}}missing.json:0:0: error: cannot read plan file '{{.*}}missing.json': No such file or directory

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-not-json.json" 2>&1 | FileCheck %s --check-prefix=NOTJSON
// NOTJSON: error: plan file '{{.*}}plan-not-json.json': not valid JSON: {{.*}}

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-bad-key.json" 2>&1 | FileCheck %s --check-prefix=BADKEY
// BADKEY: error: plan file '{{.*}}plan-bad-key.json': unknown key at plan.ops[1].precison; expected name, op, compute, accumulate, output, mode

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-bad-type.json" 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: error: plan file '{{.*}}plan-bad-type.json': names unknown precision at plan.classes[0].compute: 'f12'

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-bad-class.json" 2>&1 | FileCheck %s --check-prefix=BADCLASS
// BADCLASS: error: plan file '{{.*}}plan-bad-class.json': unknown class at plan.classes[0].class: 'gemm'; expected contraction, sensitive, reduction, pooling, elementwise, data_movement

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-bad-version.json" 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: plan file '{{.*}}plan-bad-version.json': must be 1 at plan.version

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-no-match.json" 2>&1 | FileCheck %s --check-prefix=NOMATCH
// NOMATCH: error: plan file '{{.*}}plan-no-match.json': needs 'name' or 'op' at plan.ops[0]

// RUN: not prec-opt %s --prec-legalize="plan=%S/Inputs/plan-bad-mode.json" 2>&1 | FileCheck %s --check-prefix=BADMODE
// BADMODE: error: plan file '{{.*}}plan-bad-mode.json': must be obey, prefer or none at plan.ops[0].mode, not 'strict'

// RUN: not prec-opt %s --prec-legalize="report=%t.no-such-dir/report.json" 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: error: cannot write report '{{.*}}no-such-dir/report.json': No such file or directory

// RUN: not prec-opt %s --prec-legalize="baseline=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=BASELINE
// BASELINE: error: baseline report '{{.*}}missing.json': No such file or directory

// RUN: not prec-opt %s --prec-legalize="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: no-such-option

// RUN: not prec-opt %s --prec-legalize="binding-layout=nwhc" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: for the --binding-layout option: Cannot find option named 'nwhc'!
