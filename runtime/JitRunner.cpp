//===- JitRunner.cpp - run a function of a module on the CPU --------------===//

#include "runtime/JitRunner.h"

#include "runtime/BlasContractions.h"

#include "support/Errors.h"

#include "dialects/Utils/OpNames.h"
#include "lowering/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace prec {

/// An error at the first op whose result cannot fit in memory (a broadcast
/// to 10^12 elements), rather than an abort inside the compiled code.
static llvm::Error checkTensorSizes(mlir::Operation *function) {
  uint64_t memory = getPhysicalMemory();
  std::string message;
  function->walk([&](mlir::Operation *op) {
    for (mlir::Type type : op->getResultTypes()) {
      auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() ||
          !tensor.getElementType().isIntOrFloat())
        continue;
      uint64_t bytes = getTensorBytes(tensor);
      if (bytes <= memory)
        continue;
      std::string name = getLayerName(op).str();
      llvm::raw_string_ostream os(message);
      os << (name.empty() ? "" : "'" + name + "' ") << "(" << op->getName()
         << ") at " << op->getLoc() << " makes a " << tensor << " of "
         << (bytes >> 20) << " MiB, more than this machine's " << (memory >> 20)
         << " MiB of memory";
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return message.empty() ? llvm::Error::success() : makeError(message);
}

llvm::Expected<std::unique_ptr<CompiledFunction>>
CompiledFunction::compile(mlir::OwningOpRef<mlir::ModuleOp> module,
                          llvm::StringRef functionName) {
  mlir::MLIRContext *context = module->getContext();
  auto function = module->lookupSymbol<mlir::func::FuncOp>(functionName);
  if (!function)
    return makeError("the module has no function @" + functionName);
  std::unique_ptr<CompiledFunction> compiled(new CompiledFunction());
  if (llvm::Error error =
          readBindings(function, compiled->inputs, compiled->outputs))
    return std::move(error);
  if (llvm::Error error = checkTensorSizes(function))
    return std::move(error);
  function->setAttr("llvm.emit_c_interface", mlir::UnitAttr::get(context));

  // Collect the lowering's diagnostics to return them as the error.
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag.str() << "\n";
    }
    return mlir::success();
  });
  mlir::PassManager pm(context);
  buildLowerToCpuPipeline(pm);
  if (mlir::failed(pm.run(*module)))
    return makeError("lowering to the CPU failed:\n" + diagnostics);

  static bool targetsInitialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsInitialized;
  mlir::registerBuiltinDialectTranslation(*context);
  mlir::registerLLVMDialectTranslation(*context);

  auto optimizer = mlir::makeOptimizingTransformer(/*optLevel=*/3,
                                                   /*sizeLevel=*/0,
                                                   /*targetMachine=*/nullptr);
  mlir::ExecutionEngineOptions options;
  llvm::StringRef runtimeLibraries[] = {PREC_MLIR_C_RUNNER_UTILS};
  options.sharedLibPaths = runtimeLibraries;
  options.transformer = optimizer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>> engine =
      mlir::ExecutionEngine::create(*module, options);
  if (!engine)
    return makeError("JIT compilation failed: " +
                     llvm::toString(engine.takeError()) + "\n" + diagnostics);
  (*engine)->registerSymbols(getBlasContractionSymbols);
  compiled->engine = std::move(*engine);
  compiled->entryName = ("_mlir_ciface_" + functionName).str();
  return compiled;
}

CompiledFunction::~CompiledFunction() = default;

namespace {

/// A ranked memref descriptor as the C interface lays it out:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
class MemRefDescriptor {
public:
  MemRefDescriptor(void *data, llvm::ArrayRef<int64_t> shape)
      : fields(3 + 2 * shape.size()) {
    static_assert(sizeof(void *) == sizeof(int64_t));
    std::memcpy(&fields[0], &data, sizeof(void *));
    std::memcpy(&fields[1], &data, sizeof(void *));
    fields[2] = 0;
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      fields[3 + i] = shape[i];
      fields[3 + shape.size() + i] = stride;
      stride *= shape[i];
    }
  }
  void *get() { return fields.data(); }

private:
  std::vector<int64_t> fields;
};

} // namespace

llvm::Expected<std::vector<HostTensor>>
CompiledFunction::run(llvm::ArrayRef<HostTensor> arguments) {
  if (llvm::Error error = checkArguments(arguments))
    return std::move(error);
  std::vector<MemRefDescriptor> descriptors;
  descriptors.reserve(inputs.size() + outputs.size());
  for (const HostTensor &argument : arguments)
    descriptors.emplace_back(const_cast<uint8_t *>(argument.data.data()),
                             argument.shape);
  std::vector<HostTensor> results;
  results.reserve(outputs.size());
  for (const Binding &binding : outputs) {
    results.emplace_back(binding.kind, binding.shape);
    descriptors.emplace_back(results.back().data.data(), binding.shape);
  }
  std::vector<void *> pointers;
  for (MemRefDescriptor &descriptor : descriptors)
    pointers.push_back(descriptor.get());
  std::vector<void *> packed;
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  if (llvm::Error error = engine->invokePacked(entryName, packed))
    return std::move(error);
  return results;
}

} // namespace prec
