// prec-outline-loop-nests alone: each loop nest at the top of a function
// becomes a private function LLVM does not inline; constants and globals
// are cloned in, other values passed; ops with results stay.
// RUN: prec-opt %s --prec-outline-loop-nests | FileCheck %s

memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>)
// CHECK: %[[SCALE:.*]] = memref.load %[[X]]
// CHECK-NEXT: call @main_nest0(%[[X]], %[[SCALE]], %[[Y]]) : (memref<4xf32>, f32, memref<4xf32>) -> ()
// CHECK-NEXT: %[[SUM:.*]] = scf.for
// CHECK: call @main_nest1(%[[Y]]) : (memref<4xf32>) -> ()
// CHECK-NEXT: return %[[SUM]]
func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @weights : memref<4xf32>
  %scale = memref.load %x[%c0] : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %u = memref.load %w[%i] : memref<4xf32>
    %p = arith.mulf %v, %u : f32
    %q = arith.mulf %p, %scale : f32
    memref.store %q, %y[%i] : memref<4xf32>
  }
  // A loop with results is not a nest to outline: its values are used.
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %y[%i] : memref<4xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %y[%i] : memref<4xf32>
  }
  return %sum : f32
}

// CHECK-LABEL: func.func private @main_nest0(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[SCALE:.*]]: f32, %[[Y:.*]]: memref<4xf32>)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[W:.*]] = memref.get_global @weights
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C4]]
// CHECK: memref.load %[[W]][%[[I]]]
// CHECK: arith.mulf %{{.*}}, %[[SCALE]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]]]
// CHECK: return

// CHECK-LABEL: func.func private @main_nest1(
// CHECK-SAME: %[[Y:.*]]: memref<4xf32>)
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: memref.store %{{.*}}, %[[Y]]

// A name already taken is not reused.
func.func private @other_nest0()

// CHECK-LABEL: func.func @other(
// CHECK: call @other_nest0_{{[0-9]+}}(%
func.func @other(%y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %y[%i] : memref<4xf32>
  }
  return
}
