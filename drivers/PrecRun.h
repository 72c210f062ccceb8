//===- PrecRun.h - what prec-run does ---------------------------*- C++ -*-===//
//
// prec-run's logic, reachable from tests: prepare the model (apply a policy
// with prec-legalize, or build the f32 reference), make or load inputs, run
// through the JIT, save and compare outputs.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_PRECRUN_H
#define PREC_DRIVERS_PRECRUN_H

#include "formats/Npy.h"
#include "passes/Passes.h"
#include "runtime/Compare.h"
#include "runtime/JitRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

/// Where the inputs of a run come from: an .npz (or .npy), or generated
/// uniformly in value ranges.
struct InputOptions {
  std::string loadInputs;
  std::vector<std::string> valRanges; // "name:[lo,hi]"
  uint64_t seed = 1;
};

struct PrecRunOptions {
  std::string modelPath;
  std::string functionName = "main";
  /// prec-legalize options; std::nullopt: run the model as it is.
  std::optional<std::string> policy;
  InputOptions inputs;
  std::string saveInputs;
  std::string saveOutputs;
  std::string compareWith; // a golden .npz
  std::string reference;   // "f32" or empty
  ToleranceOptions tolerances;
};

/// Exit codes, as documented for prec-run.
enum ExitCode { kPassed = 0, kFailed = 1, kBadInput = 2 };

/// Runs prec-run with the dialects of `registry`; prints results to `out`
/// and errors to `err`; returns the exit code.
int runPrecRun(const PrecRunOptions &options,
               const mlir::DialectRegistry &registry, llvm::raw_ostream &out,
               llvm::raw_ostream &err);

/// Parses the model at `path` in `context`; errors (parse errors at their
/// file:line:col, a missing file or function) go to `err` as `tool` says
/// them, and the result is null.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(llvm::StringRef path,
                                            llvm::StringRef function,
                                            mlir::MLIRContext &context,
                                            llvm::StringRef tool,
                                            llvm::raw_ostream &err);

/// Tensors for `bindings` from an .npz (by name) or, for a single binding,
/// an .npy; `what` is "input" or "output" for messages.
llvm::Expected<NamedTensors> loadBindings(llvm::StringRef path,
                                          llvm::ArrayRef<Binding> bindings,
                                          llvm::StringRef what);

/// Runs `function` of `module` (consumed) on `inputs`; `milliseconds`, if
/// given, receives the time of the run (not of the compilation).
llvm::Expected<std::vector<HostTensor>>
compileAndRun(mlir::OwningOpRef<mlir::ModuleOp> module,
              llvm::StringRef function, const NamedTensors &inputs,
              double *milliseconds = nullptr);

/// Makes `values` (of the function's body) extra results of `function`:
/// tensors prec-calibrate and prec-debug observe.
void appendFunctionResults(mlir::Operation *function,
                           mlir::ArrayRef<mlir::Value> values);

/// prec-legalize's options as prec-run's --policy spells them.
llvm::Expected<std::unique_ptr<LegalizePipelineOptions>>
parsePolicy(llvm::StringRef policy);

/// Legalizes `module` with `options` and `inputs`; its warnings (overflow,
/// fallback) go to `warnings` when given, under the name of `tool`.
llvm::Error applyPolicy(mlir::ModuleOp module,
                        const LegalizePipelineOptions &options,
                        const LegalizeInputs &inputs = {},
                        llvm::raw_ostream *warnings = nullptr,
                        llvm::StringRef tool = "prec-run");

/// Turns the model into its f32 reference: regions and requests dropped,
/// no reduced precision enabled, legalized so that every op computes in f32
/// (the casts the model itself asked for stay), for `target` when given,
/// else for the model's. `report`, when given, is where the precision
/// report goes (prec-legalize's report=).
llvm::Error makeF32Reference(mlir::ModuleOp module, llvm::StringRef report = {},
                             llvm::StringRef target = {});

/// Splits `x:[1,2],y:[3,4]` at the commas outside brackets.
std::vector<llvm::StringRef> splitOutsideBrackets(llvm::StringRef text);

/// The inputs for `bindings` as `options` say (loaded, or generated).
llvm::Expected<NamedTensors> makeInputs(const InputOptions &options,
                                        llvm::ArrayRef<Binding> bindings);

/// Uniform random inputs for `bindings`: [0, 1] unless `valRanges`
/// (`name:[lo,hi]`) say otherwise.
llvm::Expected<NamedTensors>
generateInputs(llvm::ArrayRef<Binding> bindings,
               llvm::ArrayRef<std::string> valRanges, uint64_t seed);

} // namespace prec

#endif // PREC_DRIVERS_PRECRUN_H
