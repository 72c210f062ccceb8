//===- PrecBuild.cpp - what prec-build does -------------------------------===//

#include "drivers/PrecBuild.h"

#include "codegen/CudaEmitter.h"
#include "drivers/Nvcc.h"
#include "drivers/PrecCalibrate.h"
#include "drivers/PrecRun.h"
#include "import/OnnxImporter.h"
#include "passes/PrecisionRules.h"
#include "support/Errors.h"

#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace prec {
namespace {

/// The harness `--benchmark` compiles against the engine's header.
constexpr llvm::StringLiteral benchmarkSource =
#include "drivers/EngineBenchmark.inc"
    ;

constexpr llvm::StringLiteral tool = "prec-build";

/// Where the build's files go: `<directory>/<name>...`.
struct Outputs {
  std::string directory, name;

  std::string path(llvm::StringRef suffix) const {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name + suffix.str());
    return std::string(path);
  }
};

/// The model's file stem as a C identifier: what prefixes the engine's
/// functions unless --engine-name says otherwise.
std::string defaultEngineName(llvm::StringRef modelPath) {
  std::string name = llvm::sys::path::stem(modelPath).str();
  for (char &c : name)
    if (!llvm::isAlnum(c))
      c = '_';
  if (name.empty() || llvm::isDigit(name.front()) || name == "prec" ||
      llvm::StringRef(name).starts_with("prec_"))
    name = "engine_" + name;
  return name;
}

/// Reads an ONNX model (by its extension) or MLIR; errors go to `err` at
/// the failing node or line.
OwningOpRef<ModuleOp> loadInput(const PrecBuildOptions &options,
                                MLIRContext &context, llvm::raw_ostream &err) {
  if (!llvm::StringRef(options.modelPath).ends_with_insensitive(".onnx"))
    return loadModel(options.modelPath, "main", context, tool, err);
  OnnxImportOptions importOptions;
  std::string error;
  if (!parseInputShapes(options.inputShapes, importOptions, error)) {
    err << tool << ": error: " << error << "\n";
    return nullptr;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(options.modelPath, /*IsText=*/false);
  if (!bytes) {
    err << tool << ": error: cannot read '" << options.modelPath
        << "': " << bytes.getError().message() << "\n";
    return nullptr;
  }
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    err << diagnostic.getLocation() << ": "
        << (diagnostic.getSeverity() == DiagnosticSeverity::Error ? "error"
                                                                  : "note")
        << ": " << diagnostic.str() << "\n";
    return success();
  });
  return importOnnxModel((*bytes)->getBuffer(), options.modelPath, &context,
                         importOptions);
}

/// Writes `module` as text with its locations (the layer names that
/// calibrations are keyed by).
llvm::Error writeModule(ModuleOp module, llvm::StringRef path) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_None);
  if (error)
    return makeError("cannot write '" + path + "': " + error.message());
  module->print(file.os(), OpPrintingFlags().enableDebugInfo());
  file.keep();
  return llvm::Error::success();
}

/// Calibrates the model on `options.calibrationData` into
/// `<name>.calibration.json`; returns its path, or why it failed.
llvm::Expected<std::string> calibrate(ModuleOp module,
                                      const PrecBuildOptions &options,
                                      const Outputs &outputs,
                                      const DialectRegistry &registry,
                                      llvm::raw_ostream &err) {
  // prec-calibrate reads the model from a file: the imported one is
  // written for it, then removed.
  std::string model = outputs.path(".imported.mlir");
  if (llvm::Error error = writeModule(module, model))
    return std::move(error);
  PrecCalibrateOptions calibration;
  calibration.modelPath = model;
  calibration.data = options.calibrationData;
  calibration.algorithm = options.calibrationAlgorithm;
  calibration.percentile = options.percentile;
  calibration.output = outputs.path(".calibration.json");
  calibration.progress = false;
  int status = runPrecCalibrate(calibration, registry, llvm::nulls(), err);
  llvm::sys::fs::remove(model);
  if (status != 0)
    return makeError("calibration on '" + options.calibrationData +
                     "' failed (above)");
  return calibration.output;
}

