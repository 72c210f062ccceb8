// prec-translate carries the upstream translations; prec's own come on top.
// RUN: prec-translate --mlir-to-llvmir %s | FileCheck %s
// RUN: not prec-translate --no-such-translation %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: define i32 @answer()
// CHECK: ret i32 42
// UNKNOWN: Unknown command line argument '--no-such-translation'
llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}
