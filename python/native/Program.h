//===- Program.h - models and compiled programs for Python ------*- C++ -*-===//
//
// What `prec.compile` returns, natively: a Model is a module as imported
// (ONNX or MLIR), which calibrations are made on and policies applied to;
// a Program is a Model legalized with a policy, which runs on the CPU
// through the JIT, reports its precisions and builds CUDA engines.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PYTHON_PROGRAM_H
#define PREC_PYTHON_PROGRAM_H

#include "python/native/Conversions.h"
#include "runtime/JitRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prec::python {

/// Every dialect prec reads, registered once.
const mlir::DialectRegistry &getRegistry();

/// The policy of `Model::legalize`, as prec-legalize's options name it.
struct Policy {
  std::vector<std::string> enabled;
  std::string typing = "module", constraints = "module";
  std::string target, bindingLayout = "nchw";
  std::vector<std::string> layerPrecisions, layerOutputTypes, valRanges,
      ioTypes;
  std::optional<std::string> calibration, plan; // JSON text
  bool quantizeResiduals = false;
};

class Program;

class Model : public std::enable_shared_from_this<Model> {
public:
  /// Imports `bytes`, an ONNX model or MLIR text; `name` is its file name
  /// (for locations and external data). Raises prec.Error on bad input.
  static std::shared_ptr<Model> load(const std::string &bytes,
                                     const std::string &name, bool onnx,
                                     const std::vector<std::string> &shapes);

  /// The model with `policy` applied.
  std::shared_ptr<Program> legalize(const Policy &policy);
  /// The model's f32 reference: regions and requests dropped, every op
  /// computing in f32 (prec-run's --reference f32).
  std::shared_ptr<Program> reference();
  /// A calibration (JSON) from `batches` of inputs by name.
  std::string calibrate(std::vector<NamedTensors> batches,
                        const std::string &algorithm, double percentile,
                        int64_t batchSize, std::string &summary);
  /// The module as MLIR text, with locations.
  std::string print() const;
  /// The names of @main's inputs.
  std::vector<std::string> getInputNames() const;
  mlir::ModuleOp getModule() const { return *module; }
  mlir::MLIRContext &getContext() { return *context; }

private:
  Model();
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

class Program {
public:
  Program(std::shared_ptr<Model> model,
          mlir::OwningOpRef<mlir::ModuleOp> module, std::string report,
          std::vector<DiagnosticRecord> warnings);

  const std::vector<Binding> &getInputs() const { return inputs; }
  const std::vector<Binding> &getOutputs() const { return outputs; }
  const std::string &getReport() const { return report; }
  const std::vector<DiagnosticRecord> &getWarnings() const { return warnings; }
  std::shared_ptr<Model> getModel() const { return model; }
  std::string print() const;

  /// Runs on the CPU (compiled at the first call): inputs by binding name,
  /// converted to the bindings' types; outputs in binding order.
  NamedTensors run(const NamedTensors &arguments);

  /// Emits and compiles a CUDA engine; returns the library's path.
  std::string buildEngine(const std::string &directory, const std::string &name,
                          const std::optional<std::string> &batch,
                          const std::vector<std::string> &batchInputs,
                          const std::string &nvcc, const std::string &arch);

private:
  std::shared_ptr<Model> model; // keeps the context alive
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string report;
  std::vector<DiagnosticRecord> warnings;
  std::vector<Binding> inputs, outputs;
  std::unique_ptr<CompiledFunction> compiled;
};

} // namespace prec::python

#endif // PREC_PYTHON_PROGRAM_H
