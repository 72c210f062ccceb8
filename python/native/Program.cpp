//===- Program.cpp - models and compiled programs for Python --------------===//

#include "python/native/Program.h"

#include "codegen/CudaEmitter.h"
#include "dialects/Utils/OpNames.h"
#include "drivers/Nvcc.h"
#include "drivers/PrecBuild.h"
#include "drivers/PrecCalibrate.h"
#include "drivers/PrecRun.h"
#include "formats/PlanFile.h"
#include "import/OnnxImporter.h"
#include "lowering/BatchRange.h"
#include "passes/Passes.h"
#include "passes/PrecisionRules.h"
#include "registration/InitAll.h"
#include "support/Errors.h"
#include "support/NestingDepth.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace prec::python {

const DialectRegistry &getRegistry() {
  static const DialectRegistry registry = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }();
  return registry;
}

namespace {

/// Sets an enumerated pipeline option from its name, as the command line
/// spells it.
template <typename T>
void setChoice(detail::PassOptions::Option<T> &option, llvm::StringRef key,
               llvm::StringRef value) {
  T choice{};
  if (option.getParser().parse(option, key, value, choice))
    raiseError("bad " + key.str() + " '" + value.str() + "'", {});
  option = choice;
}

void setPipelineOptions(const Policy &policy,
                        LegalizePipelineOptions &options) {
  options.enabled = policy.enabled;
  setChoice(options.typing, "typing", policy.typing);
  setChoice(options.constraints, "constraints", policy.constraints);
  setChoice(options.bindingLayout, "binding_layout", policy.bindingLayout);
  options.target = policy.target;
  options.layerPrecisions = policy.layerPrecisions;
  options.layerOutputTypes = policy.layerOutputTypes;
  options.valRanges = policy.valRanges;
  options.ioTypes = policy.ioTypes;
  options.quantizeResiduals = policy.quantizeResiduals;
}

LegalizeInputs makeLegalizeInputs(const Policy &policy, MLIRContext *context) {
  LegalizeInputs inputs;
  if (policy.calibration) {
    llvm::Expected<CalibrationFile> calibration =
        parseCalibration(*policy.calibration);
    if (!calibration)
      raiseError(makeError("bad calibration: " +
                           llvm::toString(calibration.takeError())));
    inputs.calibration =
        std::make_shared<const CalibrationFile>(std::move(*calibration));
  }
  if (policy.plan) {
    llvm::Expected<PrecisionPlan> plan = parsePlan(*policy.plan, context);
    if (!plan)
      raiseError(makeError("bad plan: " + llvm::toString(plan.takeError())));
    inputs.plan = std::make_shared<const PrecisionPlan>(std::move(*plan));
  }
  return inputs;
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

std::string joinNames(llvm::ArrayRef<Binding> bindings) {
  std::vector<std::string> names;
  for (const Binding &binding : bindings)
    names.push_back(binding.name);
  return llvm::join(names, ", ");
}

/// A temporary file for a precision report, read back and removed.
class ReportFile {
public:
  ReportFile() {
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("prec-report", "json", path))
      raiseError("cannot create a temporary file: " + error.message(), {});
  }
  ~ReportFile() { llvm::sys::fs::remove(path); }
  llvm::StringRef getPath() const { return path; }
  std::string read() const {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> report =
        llvm::MemoryBuffer::getFile(path);
    if (!report)
      raiseError("cannot read the report: " + report.getError().message(), {});
    return (*report)->getBuffer().str();
  }

private:
  llvm::SmallString<128> path;
};

std::vector<DiagnosticRecord>
getWarnings(const DiagnosticCollector &collector) {
  std::vector<DiagnosticRecord> warnings;
  for (const DiagnosticRecord &record : collector.getRecords())
    if (record.severity == "warning")
      warnings.push_back(record);
  return warnings;
}

} // namespace

Model::Model() : context(std::make_unique<MLIRContext>(getRegistry())) {}

std::shared_ptr<Model> Model::load(const std::string &bytes,
                                   const std::string &name, bool onnx,
                                   const std::vector<std::string> &shapes) {
  std::shared_ptr<Model> model(new Model());
  DiagnosticCollector collector(model->context.get());
  if (onnx) {
    OnnxImportOptions options;
    std::string error;
    if (!parseInputShapes(shapes, options, error))
      raiseError(error, {});
    model->module = importOnnxModel(bytes, name, model->context.get(), options);
  } else {
    if (!shapes.empty())
      raiseError("input_shapes applies to ONNX models; '" + name +
                     "' is MLIR, whose shapes are its own",
                 {});
    if (llvm::Error error = checkNestingDepth(bytes, name))
      raiseError(std::move(error));
    model->module = parseSourceString<ModuleOp>(
        bytes, ParserConfig(model->context.get()), name);
    if (model->module && !model->module->lookupSymbol<func::FuncOp>("main"))
      raiseError("'" + name + "' has no function @main", {});
  }
  if (!model->module)
    raiseError(makeError("cannot import '" + name + "'"), &collector);
  return model;
}

std::shared_ptr<Program> Model::legalize(const Policy &policy) {
  LegalizePipelineOptions options;
  setPipelineOptions(policy, options);
  LegalizeInputs inputs = makeLegalizeInputs(policy, context.get());
  ReportFile report;
  options.report = report.getPath().str();
  OwningOpRef<ModuleOp> legalized = module->clone();
  DiagnosticCollector collector(context.get());
  if (failed(runLegalizePipeline(*legalized, options, inputs)))
    raiseError(makeError("cannot apply the policy"), &collector);
  return std::make_shared<Program>(shared_from_this(), std::move(legalized),
                                   report.read(), getWarnings(collector));
}

