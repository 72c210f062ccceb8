//===- ChooseConvAlgorithms.cpp - how each convolution runs ---------------===//

#include "lowering/Passes.h"

#include "lowering/ConvolutionPlan.h"
#include "lowering/PlannableFunction.h"

namespace prec {

#define GEN_PASS_DEF_PRECCHOOSECONVALGORITHMS
#include "lowering/Passes.h.inc"

namespace {

class ChooseConvAlgorithmsPass
    : public impl::PrecChooseConvAlgorithmsBase<ChooseConvAlgorithmsPass> {
public:
  using Base::Base;
  ChooseConvAlgorithmsPass(ConvolutionPreference preference,
                           std::optional<BatchRange> batch)
      : batchRange(batch) {
    this->preference = preference;
  }

  mlir::LogicalResult initialize(mlir::MLIRContext *) override {
    if (batch.empty())
      return mlir::success();
    batchRange = parseBatchRange(batch, batchError);
    return mlir::success();
  }

  void runOnOperation() override {
    if (!batchError.empty()) {
      mlir::emitError(getOperation().getLoc()) << batchError;
      return signalPassFailure();
    }
    if (!getOperation().isExternal() &&
        failed(checkPlannable(getOperation())))
      return signalPassFailure();
    engine::EngineDialect *dialect =
        getContext().getLoadedDialect<engine::EngineDialect>();
    auto algorithmAttr = dialect->getConvAlgorithmAttrHelper();
    getOperation().walk([&](mlir::tosa::Conv2DOp op) {
      algorithmAttr.setAttr(
          op, engine::ConvAlgorithmAttr::get(
                  &getContext(),
                  chooseConvAlgorithm(op, preference, batchRange)));
    });
  }

private:
  std::optional<BatchRange> batchRange;
  std::string batchError;
};

} // namespace

std::unique_ptr<mlir::Pass>
createPrecChooseConvAlgorithms(ConvolutionPreference preference,
                               std::optional<BatchRange> batch) {
  return std::make_unique<ChooseConvAlgorithmsPass>(preference, batch);
}

} // namespace prec
