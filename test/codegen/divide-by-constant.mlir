// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=dv
// RUN: FileCheck %s < %t/dv.cu

// An f16 or bf16 division by a constant multiplies by the divisor's f32
// reciprocal where, rounded to the type, the product equals the quotient
// for all 2^16 values of the type (checked with numpy when this test was
// written): GELU's x / sqrt(2) in f16 and bf16. By 1000 in f16 two values
// differ, and f32 values are not enumerated: both divide.
// CHECK: float r = __fmul_rn((a0), 0x1.6a13cep-1f);
// CHECK: float r = __fdiv_rn((a0), (0x1.f4p+9f));
// CHECK: float r = __fdiv_rn((a0), (0x1.6ap+0f));
// CHECK: float r = __fmul_rn((a0), 0x1.6a13cep-1f);
func.func @main(%x: tensor<64xf16>, %y: tensor<64xf32>, %z: tensor<64xbf16>) -> (tensor<64xf16>, tensor<64xf16>, tensor<64xf32>, tensor<64xbf16>) {
  %root2 = arith.constant dense<1.4140625> : tensor<64xf16>
  %thousand = arith.constant dense<1000.0> : tensor<64xf16>
  %root2f = arith.constant dense<1.4140625> : tensor<64xf32>
  %root2b = arith.constant dense<1.4140625> : tensor<64xbf16>
  %a = arith.divf %x, %root2 : tensor<64xf16>
  %b = arith.divf %x, %thousand : tensor<64xf16>
  %c = arith.divf %y, %root2f : tensor<64xf32>
  %d = arith.divf %z, %root2b : tensor<64xbf16>
  return %a, %b, %c, %d : tensor<64xf16>, tensor<64xf16>, tensor<64xf32>, tensor<64xbf16>
}
