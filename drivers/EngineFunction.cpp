//===- EngineFunction.cpp - a model's function as a CUDA engine -----------===//

#include "drivers/EngineFunction.h"

#include "codegen/CudaEmitter.h"
#include "drivers/Nvcc.h"
#include "support/Errors.h"
#include "support/ScratchDirectory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <numeric>

#include <dlfcn.h>

namespace prec {
namespace {

/// The host runner compiled beside the engine.
constexpr llvm::StringLiteral hostSource =
#include "drivers/EngineHost.inc"
    ;

/// The prefix of the engine's C functions: each engine's library is
/// loaded with its symbols local, so that engines of one process, all
/// named alike, cannot bind to each other's kernels.
constexpr llvm::StringLiteral stem = "gpu_engine";

} // namespace

/// The engine's library, loaded, and the functions prec calls in it.
struct EngineFunction::Library {
  int (*create)(const char *, const size_t *, void **);
  int (*run)(void *, const void *const *, void *const *);
  void (*destroy)(void *);
  const char *(*statusMessage)(int);
  int (*numBindings)();
  int (*bindingIsInput)(int);
  const char *(*bindingDtype)(int);
  int (*bindingRank)(int);
  const long long *(*bindingShape)(int);

  /// Loads the library at `path`; it stays loaded for the process's life
  /// (the CUDA runtime linked into it registers exit handlers).
  static llvm::Expected<std::unique_ptr<Library>>
  load(const std::string &path) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return makeError("cannot load the engine's library: " +
                       std::string(dlerror()));
    auto library = std::make_unique<Library>();
    std::string missing;
    auto find = [&](auto &function, llvm::StringRef name) {
      std::string symbol = (stem + name).str();
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
          dlsym(handle, symbol.c_str()));
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

namespace {

/// Emits `function`, the module's only function left, as an engine in
/// `directory` and compiles it with the host runner into `<stem>.so`.
llvm::Error buildLibrary(mlir::ModuleOp module,
                         const ScratchDirectory &directory,
                         llvm::StringRef nvcc, llvm::StringRef arch) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(
      module->getContext(), [&](mlir::Diagnostic &diagnostic) {
        llvm::raw_string_ostream os(diagnostics);
        os << diagnostic.getLocation() << ": " << diagnostic.str() << "\n";
        return mlir::success();
      });
  if (failed(emitCudaEngine(module, directory.getPath(), stem, {})))
    return makeError("cannot emit the CUDA engine:\n" + diagnostics);
  llvm::Expected<std::vector<std::string>> libraries =
      readManifestLibraries(directory.file(stem + ".json"));
  if (!libraries)
    return libraries.takeError();
  std::string host = directory.file(stem + "_host.cu");
  if (llvm::Error error = llvm::writeToOutput(host, [](llvm::raw_ostream &os) {
        os << hostSource;
        return llvm::Error::success();
      }))
    return error;
  std::vector<std::string> command = nvccCommand(
      nvcc, arch,
      {"-shared", "-Xcompiler", "-fPIC", "-DPREC_ENGINE=" + stem.str(),
       "-include", directory.file(stem + ".h"), directory.file(stem + ".cu"),
       host, "-o", directory.file(stem + ".so")},
      *libraries);
  return execute(command, directory.file("nvcc.log"));
}

} // namespace

llvm::Error EngineFunction::checkBindings() const {
  size_t count = inputs.size() + outputs.size();
  if (library->numBindings() != static_cast<int>(count))
    return makeError("the engine has " +
                     std::to_string(library->numBindings()) +
                     " bindings, the function " + std::to_string(count));
  for (auto [index, binding] : llvm::enumerate(inputs))
    if (llvm::Error error = library->checkBinding(index, binding, true))
      return error;
  for (auto [index, binding] : llvm::enumerate(outputs))
    if (llvm::Error error =
            library->checkBinding(inputs.size() + index, binding, false))
      return error;
  return llvm::Error::success();
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
    return makeError("a CUDA engine needs a GPU target; the module's is '" +
                     arch + "'");
  llvm::Expected<std::string> compiler = requireNvcc(nvcc);
  if (!compiler)
    return compiler.takeError();
  // The emitter emits a module's only function (or @main).
  for (auto other :
       llvm::make_early_inc_range(module->getOps<mlir::func::FuncOp>()))
    if (other != function)
      other.erase();

  llvm::Expected<ScratchDirectory> directory =
      ScratchDirectory::create("prec-engine");
  if (!directory)
    return directory.takeError();
  if (llvm::Error error = buildLibrary(*module, *directory, *compiler, arch))
    return std::move(error);
  llvm::Expected<std::unique_ptr<Library>> library =
      Library::load(directory->file(stem + ".so"));
  if (!library)
    return library.takeError();
  compiled->library = std::move(*library);
  if (llvm::Error error = compiled->checkBindings())
    return std::move(error);
  // The runner allocates a device buffer of each binding's size.
  std::vector<size_t> bytes;
  for (const Binding &binding :
       llvm::concat<const Binding>(compiled->inputs, compiled->outputs))
    bytes.push_back(std::accumulate(binding.shape.begin(), binding.shape.end(),
                                    getElementSize(binding.kind),
                                    std::multiplies<size_t>()));
  if (int status =
          compiled->library->create(directory->file(stem + ".weights").c_str(),
                                    bytes.data(), &compiled->runner))
    return makeError("cannot create the CUDA engine: " +
                     std::string(compiled->library->statusMessage(status)) +
                     " (status " + std::to_string(status) + ")");
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
