//===- PlanIndexWidth.cpp - 32- or 64-bit indices for an engine's kernels -===//
//
// Kernels compute offsets from a thread's index by division and remainder.
// The GPU emulates 64-bit division, so kernels index in 32 bits whenever
// every index space fits, which is all but the largest tensors.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/ConvolutionPlan.h"
#include "lowering/PlannableFunction.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANINDEXWIDTH
#include "lowering/Passes.h.inc"

namespace {

/// Index spaces below this size, with room for a block's overrun, fit in
/// 32 bits.
constexpr int64_t narrowIndexLimit = (int64_t(1) << 31) - (1 << 20);

/// The elements an im2col convolution lays out as its GEMM's columns.
int64_t getColumnsElements(tosa::Conv2DOp conv) {
  llvm::ArrayRef<int64_t> out = conv.getType().getShape();
  return out[0] * out[1] * out[2] * getConvGemmDepth(conv);
}

/// The largest index space a kernel of `function` may compute over.
int64_t getLargestIndexSpace(func::FuncOp function,
                             engine::EngineDialect &dialect) {
  int64_t largest = 0;
  function.walk([&](Operation *op) {
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (auto type = dyn_cast<RankedTensorType>(value.getType());
          type && type.hasStaticShape())
        largest = std::max(largest, type.getNumElements());
    auto conv = dyn_cast<tosa::Conv2DOp>(op);
    engine::ConvAlgorithmAttr algorithm =
        conv ? dialect.getConvAlgorithmAttrHelper().getAttr(conv) : nullptr;
    if (algorithm && algorithm.getValue() == engine::ConvAlgorithm::Im2col)
      largest = std::max(largest, getColumnsElements(conv));
  });
  return largest;
}

class PlanIndexWidthPass
    : public PlanPass<PlanIndexWidthPass, impl::PrecPlanIndexWidthBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    auto &dialect = engine::EngineDialect::get(&getContext());
    int64_t bits =
        getLargestIndexSpace(function, dialect) < narrowIndexLimit ? 32 : 64;
    dialect.getIndexBitwidthAttrHelper().setAttr(
        function, IntegerAttr::get(IntegerType::get(&getContext(), 64), bits));
    return success();
  }
};

} // namespace

} // namespace prec
