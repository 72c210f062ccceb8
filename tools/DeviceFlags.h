//===- DeviceFlags.h - --device and --nvcc ---------------------*- C++ -*-===//
//
// Where a tool runs its programs is chosen the same way in prec-debug and
// prec-calibrate: both declare --device and --nvcc here.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_TOOLS_DEVICEFLAGS_H
#define PREC_TOOLS_DEVICEFLAGS_H

#include "drivers/Device.h"

#include "llvm/Support/CommandLine.h"

namespace prec {

/// --device, --nvcc.
struct DeviceFlags {
  /// `runs` says what runs on the device, for --device's help.
  DeviceFlags(llvm::cl::OptionCategory &category, llvm::StringRef runs)
      : help(("where " + runs + " (default cpu)").str()),
        device("device", llvm::cl::desc(help), PREC_DEVICE_VALUES,
               llvm::cl::init(Device::Cpu), llvm::cl::cat(category)),
        nvcc("nvcc",
             llvm::cl::desc("nvcc for --device gpu (default: on PATH, then "
                            "/usr/local/cuda/bin)"),
             llvm::cl::cat(category)) {}

  DeviceOptions get() const { return {device, nvcc}; }

  std::string help;
  llvm::cl::opt<Device> device;
  llvm::cl::opt<std::string> nvcc;
};

} // namespace prec

#endif // PREC_TOOLS_DEVICEFLAGS_H
