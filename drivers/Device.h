//===- Device.h - where prec-debug and prec-calibrate run -------*- C++ -*-===//
//
// `--device cpu` runs a tool's programs on the CPU JIT; `--device gpu`
// emits them as CUDA engines, compiles them with nvcc and runs them on the
// machine's GPU. Both compile a legalized module's function into a
// ModelFunction, which the tools call alike.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_DEVICE_H
#define PREC_DRIVERS_DEVICE_H

#include "runtime/ModelFunction.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>

namespace prec {

enum class Device { Cpu, Gpu };

#define PREC_DEVICE_VALUES                                                     \
  llvm::cl::values(clEnumValN(prec::Device::Cpu, "cpu", "the CPU JIT"),        \
                   clEnumValN(prec::Device::Gpu, "gpu",                        \
                              "CUDA engines, compiled with nvcc (--nvcc)"))

struct DeviceOptions {
  Device device = Device::Cpu;
  /// nvcc for --device gpu: empty finds it on PATH, then in
  /// /usr/local/cuda/bin.
  std::string nvcc;
};

/// Compiles `functionName` of the legalized `module` (consumed) for the
/// device.
llvm::Expected<std::unique_ptr<ModelFunction>>
compileForDevice(const DeviceOptions &options,
                 mlir::OwningOpRef<mlir::ModuleOp> module,
                 llvm::StringRef functionName);

} // namespace prec

#endif // PREC_DRIVERS_DEVICE_H