/// prec-legalize's options from prec-build's.
std::unique_ptr<LegalizePipelineOptions>
policyOptions(const PrecBuildOptions &options, llvm::StringRef calibration,
              const Outputs &outputs) {
  auto policy = std::make_unique<LegalizePipelineOptions>();
  policy->enabled = options.enabled;
  policy->typing = options.typing;
  policy->constraints = options.constraints;
  policy->target = options.target;
  policy->layerPrecisions = options.layerPrecisions;
  policy->layerOutputTypes = options.layerOutputTypes;
  policy->valRanges = options.valRanges;
  policy->ioTypes = options.ioTypes;
  policy->plan = options.plan;
  policy->quantizeResiduals = options.quantizeResiduals;
  policy->bindingLayout = options.bindingLayout;
  policy->calibration = calibration.str();
  policy->report = outputs.path(".report.json");
  policy->reportTable = outputs.path(".report.txt");
  policy->reportHtml = outputs.path(".report.html");
  policy->reportGraph = options.reportGraph;
  return policy;
}

std::vector<std::string>
engineCompileCommand(llvm::StringRef nvcc, llvm::StringRef arch,
                     const Outputs &outputs, llvm::ArrayRef<std::string> libs) {
  return nvccCommand(nvcc, arch,
                     {"-shared", "-Xcompiler", "-fPIC", outputs.path(".cu"),
                      "-o", outputs.path(".so")},
                     libs);
}

/// Writes, compiles and runs the benchmark harness against the engine.
llvm::Error benchmark(llvm::StringRef nvcc, llvm::StringRef arch,
                      const PrecBuildOptions &options, const Outputs &outputs,
                      llvm::ArrayRef<std::string> libs,
                      llvm::raw_ostream &out) {
  std::string source = outputs.path("_benchmark.cu");
  {
    std::error_code error;
    llvm::raw_fd_ostream file(source, error);
    if (error)
      return makeError("cannot write '" + source + "': " + error.message());
    file << benchmarkSource;
  }
  // The library by its absolute path, which the program records and loads.
  llvm::SmallString<256> library(outputs.path(".so"));
  llvm::sys::fs::make_absolute(library);
  std::string program = outputs.path("_benchmark");
  std::vector<std::string> command = nvccCommand(
      nvcc, arch,
      {"-DPREC_ENGINE=" + outputs.name, "-include", outputs.path(".h"), source,
       library.str().str(), "-o", program},
      libs);
  out << "benchmark: " << quoteCommand(command) << "\n";
  std::string log = outputs.path(".benchmark.log");
  if (llvm::Error error = execute(command, log))
    return error;
  llvm::Error ran = execute(
      {program, outputs.path(".weights"), std::to_string(options.iterations)},
      log);
  if (auto text = llvm::MemoryBuffer::getFile(log); text && !ran)
    out << (*text)->getBuffer();
  return ran;
}

} // namespace

llvm::Error buildEngine(ModuleOp module, const PrecBuildOptions &options,
                        llvm::StringRef name, EngineBuild &build) {
  Outputs outputs{options.outputDir, name.str()};
  CudaEngineOptions engineOptions;
  engineOptions.batch = options.batch;
  engineOptions.batchInputs = options.batchInputs;
  engineOptions.convolutions = options.convolutions;
  if (failed(emitCudaEngine(module, outputs.directory, outputs.name,
                            engineOptions)))
    return makeError("cannot emit the engine '" + name + "' (above)");
  llvm::Expected<std::vector<std::string>> libraries =
      readManifestLibraries(outputs.path(".json"));
  if (!libraries)
    return libraries.takeError();
  build.libraries = *libraries;
  build.nvcc = findNvcc(options.nvcc);
  build.arch = options.arch.empty() ? getNvccArch(module) : options.arch;
  build.command = engineCompileCommand(build.nvcc.value_or("nvcc"), build.arch,
                                       outputs, build.libraries);
  if (!build.nvcc)
    return llvm::Error::success();
  if (llvm::Error error = execute(build.command, outputs.path(".nvcc.log"))) {
    build.compileFailed = true;
    return error;
  }
  build.library = outputs.path(".so");
  return llvm::Error::success();
}

