// The CPU pipeline takes a legalized module to the LLVM dialect: results
// become out-parameters, user casts become tosa.cast, nothing else is left.
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2]" 2>/dev/null | prec-opt --prec-lower-to-cpu | FileCheck %s
// CHECK: llvm.func @main(
// CHECK-NOT: tosa.
// CHECK-NOT: linalg.
// CHECK-NOT: vector.contract
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.return

// A region the precision pipeline has not dissolved is an error.
// RUN: not prec-opt %prec_src/examples/trtorch_conv_region.mlir --prec-lower-to-cpu 2>&1 | FileCheck %s --check-prefix=REGION
// REGION: error: precision.region must be legalized before lowering: run prec-legalize first
