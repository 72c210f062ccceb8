//===- TransposeGemmOperands.cpp - 8-bit GEMMs read B transposed ----------===//
//
// cuBLASLt's i8 and f8 GEMMs take B only as a [batch, N, K] matrix read
// transposed. A weight is stored that way (prec-plan-weight-layouts) and a B
// that is already a transpose of such a tensor is read through; any other B
// (the keys or values of a quantized attention that is not fused, behind
// the exporter's reshapes) is transposed into that layout by a kernel of its
// own.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/ContractionEpilogues.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECTRANSPOSEGEMMOPERANDS
#include "lowering/Passes.h.inc"

namespace {

/// `value` with its last two dimensions swapped.
Value swapLastTwo(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[1], shape[2]);
  return tosa::TransposeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), value,
      builder.getDenseI32ArrayAttr({0, 2, 1}));
}

class TransposeGemmOperandsPass
    : public impl::PrecTransposeGemmOperandsBase<TransposeGemmOperandsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](tosa::MatMulOp matmul) {
      Value b = matmul.getB();
      if (!needsTransposedB(matmul) || getTransposedB(matmul) ||
          matchPattern(b, m_Constant()))
        return;
      // B^T^T: the inner transpose a kernel writing [batch, N, K], the outer
      // read through by the GEMM (prec-plan-kernels).
      OpBuilder builder(matmul);
      Value transposed = swapLastTwo(builder, matmul.getLoc(), b);
      matmul.getBMutable().assign(
          swapLastTwo(builder, matmul.getLoc(), transposed));
    });
  }
};

} // namespace
} // namespace prec
