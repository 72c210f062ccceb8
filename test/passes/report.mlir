// The explain report: JSON, table, and a diff against an earlier report.
// The example's ops carry names only (loc("MatMul")), so their location is
// empty; ops without names are known by their file position.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90 report=%t.weak.json report-table=%t.weak.txt" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.weak.json
// RUN: FileCheck %s --check-prefix=TABLE < %t.weak.txt

// JSON:      "ops": [
// JSON:          "accumulate": "f32",
// JSON-NEXT:     "casts_inserted": 1,
// JSON-NEXT:     "class": "contraction",
// JSON-NEXT:     "compute": "f16",
// JSON-NEXT:     "location": "",
// JSON-NEXT:     "name": "MatMul",
// JSON-NEXT:     "op": "tosa.matmul",
// JSON-NEXT:     "reason": "class_rule",
// JSON-NEXT:     "storage": "f32"
// JSON:          "compute": "f32",
// JSON-NEXT:     "detail": "its result range [65505, 65506] exceeds f16's largest finite value 65504",
// JSON-NEXT:     "location": "",
// JSON-NEXT:     "name": "Add",
// JSON-NEXT:     "op": "tosa.add",
// JSON-NEXT:     "reason": "range",
// JSON:          "name": "Sub",
// JSON:          "name": "MatMul_1",
// JSON:      "target": "sm_90",
// JSON-NEXT: "totals": {
// JSON-NEXT:   "casts_inserted": 2,
// JSON-NEXT:   "compute": {
// JSON-NEXT:     "f16": 2,
// JSON-NEXT:     "f32": 2
// JSON-NEXT:   },
// JSON-NEXT:   "epilogue_conversions": 0,
// JSON-NEXT:   "ops": 4
// JSON-NEXT: },
// JSON-NEXT: "typing": "weak",
// JSON-NEXT: "version": 1

// TABLE:      name                 op                     compute  accumulate storage  reason      casts detail
// TABLE-NEXT: MatMul               tosa.matmul            f16      f32        f32      class_rule  1
// TABLE-NEXT: Add                  tosa.add               f32      f32        f32      range       0     its result range [65505, 65506] exceeds f16's largest finite value 65504
// TABLE-NEXT: Sub                  tosa.sub               f32      f32        f32      follow      0
// TABLE-NEXT: MatMul_1             tosa.matmul            f16      f32        f32      class_rule  1
// TABLE-NEXT: totals: 4 ops (f16: 2, f32: 2), 2 casts inserted, 0 epilogue conversions

// The same table as one HTML page: rows filled with their compute type's
// colour, text escaped, and a click on a header sorts by it (ascending, then
// descending on a second click; numbers as numbers).
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90 report-html=%t.html" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// HTML: <p>4 ops, 2 casts inserted, 0 epilogue conversions</p>
// HTML: <th onclick="sortBy(0)">name</th>{{.*}}<th onclick="sortBy(6)">casts</th><th onclick="sortBy(7)">detail</th>
// HTML-NEXT: <tr style="background:#a6d96a"><td>MatMul</td><td>tosa.matmul</td><td>f16</td><td>f32</td><td>f32</td><td>class_rule</td><td>1</td><td></td></tr>
// HTML-NEXT: <tr style="background:#d9d9d9"><td>Add</td>{{.*}}<td>its result range [65505, 65506] exceeds f16&apos;s largest finite value 65504</td></tr>
// RUN: %if node %{ node %S/Inputs/sort_report.js %t.html name name casts | FileCheck %s --check-prefix=SORTED %}
// SORTED: name: Add MatMul MatMul_1 Sub
// SORTED-NEXT: name: Sub MatMul_1 MatMul Add
// SORTED-NEXT: casts: {{(Add Sub|Sub Add)}} {{(MatMul MatMul_1|MatMul_1 MatMul)}}
// Numbers sort as numbers: with 10 and 2 casts, 2 comes first.
// RUN: sed -e 's|<td>MatMul</td>\(.*\)<td>1</td><td></td></tr>|<td>MatMul</td>\1<td>10</td><td></td></tr>|' -e 's|<td>MatMul_1</td>\(.*\)<td>1</td><td></td></tr>|<td>MatMul_1</td>\1<td>2</td><td></td></tr>|' %t.html > %t.numbers.html
// RUN: %if node %{ node %S/Inputs/sort_report.js %t.numbers.html casts casts | FileCheck %s --check-prefix=NUMBERS %}
// NUMBERS: casts: {{(Add Sub|Sub Add)}} MatMul_1 MatMul
// NUMBERS-NEXT: casts: MatMul MatMul_1 {{(Add Sub|Sub Add)}}
// RUN: not prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 report-html=%t.missing/r.html" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HTML-UNWRITABLE
// HTML-UNWRITABLE: error: cannot write report page '{{.*}}missing/r.html'

// A requested op carries what was asked for.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] layer-precisions=Add:f16 constraints=obey report=%t.obey.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=REQUESTED < %t.obey.json
// REQUESTED:      "name": "Add",
// REQUESTED-NEXT: "op": "tosa.add",
// REQUESTED-NEXT: "reason": "pattern",
// REQUESTED-NEXT: "requested": {
// REQUESTED-NEXT:   "compute": "f16",
// REQUESTED-NEXT:   "mode": "obey",
// REQUESTED-NEXT:   "origin": "pattern"
// REQUESTED-NEXT: },

// Which ops changed precision between the two configurations.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] layer-precisions=Add:f16 constraints=obey baseline=%t.weak.json report-table=%t.diff.txt" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=DIFF < %t.diff.txt
// DIFF:      changed MatMul (tosa.matmul): compute f16 -> f16, accumulate f32 -> f32, storage f32 -> f16
// DIFF-NEXT: changed Add (tosa.add): compute f32 -> f16, accumulate f32 -> f16, storage f32 -> f16
// DIFF-NEXT: 2 ops differ from the baseline

// The same configuration twice: nothing differs.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90 baseline=%t.weak.json report-table=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAME
// SAME-NOT: changed
// SAME: 0 ops differ from the baseline

// Ops without names: the location says where they are.
// RUN: prec-opt %s --prec-legalize="enabled=f16 report=%t.unnamed.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=UNNAMED < %t.unnamed.json
// UNNAMED:      "location": "{{.*}}report.mlir:[[@LINE+4]]:8",
// UNNAMED-NEXT: "name": "",
// UNNAMED-NEXT: "op": "tosa.abs",
func.func @unnamed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Layer names survive printing without locations: prec-legalize records
// them as precision.layer.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16" -o %t.printed.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=LAYER < %t.printed.mlir
// LAYER: tosa.matmul {{.*}}precision.layer = "MatMul"
// LAYER: tosa.add {{.*}}precision.layer = "Add"
// RUN: prec-opt %t.printed.mlir --prec-report="report-table=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPRINTED
// REPRINTED: Add                  tosa.add
