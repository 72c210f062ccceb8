//===- SwitchablePrecision.h - compile once, choose precisions per run -*- C++
//-*-===//
//
// prec-debug's evaluations without recompiling: one program in which
// each searched unit runs at the low or the high precision as a mask
// argument says, compiled for the CPU or emitted as a CUDA engine whose
// mask is an input binding (--device gpu). It is the model legalized with every
// unit high (f32), after the rewrites the CPU pipeline starts with; beside each
// unit op sits a clone of its twin in the all-low legalization, fed the wide
// values rounded to the twin's compute type and converted to its operand types,
// or the low legalization's own weights, and a select takes
// the twin's results, stored as the low op stores them, where the unit
// runs low. One choice depends on a neighbour's bit: a bias add that
// prec-fuse-bias moved into another unit's accumulator is added there only
// while both run low; else the matmul stores its product rounded and the
// add is its twin from a third legalization, with those matmuls high. An
// i8 or f8 contraction's twin quantizes its wide input and dequantizes its
// product with clones of the ops prec-quantize built for it.
//
// That a run equals compiling its plan bit for bit rests on the CPU
// pipeline computing each op the same whatever its neighbours: in
// particular, no producer is fused into an op that reduces
// (prec-fuse-elementwise), so a sum's order does not depend on how its
// operands were made. prec-debug --verify-compile-once checks it.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_SWITCHABLEPRECISION_H
#define PREC_DRIVERS_SWITCHABLEPRECISION_H

#include "formats/Npy.h"
#include "runtime/ModelFunction.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <vector>

namespace prec {

/// A layer's output, as probes return it and prec-debug reads it: the
/// first float result of `last`, the layer's last op.
mlir::Value getLayerOutput(mlir::Operation *last);

/// A run of a program built with probes.
struct ProbedRun {
  std::vector<HostTensor> outputs;
  /// Per probed unit: its output as the run computed it, and its output
  /// when the whole unit runs low on the run's inputs to it (as the low
  /// ops store it, rounded to their storage types), both in f32.
  std::vector<HostTensor> unitOutputs, lowOutputs;
};

class SwitchableProgram {
public:
  /// The model legalized with the given units in f32, the others low.
  using Legalize =
      std::function<llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>(
          llvm::ArrayRef<int> high)>;

  /// Compiles the switched module's function for a device: the CPU's
  /// CompiledFunction::compile, or a CUDA engine's.
  using Compile = std::function<llvm::Expected<std::unique_ptr<ModelFunction>>(
      mlir::OwningOpRef<mlir::ModuleOp>, llvm::StringRef function)>;

  /// Builds the program from the model legalized with every unit low and
  /// with every unit high (and, where the low legalization adds a unit's
  /// bias in another's accumulator, with those others high); units are the
  /// ops `isSearched` accepts, by the index `unitOf` gives their layer. An
  /// error says why the legalizations do not correspond (e.g. an op that
  /// cannot run at the low precision): then compile per plan. With `probes`,
  /// runs also return the units' outputs (runProbed). `compile` compiles
  /// the program.
  static llvm::Expected<std::unique_ptr<SwitchableProgram>>
  create(const Legalize &legalize, llvm::StringRef function,
         const std::function<bool(mlir::Operation *)> &isSearched,
         const llvm::StringMap<int> &unitOf, int units, bool probes,
         const Compile &compile);

  /// Runs on `inputs` (in the function's order) with the `marked` units
  /// high and the others low.
  llvm::Expected<std::vector<HostTensor>> run(const NamedTensors &inputs,
                                              llvm::ArrayRef<int> marked);
  /// The same, with the probes of a program built with them.
  llvm::Expected<ProbedRun> runProbed(const NamedTensors &inputs,
                                      llvm::ArrayRef<int> marked);

  /// The units a probed run returns outputs for, in their order: those
  /// with an op left after lowering.
  llvm::ArrayRef<int> getProbedUnits() const { return probedUnits; }

private:
  SwitchableProgram() = default;
  /// Calls the program: the model's outputs, then any packed probes.
  llvm::Expected<std::vector<HostTensor>> call(const NamedTensors &inputs,
                                               llvm::ArrayRef<int> marked);

  std::unique_ptr<ModelFunction> compiled;
  int units = 0;
  size_t modelOutputs = 0;
  std::vector<int> probedUnits;
  std::vector<std::vector<int64_t>> probeShapes;
};

} // namespace prec

#endif // PREC_DRIVERS_SWITCHABLEPRECISION_H
