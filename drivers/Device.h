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

/// An error for options that do not go together (--nvcc with --device
/// cpu), or when --device gpu finds no nvcc: checked before any work.
llvm::Error checkDeviceOptions(const DeviceOptions &options);

/// The target a CUDA engine of `model` is built for: `requested`, else the
/// model's, else sm_90; an error when that is no GPU: a model whose policy
/// targets the CPU is not silently searched or calibrated for another
/// target (prec-build, whose product is an engine, builds it for sm_90).
llvm::Expected<std::string> chooseEngineTarget(mlir::ModuleOp model,
                                               llvm::StringRef requested);

/// Compiles `functionName` of the legalized `module` (consumed) for the
/// device.
llvm::Expected<std::unique_ptr<ModelFunction>>
compileForDevice(const DeviceOptions &options,
                 mlir::OwningOpRef<mlir::ModuleOp> module,
                 llvm::StringRef functionName);

} // namespace prec

#endif // PREC_DRIVERS_DEVICE_H
