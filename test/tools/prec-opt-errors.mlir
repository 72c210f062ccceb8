// A missing input file or an unknown pass is an error and a non-zero exit.
// RUN: not prec-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not prec-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: Unknown command line argument '--no-such-pass'

// Malformed IR names the line and column.
// RUN: not prec-opt %s 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: prec-opt-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
func.func @broken( {
