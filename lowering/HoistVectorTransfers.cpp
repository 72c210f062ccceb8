//===- HoistVectorTransfers.cpp - transfers out of invariant loops --------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"

namespace prec {
#define GEN_PASS_DEF_PRECHOISTVECTORTRANSFERS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

class HoistVectorTransfersPass
    : public prec::impl::PrecHoistVectorTransfersBase<
          HoistVectorTransfersPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Every loop of the tiled code runs at least once for the static shapes
    // prec tiles, so hoisting out of loops is safe.
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
  }
};

} // namespace
