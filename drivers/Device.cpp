//===- Device.cpp - where prec-debug and prec-calibrate run ---------------===//

#include "drivers/Device.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/Target.h"
#include "drivers/EngineFunction.h"
#include "drivers/Nvcc.h"
#include "passes/PrecisionRules.h"
#include "runtime/JitRunner.h"
#include "support/Errors.h"

namespace prec {

llvm::Error checkDeviceOptions(const DeviceOptions &options) {
  if (options.device == Device::Cpu)
    return options.nvcc.empty()
               ? llvm::Error::success()
               : makeError("--nvcc compiles engines for --device gpu");
  llvm::Expected<std::string> nvcc = requireNvcc(options.nvcc);
  return nvcc ? llvm::Error::success() : nvcc.takeError();
}

llvm::Expected<std::string> chooseEngineTarget(mlir::ModuleOp model,
                                               llvm::StringRef requested) {
  std::string target =
      !requested.empty() ? requested.str()
      : model->hasAttr(precision::PrecisionDialect::getPolicyAttrName())
          ? getPolicy(model).getTarget().str()
          : "sm_90";
  std::optional<precision::Target> parsed = precision::parseTarget(target);
  if (parsed && !parsed->isCpu())
    return target;
  return makeError((requested.empty()
                        ? "the model's target is '" + target + "'"
                        : "--target '" + target + "' is not a GPU target") +
                   ": --device gpu needs a GPU target (sm_53 ... sm_121)");
}

llvm::Expected<std::unique_ptr<ModelFunction>>
compileForDevice(const DeviceOptions &options,
                 mlir::OwningOpRef<mlir::ModuleOp> module,
                 llvm::StringRef functionName) {
  if (options.device == Device::Gpu)
    return EngineFunction::compile(std::move(module), functionName,
                                   options.nvcc);
  return CompiledFunction::compile(std::move(module), functionName);
}

} // namespace prec
