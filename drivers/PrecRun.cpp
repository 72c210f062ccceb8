//===- PrecRun.cpp - what prec-run does -----------------------------------===//

#include "drivers/PrecRun.h"

#include "support/Errors.h"

#include "passes/DissolveRegions.h"
#include "passes/PrecisionRules.h"
#include "support/NestingDepth.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <random>

using namespace mlir;

namespace prec {
namespace {

/// Whether prec-legalize has already run on the module.
bool isLegalized(ModuleOp module) {
  bool assigned = false;
  module.walk([&](Operation *op) {
    if (op->hasAttr(precision::PrecisionDialect::getAssignmentAttrName())) {
      assigned = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return assigned;
}

bool hasPrecisionRegions(ModuleOp module) {
  return module
      .walk([](precision::RegionOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

} // namespace

llvm::Expected<NamedTensors> loadBindings(llvm::StringRef path,
                                          llvm::ArrayRef<Binding> bindings,
                                          llvm::StringRef what) {
  if (path.ends_with(".npy")) {
    if (bindings.size() != 1)
      return makeError("'" + path + "' holds one array, but the function has " +
                       llvm::Twine(bindings.size()) + " " + what +
                       "s: use an .npz");
    llvm::Expected<HostTensor> tensor =
        readNpy(path, bindings[0].kind == ElementKind::BF16);
    if (!tensor)
      return tensor.takeError();
    return NamedTensors{{bindings[0].name, std::move(*tensor)}};
  }
  std::vector<std::string> bf16Names;
  for (const Binding &binding : bindings)
    if (binding.kind == ElementKind::BF16)
      bf16Names.push_back(binding.name);
  llvm::Expected<NamedTensors> loaded = readNpz(path, bf16Names);
  if (!loaded)
    return loaded.takeError();
  auto find = [&](llvm::StringRef name) {
    return llvm::find_if(
        *loaded, [&](const auto &entry) { return entry.first == name; });
  };
  for (const Binding &binding : bindings)
    if (find(binding.name) == loaded->end())
      return makeError("'" + path + "' has no " + what + " '" + binding.name +
                       "'");
  for (const auto &entry : *loaded)
    if (llvm::none_of(bindings, [&](const Binding &binding) {
          return binding.name == entry.first;
        }))
      return makeError("'" + path + "' has '" + entry.first +
                       "', which is not an " + what + " of the function");
  NamedTensors ordered;
  for (const Binding &binding : bindings)
    ordered.push_back(*find(binding.name));
  return ordered;
}

OwningOpRef<ModuleOp> loadModel(llvm::StringRef path, llvm::StringRef function,
                                MLIRContext &context, llvm::StringRef tool,
                                llvm::raw_ostream &err) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    err << tool << ": error: cannot read '" << path
        << "': " << buffer.getError().message() << "\n";
    return nullptr;
  }
  if (llvm::Error error = checkNestingDepth((*buffer)->getBuffer(), path)) {
    err << tool << ": error: " << llvm::toString(std::move(error)) << "\n";
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> model;
  {
    // Parse errors print as the compiler prints them: file:line:col.
    SourceMgrDiagnosticHandler handler(sourceMgr, &context, err);
    model = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }
  if (model && !model->lookupSymbol<func::FuncOp>(function)) {
    err << tool << ": error: '" << path << "' has no function @" << function
        << "\n";
    return nullptr;
  }
  return model;
}

void appendFunctionResults(Operation *op, ArrayRef<Value> values) {
  auto function = cast<func::FuncOp>(op);
  auto ret = cast<func::ReturnOp>(function.getBody().back().getTerminator());
  ret->insertOperands(ret->getNumOperands(), values);
  SmallVector<DictionaryAttr> resultAttrs;
  function.getAllResultAttrs(resultAttrs);
  resultAttrs.resize(ret.getNumOperands(),
                     DictionaryAttr::get(function.getContext()));
  function.setFunctionType(FunctionType::get(function.getContext(),
                                             function.getArgumentTypes(),
                                             ret.getOperandTypes()));
  function.setAllResultAttrs(resultAttrs);
}

llvm::Expected<std::unique_ptr<LegalizePipelineOptions>>
parsePolicy(llvm::StringRef policy) {
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  auto options = std::make_unique<LegalizePipelineOptions>();
  // A bad enumerated value is reported by the option parser itself, on
  // stderr; `error` then stays empty.
  if (failed(options->parseFromString(policy, errorStream)))
    return makeError("bad --policy '" + policy + "'" +
                     (error.empty() ? "" : ": " + error));
  return options;
}

llvm::Error applyPolicy(ModuleOp module, const LegalizePipelineOptions &options,
                        const LegalizeInputs &inputs,
                        llvm::raw_ostream *warnings, llvm::StringRef tool) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag.str() << "\n";
    } else if (diag.getSeverity() == DiagnosticSeverity::Warning && warnings) {
      // Warnings say the policy will overflow or fall back: the user needs
      // them next to the results.
      *warnings << tool << ": warning: " << diag.str() << "\n";
    }
    return success();
  });
  if (failed(runLegalizePipeline(module, options, inputs)))
    return makeError(llvm::StringRef(diagnostics).rtrim("\n"));
  return llvm::Error::success();
}

llvm::Error makeF32Reference(ModuleOp module, llvm::StringRef report,
                             llvm::StringRef target) {
  dissolveRegions(module);
  module.walk([](Operation *op) {
    op->removeAttr(precision::PrecisionDialect::getRequestAttrName());
  });
  precision::PolicyAttr policy = getPolicy(module);
  module->setAttr(precision::PrecisionDialect::getPolicyAttrName(),
                  precision::PolicyAttr::get(
                      module.getContext(), precision::TypingMode::Weak, {},
                      precision::ConstraintMode::None,
                      target.empty() ? policy.getTarget() : target));
  LegalizePipelineOptions options;
  options.report = report.str();
  return applyPolicy(module, options);
}

std::vector<llvm::StringRef> splitOutsideBrackets(llvm::StringRef text) {
  std::vector<llvm::StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[')
      ++depth;
    else if (text[i] == ']')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push_back(text.drop_front(start));
  return parts;
}

llvm::Expected<NamedTensors> makeInputs(const InputOptions &options,
                                        llvm::ArrayRef<Binding> bindings) {
  if (!options.loadInputs.empty() && !options.valRanges.empty())
    return makeError("--load-inputs and --val-range exclude each other");
  if (options.loadInputs.empty())
    return generateInputs(bindings, options.valRanges, options.seed);
  return loadBindings(options.loadInputs, bindings, "input");
}

llvm::Expected<NamedTensors>
generateInputs(llvm::ArrayRef<Binding> bindings,
               llvm::ArrayRef<std::string> valRanges, uint64_t seed) {
  llvm::StringMap<std::pair<double, double>> ranges;
  for (llvm::StringRef entry : valRanges) {
    size_t colon = entry.rfind(":[");
    double lo = 0, hi = 0;
    if (colon == llvm::StringRef::npos || colon == 0 || !entry.ends_with("]"))
      return makeError("--val-range '" + entry +
                       "' is not <input>:[<lo>,<hi>]");
    auto [loText, hiText] = entry.drop_front(colon + 2).drop_back().split(',');
    if (loText.trim().getAsDouble(lo) || hiText.trim().getAsDouble(hi) ||
        lo > hi)
      return makeError("--val-range '" + entry +
                       "' needs numbers with lo <= hi");
    llvm::StringRef name = entry.take_front(colon);
    if (llvm::none_of(bindings, [&](const Binding &binding) {
          return binding.name == name;
        }))
      return makeError("--val-range names '" + name +
                       "', which is not an input of the function");
    ranges[name] = {lo, hi};
  }
  std::mt19937_64 generator(seed);
  NamedTensors inputs;
  for (const Binding &binding : bindings) {
    auto [lo, hi] = ranges.lookup(binding.name);
    if (!ranges.count(binding.name))
      std::tie(lo, hi) = std::pair{0.0, 1.0};
    HostTensor tensor(binding.kind, binding.shape);
    std::uniform_real_distribution<double> real(lo, hi);
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
      double value = real(generator);
      // Integers: uniform over the integers of the range.
      if (!isFloatKind(binding.kind))
        value = std::floor(lo + (hi - lo + 1) * (value - lo) /
                                    std::max(hi - lo, 1e-300));
      tensor.setFromDouble(i, std::clamp(value, lo, hi));
    }
    inputs.emplace_back(binding.name, std::move(tensor));
  }
  return inputs;
}

llvm::Expected<std::vector<HostTensor>>
compileAndRun(OwningOpRef<ModuleOp> module, llvm::StringRef function,
              const NamedTensors &inputs, double *milliseconds) {
  llvm::Expected<std::unique_ptr<CompiledFunction>> compiled =
      CompiledFunction::compile(std::move(module), function);
  if (!compiled)
    return compiled.takeError();
  std::vector<HostTensor> arguments;
  for (const auto &entry : inputs)
    arguments.push_back(entry.second);
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<std::vector<HostTensor>> outputs = (*compiled)->run(arguments);
  if (milliseconds)
    *milliseconds = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  return outputs;
}

int runPrecRun(const PrecRunOptions &options, const DialectRegistry &registry,
               llvm::raw_ostream &out, llvm::raw_ostream &err) {
  auto fail = [&](llvm::Error error) {
    err << "prec-run: error: " << llvm::toString(std::move(error)) << "\n";
    return kBadInput;
  };

  llvm::Expected<OutputTolerances> tolerances =
      parseOutputTolerances(options.tolerances);
  if (!tolerances)
    return fail(tolerances.takeError());
  if (!options.reference.empty() && options.reference != "f32")
    return fail(
        makeError("--reference must be f32, not '" + options.reference + "'"));
  if (!options.reference.empty() && !options.compareWith.empty())
    return fail(makeError("--compare and --reference exclude each other"));

  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> model = loadModel(
      options.modelPath, options.functionName, context, "prec-run", err);
  if (!model)
    return kBadInput;

  // The model under test, and its f32 reference when asked for.
  bool legalized = isLegalized(*model);
  if (legalized && (options.policy || !options.reference.empty()))
    return fail(makeError(
        "'" + options.modelPath +
        "' is already legalized: --policy and --reference f32 need the model "
        "before prec-legalize"));
  OwningOpRef<ModuleOp> reference;
  if (!options.reference.empty()) {
    reference = model->clone();
    if (llvm::Error error = makeF32Reference(*reference))
      return fail(std::move(error));
  }
  if (options.policy || (!legalized && hasPrecisionRegions(*model))) {
    // The ranges of generated inputs are what range analysis should assume,
    // unless the policy says otherwise.
    llvm::Expected<std::unique_ptr<LegalizePipelineOptions>> policy =
        parsePolicy(options.policy.value_or(""));
    if (!policy)
      return fail(policy.takeError());
    if ((*policy)->valRanges.empty())
      (*policy)->valRanges = options.inputs.valRanges;
    if (llvm::Error error = applyPolicy(*model, **policy, {}, &err))
      return fail(std::move(error));
  }

  std::vector<Binding> inputBindings, outputBindings;
  if (llvm::Error error =
          readBindings(model->lookupSymbol<func::FuncOp>(options.functionName),
                       inputBindings, outputBindings))
    return fail(std::move(error));
  llvm::Expected<NamedTensors> inputs =
      makeInputs(options.inputs, inputBindings);
  if (!inputs)
    return fail(inputs.takeError());
  if (!options.saveInputs.empty())
    if (llvm::Error error = writeNpz(options.saveInputs, *inputs))
      return fail(std::move(error));

  double milliseconds = 0;
  llvm::Expected<std::vector<HostTensor>> outputs = compileAndRun(
      std::move(model), options.functionName, *inputs, &milliseconds);
  if (!outputs)
    return fail(outputs.takeError());
  out << "ran @" << options.functionName
      << " on the CPU: " << inputBindings.size() << " inputs, "
      << outputBindings.size() << " outputs, "
      << llvm::format("%.3f", milliseconds) << " ms\n";
  NamedTensors namedOutputs;
  for (auto [binding, tensor] : llvm::zip(outputBindings, *outputs))
    namedOutputs.emplace_back(binding.name, tensor);
  if (!options.saveOutputs.empty())
    if (llvm::Error error = writeNpz(options.saveOutputs, namedOutputs))
      return fail(std::move(error));

  NamedTensors expected;
  if (reference) {
    llvm::Expected<std::vector<HostTensor>> referenceOutputs =
        compileAndRun(std::move(reference), options.functionName, *inputs);
    if (!referenceOutputs)
      return fail(referenceOutputs.takeError());
    for (auto [binding, tensor] : llvm::zip(outputBindings, *referenceOutputs))
      expected.emplace_back(binding.name, tensor);
    out << "reference: the same model in f32\n";
  } else if (!options.compareWith.empty()) {
    llvm::Expected<NamedTensors> golden =
        loadBindings(options.compareWith, outputBindings, "output");
    if (!golden)
      return fail(golden.takeError());
    expected = std::move(*golden);
    out << "reference: " << options.compareWith << "\n";
  } else {
    return kPassed;
  }

  bool allPassed = true;
  for (auto [actual, golden] : llvm::zip(namedOutputs, expected)) {
    Tolerances perOutput = tolerances->forOutput(actual.first);
    ComparisonResult result =
        compareTensors(actual.second, golden.second, perOutput);
    printComparison(out, actual.first, result, perOutput);
    allPassed &= result.passed;
  }
  out << (allPassed ? "PASSED" : "FAILED") << "\n";
  return allPassed ? kPassed : kFailed;
}

} // namespace prec
