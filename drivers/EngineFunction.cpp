//===- EngineFunction.cpp - a model's function as a CUDA engine -----------===//

#include "drivers/EngineFunction.h"

#include "codegen/CudaEmitter.h"
#include "drivers/Nvcc.h"
#include "runtime/JitRunner.h"
#include "support/Errors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

namespace prec {
namespace {

/// The host runner compiled beside the engine.
constexpr llvm::StringLiteral hostSource =
#include "drivers/EngineHost.inc"
    ;

/// A temporary directory, removed with what is in it.
struct TemporaryDirectory {
  llvm::SmallString<128> path;
  ~TemporaryDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> result(path);
    llvm::sys::path::append(result, name);
    return result.str().str();
  }
};

llvm::Error writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code error;
  llvm::raw_fd_ostream file(path, error);
  if (error)
    return makeError("cannot write '" + path + "': " + error.message());
  file << text;
  return llvm::Error::success();
}

} // namespace

/// The engine's library, loaded, and the functions prec calls in it.
struct EngineFunction::Library {
  int (*create)(const char *, void **);
  int (*run)(void *, const void *const *, void *const *);
  void (*destroy)(void *);
  const char *(*statusMessage)(int);
  int (*numBindings)();
  int (*bindingIsInput)(int);
  const char *(*bindingDtype)(int);
  int (*bindingRank)(int);
  const long long *(*bindingShape)(int);

  /// Loads `path`, whose functions are prefixed `stem`.
  static llvm::Expected<std::unique_ptr<Library>> load(const std::string &path,
                                                       llvm::StringRef stem) {
    std::string message;
    llvm::sys::DynamicLibrary loaded =
        llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
    if (!loaded.isValid())
      return makeError("cannot load the engine's library: " + message);
    auto library = std::make_unique<Library>();
    std::string missing;
    auto find = [&](auto &function, llvm::StringRef name) {
      std::string symbol = (stem + name).str();
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
          loaded.getAddressOfSymbol(symbol.c_str()));
      if (!function)
        missing = symbol;
    };
    find(library->create, "_host_create");
    find(library->run, "_host_run");
    find(library->destroy, "_host_destroy");
    find(library->statusMessage, "_status_message");
    find(library->numBindings, "_num_bindings");
    find(library->bindingIsInput, "_binding_is_input");
    find(library->bindingDtype, "_binding_dtype");
    find(library->bindingRank, "_binding_rank");
    find(library->bindingShape, "_binding_shape");
    if (!missing.empty())
      return makeError("the engine's library has no function " + missing);
    return library;
  }

  /// An error unless the engine's binding `index` is `binding`.
  llvm::Error checkBinding(int index, const Binding &binding,
                           bool isInput) const {
    const long long *shape = bindingShape(index);
    std::vector<int64_t> engineShape(shape, shape + bindingRank(index));
    if (bindingIsInput(index) == isInput &&
        getElementKindName(binding.kind) == bindingDtype(index) &&
        engineShape == binding.shape)
      return llvm::Error::success();
    return makeError("the engine's binding " + std::to_string(index) + " (" +
                     bindingDtype(index) + " " + formatShape(engineShape) +
                     ") is not the function's '" + binding.name + "' (" +
                     getElementKindName(binding.kind).str() + " " +
                     formatShape(binding.shape) + ")");
  }
};

EngineFunction::EngineFunction() = default;

EngineFunction::~EngineFunction() {
  if (runner)
    library->destroy(runner);
}

