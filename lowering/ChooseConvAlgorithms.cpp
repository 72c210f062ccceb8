//===- ChooseConvAlgorithms.cpp - how each convolution runs ---------------===//

#include "lowering/Passes.h"

#include "lowering/ConvolutionPlan.h"
#include "lowering/PlannableFunction.h"

namespace prec {

#define GEN_PASS_DEF_PRECCHOOSECONVALGORITHMS
#include "lowering/Passes.h.inc"

namespace {

class ChooseConvAlgorithmsPass
    : public PlanPass<ChooseConvAlgorithmsPass,
                      impl::PrecChooseConvAlgorithmsBase> {
public:
  using PlanPass::PlanPass;

  mlir::LogicalResult plan(mlir::func::FuncOp function) {
    auto algorithmAttr =
        engine::EngineDialect::get(&getContext()).getConvAlgorithmAttrHelper();
    function.walk([&](mlir::tosa::Conv2DOp op) {
      algorithmAttr.setAttr(
          op, engine::ConvAlgorithmAttr::get(
                  &getContext(),
                  chooseConvAlgorithm(op, preference, batch.getValue())));
    });
    return mlir::success();
  }
};

} // namespace

} // namespace prec
