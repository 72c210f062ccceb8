// RUN: prec-opt %s --pass-pipeline="builtin.module(func.func(prec-expand-f8-casts))" | FileCheck %s

// f32 -> E4M3FN: saturate to 448, round the mantissa to 3 bits (to nearest
// even), or round |x| x 2^9 for subnormals; NaN becomes 0x7F; the sign is
// or-ed back in and the byte is the f8 value.
// CHECK-LABEL: func.func @truncate
// CHECK-NOT: arith.truncf
// CHECK: math.absf
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK: math.roundeven
// CHECK: arith.cmpf uno
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
func.func @truncate(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// E5M2 -> f32 on a vector: the byte's fields, rebiased; its top exponent is
// infinity or NaN.
// CHECK-LABEL: func.func @extend
// CHECK-NOT: arith.extf
// CHECK: arith.bitcast %{{.*}} : vector<4xf8E5M2> to vector<4xi8>
// CHECK: arith.extui %{{.*}} : vector<4xi8> to vector<4xi32>
// CHECK: arith.uitofp
// CHECK: arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
func.func @extend(%x: vector<4xf8E5M2>) -> vector<4xf32> {
  %y = arith.extf %x : vector<4xf8E5M2> to vector<4xf32>
  return %y : vector<4xf32>
}

// f16 widens to f32 before rounding to f8; an f8 value extended to f16 is
// made in f32 and narrowed (exactly). Conversions without f8 stay.
// CHECK-LABEL: func.func @others
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CHECK: %[[HALF:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %[[HALF]]
func.func @others(%x: f32, %h: f16, %y: f8E4M3FN) -> (f16, f8E4M3FN, f16) {
  %a = arith.truncf %x : f32 to f16
  %b = arith.truncf %h : f16 to f8E4M3FN
  %c = arith.extf %y : f8E4M3FN to f16
  return %a, %b, %c : f16, f8E4M3FN, f16
}