llvm::Expected<std::unique_ptr<EngineFunction>>
EngineFunction::compile(mlir::OwningOpRef<mlir::ModuleOp> module,
                        llvm::StringRef functionName, llvm::StringRef nvcc) {
  auto function = module->lookupSymbol<mlir::func::FuncOp>(functionName);
  if (!function)
    return makeError("the module has no function @" + functionName);
  std::unique_ptr<EngineFunction> compiled(new EngineFunction());
  if (llvm::Error error =
          readBindings(function, compiled->inputs, compiled->outputs))
    return std::move(error);
  std::string arch = getNvccArch(*module);
  if (!llvm::StringRef(arch).starts_with("sm_"))
    return makeError("a CUDA engine needs a GPU target (sm_53 ... sm_121); "
                     "the module's is '" +
                     arch + "'");
  std::optional<std::string> compiler = findNvcc(nvcc);
  if (!compiler)
    return makeError(nvcc.empty()
                         ? "nvcc is not on PATH nor in /usr/local/cuda/bin: "
                           "name it with --nvcc"
                         : "nvcc not found at '" + nvcc + "'");

  TemporaryDirectory directory;
  if (std::error_code error =
          llvm::sys::fs::createUniqueDirectory("prec-engine", directory.path))
    return makeError("cannot create a directory for the engine: " +
                     error.message());
  // Each engine of the process its own prefix: the libraries are loaded
  // with their symbols global.
  static std::atomic<int> engines{0};
  std::string stem = "gpu_engine" + std::to_string(engines++);
  std::string diagnostics;
  {
    mlir::ScopedDiagnosticHandler handler(
        module->getContext(), [&](mlir::Diagnostic &diagnostic) {
          llvm::raw_string_ostream os(diagnostics);
          os << diagnostic.getLocation() << ": " << diagnostic.str() << "\n";
          return mlir::success();
        });
    if (failed(emitCudaEngine(*module, directory.path, stem, {})))
      return makeError("cannot emit the CUDA engine:\n" + diagnostics);
  }
  llvm::Expected<std::vector<std::string>> libraries =
      readManifestLibraries(directory.file(stem + ".json"));
  if (!libraries)
    return libraries.takeError();
  if (llvm::Error error =
          writeFile(directory.file(stem + "_host.cu"), hostSource))
    return std::move(error);
  std::string libraryPath = directory.file(stem + ".so");
  std::vector<std::string> command = nvccCommand(
      *compiler, arch,
      {"-shared", "-Xcompiler", "-fPIC", "-DPREC_ENGINE=" + stem, "-include",
       directory.file(stem + ".h"), directory.file(stem + ".cu"),
       directory.file(stem + "_host.cu"), "-o", libraryPath},
      *libraries);
  if (llvm::Error error = execute(command, directory.file("nvcc.log")))
    return std::move(error);

  llvm::Expected<std::unique_ptr<Library>> library =
      Library::load(libraryPath, stem);
  if (!library)
    return library.takeError();
  compiled->library = std::move(*library);
  const Library &engine = *compiled->library;
  size_t bindings = compiled->inputs.size() + compiled->outputs.size();
  if (engine.numBindings() != static_cast<int>(bindings))
    return makeError("the engine has " + std::to_string(engine.numBindings()) +
                     " bindings, the function " + std::to_string(bindings));
  for (auto [index, binding] : llvm::enumerate(compiled->inputs))
    if (llvm::Error error = engine.checkBinding(index, binding, true))
      return std::move(error);
  for (auto [index, binding] : llvm::enumerate(compiled->outputs))
    if (llvm::Error error = engine.checkBinding(compiled->inputs.size() + index,
                                                binding, false))
      return std::move(error);
  if (int status = engine.create(directory.file(stem + ".weights").c_str(),
                                 &compiled->runner))
    return makeError("cannot create the CUDA engine: " +
                     std::string(engine.statusMessage(status)) + " (status " +
                     std::to_string(status) + ")");
  return compiled;
}

llvm::Expected<std::vector<HostTensor>>
EngineFunction::run(llvm::ArrayRef<HostTensor> arguments) {
  if (llvm::Error error = checkArguments(arguments))
    return std::move(error);
  std::vector<const void *> inputPointers;
  for (const HostTensor &argument : arguments)
    inputPointers.push_back(argument.data.data());
  std::vector<HostTensor> results;
  std::vector<void *> outputPointers;
  results.reserve(outputs.size());
  for (const Binding &binding : outputs) {
    results.emplace_back(binding.kind, binding.shape);
    outputPointers.push_back(results.back().data.data());
  }
  if (int status =
          library->run(runner, inputPointers.data(), outputPointers.data()))
    return makeError("the CUDA engine failed: " +
                     std::string(library->statusMessage(status)) + " (status " +
                     std::to_string(status) + ")");
  return results;
}

} // namespace prec
