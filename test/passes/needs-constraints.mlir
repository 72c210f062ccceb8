// Polygraphy's needs_constraints example (examples/needs_constraints.mlir).
//
// Weak typing, f16 enabled, x in [1, 2]: Add's result [65505, 65506]
// overflows f16, so Add is promoted to f32 and Sub follows it; the matmuls
// run in f16 and store f32 (their consumers' type, free in the epilogue).
// Two casts remain: x to f16 and Sub's result to f16.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90" 2>%t.weak.diag | FileCheck %s --check-prefix=WEAK
// RUN: FileCheck %s --check-prefix=WEAK-DIAG < %t.weak.diag
// WEAK-LABEL: func.func @main(%arg0: tensor<1x2x2xf32> {precision.name = "x", precision.range = array<f64: 1.000000e+00, 2.000000e+00>}) -> tensor<1x2x2xf32>
// WEAK:      %[[X16:.*]] = tosa.cast %arg0 {precision.inserted_cast} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf16>
// WEAK:      %[[MM:.*]] = tosa.matmul %[[X16]], {{.*}}compute = f16, accumulate = f32, storage = f32{{.*}} -> tensor<1x2x2xf32>
// WEAK:      %[[ADD:.*]] = tosa.add %[[MM]], {{.*}}compute = f32, accumulate = f32, storage = f32, reason = range{{.*}} -> tensor<1x2x2xf32>
// WEAK:      %[[SUB:.*]] = tosa.sub %[[ADD]], {{.*}}compute = f32, accumulate = f32, storage = f32, reason = follow{{.*}} -> tensor<1x2x2xf32>
// WEAK:      %[[SUB16:.*]] = tosa.cast %[[SUB]] {precision.inserted_cast} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf16>
// WEAK:      %[[MM1:.*]] = tosa.matmul %[[SUB16]], {{.*}}compute = f16, accumulate = f32, storage = f32{{.*}} -> tensor<1x2x2xf32>
// WEAK:      return %[[MM1]] : tensor<1x2x2xf32>
// WEAK-DIAG: remark: {{.*}}'Add' (tosa.add) promoted from 'f16' to 'f32': its result range [65505, 65506] exceeds f16's largest finite value 65504
// WEAK-DIAG-NOT: remark:
// WEAK-DIAG-NOT: warning:

// The same, counted: two casts in all.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2]" 2>/dev/null | FileCheck %s --check-prefix=COUNT
// COUNT-COUNT-2: tosa.cast
// COUNT-NOT: tosa.cast

// Polygraphy's --layer-precisions Add:float16 Sub:float32 with obey: Add
// stays f16 and a warning says it will overflow.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] layer-precisions=Add:float16,Sub:float32 constraints=obey" 2>%t.obey.diag | FileCheck %s --check-prefix=OBEY
// RUN: FileCheck %s --check-prefix=OBEY-DIAG < %t.obey.diag
// OBEY:      tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f16
// OBEY:      tosa.cast {{.*}}precision.epilogue{{.*}} -> tensor<1x2x2xf16>
// OBEY:      tosa.add {{.*}}compute = f16, accumulate = f16, storage = f16, reason = pattern{{.*}} -> tensor<1x2x2xf16>
// OBEY:      tosa.cast {{.*}}precision.inserted_cast{{.*}} -> tensor<1x2x2xf32>
// OBEY:      tosa.sub {{.*}}compute = f32, accumulate = f32, storage = f32, reason = pattern{{.*}} -> tensor<1x2x2xf32>
// OBEY-DIAG: warning: {{.*}}'Add' (tosa.add) computes in 'f16' as required, but its result range [65505, 65506] exceeds f16's largest finite value 65504: it will overflow
// OBEY-DIAG-NOT: remark:

// Strong typing: types are what the IR says, nothing changes.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="typing=strong enabled=f16 val-range=x:[1,2]" 2>&1 | FileCheck %s --check-prefix=STRONG
// STRONG-NOT: tosa.cast
// STRONG-NOT: xf16
// STRONG-NOT: remark
// STRONG: tosa.matmul {{.*}}reason = strong
// STRONG-NOT: tosa.cast
// STRONG-NOT: xf16

// Without ranges nothing is known to overflow: everything takes f16 and the
// casts sit at the bindings only.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16" 2>&1 | FileCheck %s --check-prefix=NORANGE
// NORANGE-NOT: remark
// NORANGE: tosa.cast %arg0
// NORANGE: tosa.add {{.*}}compute = f16
// NORANGE: tosa.sub {{.*}}compute = f16
// NORANGE: tosa.matmul {{.*}}compute = f16, accumulate = f32, storage = f32

// The results are valid TOSA that the upstream lowering accepts.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] layer-precisions=Add:f16 constraints=obey" 2>/dev/null | prec-opt --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))" | FileCheck %s --check-prefix=LOWERED
// LOWERED: linalg.batch_matmul ins({{.*}} : tensor<1x2x2xf16>, tensor<1x2x2xf16>) outs({{.*}} : tensor<1x2x2xf32>)
// LOWERED: arith.addf {{.*}} : f16