std::shared_ptr<Program> Model::reference() {
  ReportFile report;
  OwningOpRef<ModuleOp> reference = module->clone();
  DiagnosticCollector collector(context.get());
  if (llvm::Error error = makeF32Reference(*reference, report.getPath()))
    raiseError(std::move(error), &collector);
  return std::make_shared<Program>(shared_from_this(), std::move(reference),
                                   report.read(), getWarnings(collector));
}

std::string Model::calibrate(std::vector<NamedTensors> batches,
                             const std::string &algorithm, double percentile,
                             int64_t batchSize, std::string &summary) {
  PrecCalibrateOptions options;
  options.algorithm = parseCalibrationAlgorithm(algorithm);
  if (!options.algorithm)
    raiseError("unknown calibration algorithm '" + algorithm +
                   "' (minmax, entropy or percentile)",
               {});
  options.percentile = percentile;
  options.batchSize = batchSize;
  options.progress = false;
  auto source = [&](llvm::ArrayRef<Binding> inputs) {
    return CalibrationData::fromTensors(inputs, std::move(batches));
  };
  llvm::raw_string_ostream out(summary);
  DiagnosticCollector collector(context.get());
  llvm::Expected<CalibrationFile> calibration =
      calibrateModel(*module, options, source, "python", out, out);
  if (!calibration)
    raiseError(calibration.takeError(), &collector);
  return serializeCalibration(*calibration);
}

std::string Model::print() const { return printModule(*module); }

std::vector<std::string> Model::getInputNames() const {
  auto function = module.get().lookupSymbol<func::FuncOp>("main");
  std::vector<std::string> names;
  for (BlockArgument argument : function.getArguments())
    names.push_back(getBindingName(argument));
  return names;
}

Program::Program(std::shared_ptr<Model> model, OwningOpRef<ModuleOp> module,
                 std::string report, std::vector<DiagnosticRecord> warnings)
    : model(std::move(model)), module(std::move(module)),
      report(std::move(report)), warnings(std::move(warnings)) {
  auto function = this->module->lookupSymbol<func::FuncOp>("main");
  // A program whose bindings the JIT cannot pass still reports; run says
  // why it cannot run.
  llvm::consumeError(readBindings(function, inputs, outputs));
}

std::string Program::print() const { return printModule(*module); }

NamedTensors Program::run(const NamedTensors &arguments) {
  if (!compiled) {
    DiagnosticCollector collector(&model->getContext());
    llvm::Expected<std::unique_ptr<CompiledFunction>> function =
        CompiledFunction::compile(module->clone(), "main");
    if (!function)
      raiseError(function.takeError(), &collector);
    compiled = std::move(*function);
  }
  const std::vector<Binding> &bindings = compiled->getInputs();
  for (const auto &[name, tensor] : arguments)
    if (llvm::none_of(bindings,
                      [&](const Binding &b) { return b.name == name; }))
      raiseError("the program has no input '" + name +
                     "' (its inputs: " + joinNames(bindings) + ")",
                 {});
  std::vector<HostTensor> values;
  for (const Binding &binding : bindings) {
    auto found = llvm::find_if(arguments, [&](const auto &entry) {
      return entry.first == binding.name;
    });
    if (found == arguments.end())
      raiseError("input '" + binding.name +
                     "' is missing (the inputs: " + joinNames(bindings) + ")",
                 {});
    const HostTensor &tensor = found->second;
    if (tensor.shape != binding.shape)
      raiseError("input '" + binding.name + "' has shape " +
                     tensor.formatShape() + ", but the program takes " +
                     formatShape(binding.shape),
                 {});
    values.push_back(tensor.convertTo(binding.kind));
  }
  llvm::Expected<std::vector<HostTensor>> results = compiled->run(values);
  if (!results)
    raiseError(results.takeError());
  NamedTensors named;
  for (auto [binding, result] : llvm::zip(compiled->getOutputs(), *results))
    named.emplace_back(binding.name, std::move(result));
  return named;
}

std::string Program::buildEngine(const std::string &directory,
                                 const std::string &name,
                                 const std::optional<std::string> &batch,
                                 const std::vector<std::string> &batchInputs,
                                 const std::string &nvcc,
                                 const std::string &arch) {
  if (!isEngineName(name))
    raiseError("the engine name '" + name +
                   "' must be an identifier, other than prec or prec_*: it "
                   "prefixes the engine's C functions",
               {});
  if (getPolicy(*module).getTarget() == "cpu")
    raiseError("this program was compiled for target 'cpu'; an engine needs "
               "a GPU target (target=\"sm_90\", ...)",
               {});
  PrecBuildOptions options;
  options.outputDir = directory;
  if (batch) {
    llvm::Expected<BatchRange> range = parseBatchRange(*batch);
    if (!range)
      raiseError(range.takeError());
    options.batch = *range;
  }
  options.batchInputs = batchInputs;
  options.nvcc = nvcc;
  options.arch = arch;
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    raiseError("cannot create '" + directory + "': " + error.message(), {});
  OwningOpRef<ModuleOp> engineModule = module->clone();
  DiagnosticCollector collector(&model->getContext());
  EngineBuild build;
  if (llvm::Error error =
          prec::buildEngine(*engineModule, options, name, build))
    raiseError(std::move(error), &collector);
  if (!build.nvcc)
    raiseError("nvcc not found" +
                   (nvcc.empty() ? std::string() : " at '" + nvcc + "'") +
                   "; compile the engine with:\n  " +
                   quoteCommand(build.command),
               {});
  return build.library;
}

} // namespace prec::python