int runPrecBuild(const PrecBuildOptions &options,
                 const DialectRegistry &registry, llvm::raw_ostream &out,
                 llvm::raw_ostream &err) {
  auto fail = [&](llvm::Error error, int code) {
    out.flush(); // what was done, then why it stopped
    err << tool << ": error: " << llvm::toString(std::move(error)) << "\n";
    return code;
  };
  Outputs outputs{options.outputDir, options.engineName.empty()
                                         ? defaultEngineName(options.modelPath)
                                         : options.engineName};
  if (!isEngineName(outputs.name))
    return fail(makeError("the engine name '" + outputs.name +
                          "' must be an identifier, other than prec or "
                          "prec_*: it prefixes the engine's C functions"),
                2);
  if (!options.calibration.empty() && !options.calibrationData.empty())
    return fail(makeError("give --calibration or --calibration-data, not "
                          "both"),
                2);
  if (options.iterations < 1)
    return fail(makeError("--iterations must be at least 1"), 2);
  if (std::error_code error =
          llvm::sys::fs::create_directories(outputs.directory))
    return fail(makeError("cannot create '" + outputs.directory +
                          "': " + error.message()),
                2);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = loadInput(options, context, err);
  if (!module)
    return 2;

  std::string calibration = options.calibration;
  if (!options.calibrationData.empty()) {
    llvm::Expected<std::string> written =
        calibrate(*module, options, outputs, registry, err);
    if (!written)
      return fail(written.takeError(), 2);
    calibration = *written;
    out << "calibration: " << calibration << "\n";
  }
  std::unique_ptr<LegalizePipelineOptions> policy =
      policyOptions(options, calibration, outputs);
  // The target: --target, else the model's policy's GPU, else sm_90.
  if (policy->target.empty() && getPolicy(*module).getTarget() == "cpu")
    policy->target = "sm_90";
  if (policy->target == "cpu")
    return fail(makeError("prec-build builds CUDA engines: --target names a "
                          "GPU (sm_XY), not cpu"),
                2);
  if (llvm::Error error = applyPolicy(*module, *policy, {}, &err, tool))
    return fail(std::move(error), 2);
  if (auto table = llvm::MemoryBuffer::getFile(outputs.path(".report.txt")))
    out << (*table)->getBuffer();

  EngineBuild build;
  llvm::Error built = llvm::Error::success();
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      err << diagnostic.getLocation() << ": error: " << diagnostic.str()
          << "\n";
      return success();
    });
    built = buildEngine(*module, options, outputs.name, build);
  }
  if (!build.command.empty())
    out << "engine sources: " << outputs.path(".cu") << ", "
        << outputs.path(".h") << ", " << outputs.path(".weights") << ", "
        << outputs.path(".json") << "\n";
  if (build.nvcc)
    out << "compile: " << quoteCommand(build.command) << "\n";
  if (built)
    return fail(std::move(built), build.compileFailed ? 1 : 2);
  if (!build.nvcc) {
    out << "nvcc not found"
        << (options.nvcc.empty() ? "" : " at '" + options.nvcc + "'")
        << "; compile the engine with:\n  " << quoteCommand(build.command)
        << "\n";
    if (options.benchmark)
      return fail(makeError("--benchmark needs nvcc"), 2);
    return 0;
  }
  out << "engine: " << build.library << "\n";
  if (options.benchmark)
    if (llvm::Error error = benchmark(*build.nvcc, build.arch, options, outputs,
                                      build.libraries, out))
      return fail(std::move(error), 1);
  return 0;
}

} // namespace prec
