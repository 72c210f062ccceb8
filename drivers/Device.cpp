//===- Device.cpp - where prec-debug and prec-calibrate run ---------------===//

#include "drivers/Device.h"

#include "drivers/EngineFunction.h"
#include "runtime/JitRunner.h"

namespace prec {

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
