//===- ApplyCalibration.cpp - ranges from a calibration file --------------===//

#include "passes/Passes.h"

#include "passes/Calibration.h"

#include "dialects/Utils/Constants.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace prec {
#define GEN_PASS_DEF_PRECAPPLYCALIBRATION
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

/// Whether the op's input is an argument of a precision.region that gives
/// its inputs a range: that range is the user's word and wins.
bool hasRegionInputRange(Operation *op) {
  auto argument = dyn_cast<BlockArgument>(op->getOperand(0));
  if (!argument)
    return false;
  auto region = dyn_cast<RegionOp>(argument.getOwner()->getParentOp());
  return region && region.getInputMin() && region.getInputMax();
}

struct PrecApplyCalibrationPass
    : prec::impl::PrecApplyCalibrationBase<PrecApplyCalibrationPass> {
  using Base::Base;
  PrecApplyCalibrationPass(const PrecApplyCalibrationOptions &options,
                           std::shared_ptr<const CalibrationFile> file)
      : Base(options), file(std::move(file)) {}

  /// Reads the calibration file once, unless the calibration was given.
  LogicalResult initialize(MLIRContext *context) override {
    if (file)
      return success();
    llvm::Expected<CalibrationFile> loaded = loadCalibrationFile(calibration);
    if (!loaded)
      return emitError(FileLineColLoc::get(context, calibration, 0, 0))
             << llvm::toString(loaded.takeError());
    file = std::make_shared<const CalibrationFile>(std::move(*loaded));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // At the module's location, without the module printed after it: the
    // message says how the calibration and the model differ.
    if (llvm::Error error = checkCalibrationFits(*file, module, calibration)) {
      emitError(module.getLoc()) << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    auto function = module.lookupSymbol<func::FuncOp>(file->model.function);
    for (const auto &[name, value] : collectObservedTensors(function)) {
      auto found = file->observed.find(name);
      if (found != file->observed.end())
        value.getDefiningOp()->setAttr(
            PrecisionDialect::getObservedRangeAttrName(),
            DenseF64ArrayAttr::get(&getContext(),
                                   {found->second.min, found->second.max}));
    }
    function.walk([&](Operation *op) {
      if (!isQuantizable(op))
        return;
      recordActivationB(op);
      if (hasRegionInputRange(op))
        return;
      auto found = file->tensors.find(getTensorName(getCalibratedInput(op)));
      if (found == file->tensors.end())
        return;
      double range[] = {-found->second.amax, found->second.amax};
      op->setAttr(PrecisionDialect::getInputRangeAttrName(),
                  DenseF64ArrayAttr::get(&getContext(), range));
    });
  }

  /// A matmul of two activations (attention's Q·Kᵀ and P·V) takes its B
  /// operand's range from what the calibration observed of its source.
  /// Observed ranges cover every tensor, so calibrations made before B
  /// operands were quantized still fit.
  void recordActivationB(Operation *op) {
    if (!isa<tosa::MatMulOp>(op) || isConstantWeights(op->getOperand(1)))
      return;
    Operation *source = getCalibratedInput(op, 1).getDefiningOp();
    auto observed = source ? source->getAttrOfType<DenseF64ArrayAttr>(
                                 PrecisionDialect::getObservedRangeAttrName())
                           : nullptr;
    if (observed)
      op->setAttr(PrecisionDialect::getBInputRangeAttrName(), observed);
  }

  std::shared_ptr<const CalibrationFile> file;
};

} // namespace

std::unique_ptr<Pass> prec::createPrecApplyCalibration(
    const PrecApplyCalibrationOptions &options,
    std::shared_ptr<const CalibrationFile> calibration) {
  return std::make_unique<PrecApplyCalibrationPass>(options,
                                                    std::move(calibration));
}
