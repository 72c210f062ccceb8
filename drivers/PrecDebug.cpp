//===- PrecDebug.cpp - what prec-debug does -------------------------------===//

#include "drivers/PrecDebug.h"

#include "drivers/PrecRun.h"
#include "drivers/PrecisionSearch.h"
#include "drivers/SwitchablePrecision.h"
#include "runtime/Compare.h"
#include "support/Errors.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/OpNames.h"
#include "passes/DissolveRegions.h"
#include "passes/PrecisionRules.h"
#include "passes/ReportGraph.h"

#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>

using namespace mlir;

namespace prec {
namespace {

/// The ops of one layer name, searched together.
struct Unit {
  std::string name;
  std::vector<Operation *> ops; // program order
  /// The accumulate and storage types a precision.region around the unit
  /// asks with the low precision; null where prec chooses them.
  Type lowAccumulate, lowOutput;
};

/// Whether prec-debug may move `op` between precisions: ops of a class
/// prec assigns precisions to (not casts, constants or precision structure,
/// which are of class `other`) that compute on floats; for a quantized low
/// precision, only what prec-quantize can quantize.
bool isEligible(Operation *op, bool quantizedLow) {
  OpClass opClass = classifyOp(op);
  if (opClass == OpClass::Cast || opClass == OpClass::Other)
    return false;
  // Only what prec-quantize builds runs in i8 or f8 (not a depthwise
  // convolution).
  if (quantizedLow && !isQuantizable(op))
    return false;
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    return isa<FloatType>(getElementTypeOrSelf(type));
  });
}

/// The eligible ops of `function` grouped by layer name, in program order;
/// `unnamed` counts the eligible ops without a name (not searched).
std::vector<Unit> collectUnits(func::FuncOp function, bool quantizedLow,
                               Type lowType, int &unnamed) {
  std::vector<Unit> units;
  llvm::StringMap<size_t> index;
  unnamed = 0;
  function.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isEligible(op, quantizedLow))
      return;
    std::string name = getLayerName(op).str();
    if (name.empty()) {
      ++unnamed;
      return;
    }
    auto [it, inserted] = index.try_emplace(name, units.size());
    if (inserted) {
      units.push_back({name, {}, {}, {}});
      auto region = op->getParentOfType<precision::RegionOp>();
      if (region && region.getPrecision() == lowType) {
        units.back().lowAccumulate = region.getAccumulate().value_or(Type());
        units.back().lowOutput = region.getOutput().value_or(Type());
      }
    }
    units[it->second].ops.push_back(op);
  });
  return units;
}

/// A layer name as a plan's glob that matches only it.
std::string escapeGlob(llvm::StringRef name) {
  std::string escaped;
  for (char c : name) {
    if (llvm::StringRef("*?[]{}\\").contains(c))
      escaped += '\\';
    escaped += c;
  }
  return escaped;
}

/// The precision plan (formats/PlanFile.h) running the marked units at
/// `high` and the others at `low`.
PrecisionPlan makePlan(const std::vector<Unit> &units,
                       const std::vector<bool> &marked, Type low, Type high,
                       bool quantizedLow, precision::ConstraintMode mode) {
  PrecisionPlan plan;
  for (size_t i = 0; i < units.size(); ++i) {
    Type type = marked[i] ? high : low;
    PlanOpEntry entry;
    // An escaped name is a valid pattern.
    entry.name = llvm::cantFail(NamePattern::create(escapeGlob(units[i].name)));
    entry.request.compute = type;
    if (marked[i]) {
      entry.request.accumulate = entry.request.output = type;
    } else if (!quantizedLow) {
      // The accumulator the model asks, or prec's choice (f16 and bf16
      // contractions accumulate in f32), as an engine built at the low
      // precision runs; stored low, as a TensorRT layer at that precision
      // (not wide where its consumers run high: a unit's storage then
      // depends on no neighbour).
      entry.request.accumulate = units[i].lowAccumulate;
      entry.request.output = units[i].lowOutput ? units[i].lowOutput : type;
    }
    entry.request.mode = mode;
    plan.ops.push_back(std::move(entry));
  }
  return plan;
}

/// Largest |a - b| relative to the largest |b|; infinite where `actual`
/// is not finite but `expected` is.
double normalizedError(const HostTensor &actual, const HostTensor &expected) {
  double scale = 0, error = 0;
  for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i) {
    double a = actual.getAsDouble(i), b = expected.getAsDouble(i);
    if (!std::isfinite(a) && std::isfinite(b))
      return INFINITY;
    if (std::isfinite(a) && std::isfinite(b)) {
      error = std::max(error, std::abs(a - b));
      scale = std::max(scale, std::abs(b));
    }
  }
  return scale == 0 ? error : error / scale;
}

/// The range of a tensor's finite values.
std::pair<double, double> rangeOf(const HostTensor &tensor) {
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    double value = tensor.getAsDouble(i);
    if (!std::isfinite(value))
      continue;
    lo = std::min(lo, value);
    hi = std::max(hi, value);
  }
  return {lo, hi};
}

std::string describeUnit(const Unit &unit) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Operation *op = unit.ops.front();
  os << unit.name << " (" << op->getName();
  if (unit.ops.size() > 1)
    os << " and " << unit.ops.size() - 1 << " more";
  os << ") at " << op->getLoc();
  return text;
}

/// An error unless the switched program's `switched` outputs (run `how`)
/// equal `expected` (from `what`) bit for bit.
llvm::Error checkEqual(llvm::ArrayRef<HostTensor> switched,
                       llvm::ArrayRef<HostTensor> expected,
                       const std::string &how, llvm::StringRef what) {
  for (auto [index, pair] : llvm::enumerate(llvm::zip(switched, expected))) {
    auto [actual, wanted] = pair;
    if (actual.data != wanted.data)
      return makeError("the compile-once program " + how + " differs from " +
                       what.str() + " in output " + std::to_string(index));
  }
  return llvm::Error::success();
}

struct InstrumentedModel;

class Debugger {
public:
  Debugger(const PrecDebugOptions &options, ModuleOp model,
           llvm::raw_ostream &out)
      : options(options), model(model), out(out) {}

  llvm::Error prepare();
  /// Builds the switched program when the precisions allow it.
  llvm::Error prepareSwitchable();
  /// Without --golden, the f32 reference's outputs, which evaluations are
  /// compared with.
  llvm::Error prepareReference();
  llvm::Expected<Evaluation> evaluate(llvm::ArrayRef<int> marked);
  /// The model legalized with `marked` in the high precision.
  llvm::Expected<OwningOpRef<ModuleOp>>
  legalizedWith(llvm::ArrayRef<int> marked) const;
  /// The options and the calibration every evaluation legalizes with.
  llvm::Error prepareLegalizeOptions();
  /// The error each unit introduces at the low precision on exact inputs;
  /// `runs` receives the number of programs run to measure it.
  llvm::Expected<std::vector<double>> measureIntroducedErrors(int &runs);
  /// Prints the first unit whose output is Inf or NaN when every unit runs
  /// at the low precision, with the ranges of what it reads.
  llvm::Error reportFirstNonfinite();
  /// Each unit's output when every unit runs low; none where the switched
  /// program has none.
  llvm::Expected<std::vector<std::optional<HostTensor>>> unitOutputsAllLow();
  PrecisionPlan planFor(llvm::ArrayRef<int> marked) const;
  /// Every unit's index, in order.
  std::vector<int> allUnits() const {
    std::vector<int> all(units.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  /// The prec-legalize options that reproduce a plan written to `planPath`.
  std::string reproducingPolicy(llvm::StringRef planPath) const;

  const std::vector<Unit> &getUnits() const { return units; }
  int getUnnamed() const { return unnamed; }
  /// Whether evaluations run the switched program, compiled once.
  bool compilesOnce() const { return switchable != nullptr; }
  int getVerifiedRuns() const { return verifiedRuns; }

private:
  InstrumentedModel instrument();
  llvm::Expected<std::vector<HostTensor>>
  runWithPlan(OwningOpRef<ModuleOp> module, PrecisionPlan plan);
  /// Legalizes `module` with `plan` and the search's policy.
  llvm::Error legalize(ModuleOp module, PrecisionPlan plan) const;
  PrecisionPlan makePlanFor(const std::vector<Unit> &units,
                            const std::vector<bool> &marked) const;
  llvm::Expected<std::vector<HostTensor>> run(llvm::ArrayRef<int> marked);
  /// The model compiled and run in f32 (makeF32Reference).
  llvm::Expected<std::vector<HostTensor>> runF32Reference();

  const PrecDebugOptions &options;
  ModuleOp model;
  llvm::raw_ostream &out;
  func::FuncOp function;
  std::vector<Unit> units;
  int unnamed = 0;
  bool quantizedLow = false;
  Type lowType, highType;
  LegalizePipelineOptions legalizeOptions;
  std::shared_ptr<const CalibrationFile> calibration;
  OutputTolerances tolerances;
  std::vector<Binding> inputBindings, outputBindings;
  NamedTensors inputs, golden;
  std::unique_ptr<SwitchableProgram> switchable;
  int verifiedRuns = 0;
};

PrecisionPlan Debugger::makePlanFor(const std::vector<Unit> &units,
                                    const std::vector<bool> &marked) const {
  return makePlan(units, marked, lowType, highType, quantizedLow,
                  options.constraints);
}

PrecisionPlan Debugger::planFor(llvm::ArrayRef<int> marked) const {
  std::vector<bool> isMarked(units.size(), false);
  for (int unit : marked)
    isMarked[unit] = true;
  return makePlanFor(units, isMarked);
}

std::string Debugger::reproducingPolicy(llvm::StringRef planPath) const {
  std::string text =
      "enabled=" + llvm::join(options.enabled, ",") + " constraints=" +
      precision::stringifyConstraintMode(options.constraints).str() +
      " plan=" + planPath.str();
  if (!legalizeOptions.target.empty())
    text += " target=" + legalizeOptions.target;
  if (!options.calibration.empty())
    text += " calibration=" + options.calibration;
  return text;
}

llvm::Error Debugger::prepare() {
  function = model.lookupSymbol<func::FuncOp>(options.functionName);
  Type low = precision::parsePrecisionType(model.getContext(),
                                           options.enabled.front());
  Type high =
      precision::parsePrecisionType(model.getContext(), options.precision);
  if (!low)
    return makeError("--enabled names unknown precision '" +
                     options.enabled.front() + "' (" +
                     precision::getPrecisionTypeSpellings() + ")");
  if (!high || precision::isQuantizedPrecision(high))
    return makeError("--precision must be f32, f16 or bf16, not '" +
                     options.precision + "'");
  if (low == high)
    return makeError("--precision " + options.precision +
                     " is the low precision too: nothing to move to");
  quantizedLow = precision::isQuantizedPrecision(low);
  lowType = low;
  highType = high;
  if (llvm::Error error = prepareLegalizeOptions())
    return error;
  units = collectUnits(function, quantizedLow, lowType, unnamed);

  llvm::Expected<OutputTolerances> parsed =
      parseOutputTolerances(options.tolerances);
  if (!parsed)
    return parsed.takeError();
  tolerances = *parsed;
  if (llvm::Error error = readBindings(function, inputBindings, outputBindings))
    return error;
  llvm::Expected<NamedTensors> loaded =
      makeInputs(options.inputs, inputBindings);
  if (!loaded)
    return loaded.takeError();
  inputs = std::move(*loaded);

  if (options.golden.empty())
    return llvm::Error::success();
  llvm::Expected<NamedTensors> expected =
      loadBindings(options.golden, outputBindings, "output");
  if (!expected)
    return expected.takeError();
  golden = std::move(*expected);
  return llvm::Error::success();
}

llvm::Error Debugger::prepareReference() {
  if (!options.golden.empty())
    return llvm::Error::success();
  // With every unit at f32 the switched program computes the f32 reference:
  // no compile of its own.
  llvm::Expected<std::vector<HostTensor>> outputs =
      switchable ? switchable->run(inputs, allUnits()) : runF32Reference();
  if (!outputs)
    return outputs.takeError();
  if (switchable && options.verifyCompileOnce) {
    llvm::Expected<std::vector<HostTensor>> reference = runF32Reference();
    if (!reference)
      return reference.takeError();
    if (llvm::Error error =
            checkEqual(*outputs, *reference, "with every unit at f32",
                       "the f32 reference"))
      return error;
  }
  for (auto [binding, tensor] : llvm::zip(outputBindings, *outputs))
    golden.emplace_back(binding.name, tensor);
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> Debugger::runF32Reference() {
  OwningOpRef<ModuleOp> reference = model.clone();
  if (llvm::Error error = makeF32Reference(*reference))
    return std::move(error);
  return compileAndRun(std::move(reference), options.functionName, inputs);
}

llvm::Error Debugger::prepareSwitchable() {
  bool onGpu = options.device.device == Device::Gpu;
  if (onGpu && !highType.isF32())
    return makeError("--device gpu switches layers between the low "
                     "precision and f32: not with --precision " +
                     options.precision);
  if (!options.compileOnce || !highType.isF32())
    return llvm::Error::success();
  llvm::StringMap<int> unitOf;
  for (auto [index, unit] : llvm::enumerate(units))
    unitOf[unit.name] = index;
  // Every float op of a searched layer switches with it: a plan pins the
  // whole layer (a Gemm's bias add runs f16 when it cannot run i8), and a
  // quantized contraction, accumulating in i32, is searched all the same.
  auto isSearched = [&](Operation *op) {
    return isEligible(op, false) || (quantizedLow && isQuantizable(op));
  };
  // Worst-first's shadows and --first-nonfinite read the units' outputs.
  bool probes =
      options.mode == SearchMode::WorstFirst || options.firstNonfinite;
  llvm::Expected<std::unique_ptr<SwitchableProgram>> program =
      SwitchableProgram::create(
          [&](llvm::ArrayRef<int> high) { return legalizedWith(high); },
          options.functionName, isSearched, unitOf, units.size(), probes,
          [&](OwningOpRef<ModuleOp> module, llvm::StringRef function) {
            return compileForDevice(options.device, std::move(module),
                                    function);
          });
  if (!program && onGpu)
    return makeError("cannot build the switched engine: " +
                     llvm::toString(program.takeError()));
  if (!program) {
    // Not every model's legalizations correspond op for op: compile per
    // plan, as before.
    out << "compiling every plan: " << llvm::toString(program.takeError())
        << "\n";
    return llvm::Error::success();
  }
  switchable = std::move(*program);
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
Debugger::run(llvm::ArrayRef<int> marked) {
  if (!switchable)
    return runWithPlan(model.clone(), planFor(marked));
  llvm::Expected<std::vector<HostTensor>> outputs =
      switchable->run(inputs, marked);
  if (!outputs || !options.verifyCompileOnce)
    return outputs;
  llvm::Expected<std::vector<HostTensor>> compiled =
      runWithPlan(model.clone(), planFor(marked));
  if (!compiled)
    return compiled.takeError();
  if (llvm::Error error =
          checkEqual(*outputs, *compiled,
                     "with " + std::to_string(marked.size()) + " units marked",
                     "compiling the plan"))
    return error;
  ++verifiedRuns;
  return outputs;
}

llvm::Expected<Evaluation> Debugger::evaluate(llvm::ArrayRef<int> marked) {
  llvm::Expected<std::vector<HostTensor>> outputs = run(marked);
  if (!outputs)
    return outputs.takeError();
  Evaluation evaluation{true, 0.0};
  for (auto [actual, expected] : llvm::zip(*outputs, golden)) {
    Tolerances perOutput = tolerances.forOutput(expected.first);
    ComparisonResult result =
        compareTensors(actual, expected.second, perOutput);
    evaluation.passed &= result.passed;
    double error = perOutput.stat == ErrorStat::Elemwise
                       ? result.maxAbsolute
                       : result.checkedAbsolute;
    if (std::isnan(error) || result.actualNaNs || result.actualInfs)
      error = INFINITY;
    evaluation.error = std::max(evaluation.error, error);
  }
  return evaluation;
}

/// The model with its regions inlined (values inside regions cannot be
/// returned; the plan pins every unit either way), and its units.
struct InstrumentedModel {
  OwningOpRef<ModuleOp> module;
  func::FuncOp function;
  std::vector<Unit> units;
  size_t firstExtra = 0; // the first appended result
};

Value getUnitOutput(const Unit &unit) {
  return getLayerOutput(unit.ops.back());
}

llvm::Error Debugger::prepareLegalizeOptions() {
  legalizeOptions.enabled = options.enabled;
  legalizeOptions.constraints = getConstraintsChoice(options.constraints);
  legalizeOptions.target = options.target;
  if (options.device.device == Device::Gpu) {
    llvm::Expected<std::string> target =
        chooseEngineTarget(model, options.target);
    if (!target)
      return target.takeError();
    legalizeOptions.target = *target;
  }
  legalizeOptions.calibration = options.calibration;
  if (options.calibration.empty())
    return llvm::Error::success();
  llvm::Expected<CalibrationFile> loaded =
      loadCalibrationFile(options.calibration);
  if (!loaded)
    return loaded.takeError();
  calibration = std::make_shared<const CalibrationFile>(std::move(*loaded));
  return llvm::Error::success();
}

llvm::Error Debugger::legalize(ModuleOp module, PrecisionPlan plan) const {
  LegalizeInputs given{std::make_shared<const PrecisionPlan>(std::move(plan)),
                       calibration};
  // The starting point is expected to overflow: no warnings per run.
  return applyPolicy(module, legalizeOptions, given, /*warnings=*/nullptr);
}

llvm::Expected<std::vector<HostTensor>>
Debugger::runWithPlan(OwningOpRef<ModuleOp> module, PrecisionPlan plan) {
  if (llvm::Error error = legalize(*module, std::move(plan)))
    return std::move(error);
  return compileAndRun(std::move(module), options.functionName, inputs);
}

llvm::Expected<OwningOpRef<ModuleOp>>
Debugger::legalizedWith(llvm::ArrayRef<int> marked) const {
  OwningOpRef<ModuleOp> module = ModuleOp(model).clone();
  if (llvm::Error error = legalize(*module, planFor(marked)))
    return std::move(error);
  return module;
}

InstrumentedModel Debugger::instrument() {
  InstrumentedModel instrumented;
  instrumented.module = model.clone();
  dissolveRegions(*instrumented.module);
  instrumented.function =
      instrumented.module->lookupSymbol<func::FuncOp>(options.functionName);
  int ignored = 0;
  instrumented.units =
      collectUnits(instrumented.function, quantizedLow, lowType, ignored);
  // Without regions now: the types they asked come from the model's units.
  for (auto [unit, original] : llvm::zip(instrumented.units, units)) {
    unit.lowAccumulate = original.lowAccumulate;
    unit.lowOutput = original.lowOutput;
  }
  instrumented.firstExtra = instrumented.function.getNumResults();
  return instrumented;
}

llvm::Expected<std::vector<double>>
Debugger::measureIntroducedErrors(int &runs) {
  std::vector<double> introduced(units.size());
  if (switchable) {
    // Every unit high: each twin reads exact inputs.
    llvm::Expected<ProbedRun> probed =
        switchable->runProbed(inputs, allUnits());
    if (!probed)
      return probed.takeError();
    runs = 1;
    for (auto [index, unit] : llvm::enumerate(switchable->getProbedUnits()))
      introduced[unit] = normalizedError(probed->lowOutputs[index],
                                         probed->unitOutputs[index]);
    return introduced;
  }
  // Side by side: every unit in the high precision, and after each unit of
  // a chunk a shadow copy of it at the low precision reading the same
  // (high-precision) inputs. Each shadow's output against its unit's is the
  // error that unit alone introduces. A chunk at a time: a program's
  // compile time grows faster than its number of results.
  constexpr size_t kUnitsPerRun = 32;
  runs = 0;
  for (size_t begin = 0; begin < units.size(); begin += kUnitsPerRun) {
    size_t end = std::min(units.size(), begin + kUnitsPerRun);
    InstrumentedModel instrumented = instrument();
    MLIRContext *context = model.getContext();
    SmallVector<Value> outputs, shadows;
    std::vector<Unit> both(instrumented.units);
    for (size_t index = begin; index < end; ++index) {
      const Unit &unit = instrumented.units[index];
      IRMapping mapping;
      OpBuilder builder(context);
      builder.setInsertionPointAfter(unit.ops.back());
      Unit shadow{
          unit.name + " (shadow)", {}, unit.lowAccumulate, unit.lowOutput};
      for (Operation *op : unit.ops) {
        Operation *copy = builder.clone(*op, mapping);
        copy->setAttr(precision::PrecisionDialect::getLayerAttrName(),
                      StringAttr::get(context, shadow.name));
        shadow.ops.push_back(copy);
      }
      outputs.push_back(getUnitOutput(unit));
      shadows.push_back(mapping.lookup(getUnitOutput(unit)));
      both.push_back(std::move(shadow));
    }
    SmallVector<Value> returned(outputs);
    returned.append(shadows);
    appendFunctionResults(instrumented.function, returned);
    std::vector<bool> high(both.size(), false);
    std::fill(high.begin(), high.begin() + instrumented.units.size(), true);
    llvm::Expected<std::vector<HostTensor>> results =
        runWithPlan(std::move(instrumented.module), makePlanFor(both, high));
    if (!results)
      return results.takeError();
    ++runs;
    size_t count = outputs.size(), first = instrumented.firstExtra;
    for (size_t i = 0; i < count; ++i)
      introduced[begin + i] =
          normalizedError((*results)[first + count + i], (*results)[first + i]);
  }
  return introduced;
}

/// What each unit reads: the model's inputs and the other units, by index.
struct UnitReads {
  std::vector<llvm::SetVector<unsigned>> inputs;
  std::vector<llvm::SetVector<int>> units;
};

UnitReads collectReads(const std::vector<Unit> &units) {
  llvm::DenseMap<Operation *, int> unitOf;
  for (auto [index, unit] : llvm::enumerate(units))
    for (Operation *op : unit.ops)
      unitOf[op] = index;
  UnitReads reads{std::vector<llvm::SetVector<unsigned>>(units.size()),
                  std::vector<llvm::SetVector<int>>(units.size())};
  for (auto [index, unit] : llvm::enumerate(units))
    for (Operation *op : unit.ops)
      for (Value operand : op->getOperands()) {
        if (auto argument = dyn_cast<BlockArgument>(operand))
          reads.inputs[index].insert(argument.getArgNumber());
        else if (auto producer = unitOf.find(operand.getDefiningOp());
                 producer != unitOf.end() && producer->second != int(index))
          reads.units[index].insert(producer->second);
      }
  return reads;
}

llvm::Expected<std::vector<std::optional<HostTensor>>>
Debugger::unitOutputsAllLow() {
  std::vector<std::optional<HostTensor>> outputs(units.size());
  if (switchable) {
    llvm::Expected<ProbedRun> probed = switchable->runProbed(inputs, {});
    if (!probed)
      return probed.takeError();
    for (auto [index, unit] : llvm::enumerate(switchable->getProbedUnits()))
      outputs[unit] = std::move(probed->unitOutputs[index]);
    return outputs;
  }
  InstrumentedModel instrumented = instrument();
  SmallVector<Value> values;
  for (const Unit &unit : instrumented.units)
    values.push_back(getUnitOutput(unit));
  appendFunctionResults(instrumented.function, values);
  size_t first = instrumented.firstExtra;
  llvm::Expected<std::vector<HostTensor>> low =
      runWithPlan(std::move(instrumented.module), planFor({}));
  if (!low)
    return low.takeError();
  for (size_t unit = 0; unit < units.size(); ++unit)
    outputs[unit] = std::move((*low)[first + unit]);
  return outputs;
}

llvm::Error Debugger::reportFirstNonfinite() {
  llvm::Expected<std::vector<std::optional<HostTensor>>> low =
      unitOutputsAllLow();
  if (!low)
    return low.takeError();
  // On the model with its regions inlined, as the units' outputs.
  UnitReads reads = collectReads(instrument().units);
  auto printRange = [&](llvm::StringRef what, const HostTensor &tensor) {
    auto [lo, hi] = rangeOf(tensor);
    out << "  it reads " << what << " in [" << llvm::format("%g", lo) << ", "
        << llvm::format("%g", hi) << "]\n";
  };
  for (size_t index = 0; index < units.size(); ++index) {
    if (!(*low)[index])
      continue;
    const HostTensor &value = *(*low)[index];
    int64_t nonfinite = 0;
    for (int64_t i = 0, e = value.getNumElements(); i < e; ++i)
      nonfinite += !std::isfinite(value.getAsDouble(i));
    if (!nonfinite)
      continue;
    auto [lo, hi] = rangeOf(value);
    out << "first non-finite output at " << options.enabled.front() << ": "
        << describeUnit(units[index]) << ": " << nonfinite << " of "
        << value.getNumElements() << " values Inf or NaN, the others in ["
        << llvm::format("%g", lo) << ", " << llvm::format("%g", hi) << "]\n";
    for (unsigned input : reads.inputs[index])
      printRange("input '" + inputs[input].first + "'", inputs[input].second);
    for (int producer : reads.units[index])
      if ((*low)[producer])
        printRange("'" + units[producer].name + "'", *(*low)[producer]);
    return llvm::Error::success();
  }
  out << "no op's output is Inf or NaN at " << options.enabled.front() << "\n";
  return llvm::Error::success();
}

/// The options' conflicts, before any model is read.
llvm::Error checkOptions(const PrecDebugOptions &options) {
  if (options.enabled.empty())
    return makeError("--enabled needs the low precision");
  if (!options.golden.empty() && !options.reference.empty())
    return makeError("--golden and --reference exclude each other");
  if (!options.reference.empty() && options.reference != "f32")
    return makeError("--reference must be f32, not '" + options.reference +
                     "'");
  if (llvm::Error error = checkDeviceOptions(options.device))
    return error;
  if (options.device.device == Device::Gpu && !options.compileOnce)
    return makeError("--device gpu evaluates through one engine with "
                     "per-layer switches: not with --compile-once=false");
  if (options.device.device == Device::Gpu && options.verifyCompileOnce)
    return makeError("--verify-compile-once compares with plans compiled for "
                     "the CPU, bit for bit: not with --device gpu");
  // Before the search, not after it.
  if (!options.reportGraph.empty())
    if (llvm::Expected<std::optional<std::string>> renderer =
            findReportGraphRenderer(options.reportGraph);
        !renderer)
      return renderer.takeError();
  return llvm::Error::success();
}

void printSearchHeader(const PrecDebugOptions &options,
                       const Debugger &debugger, llvm::raw_ostream &out) {
  out << "searching " << debugger.getUnits().size()
      << " ops (by layer name) with " << getSearchModeName(options.mode)
      << (options.mode == SearchMode::Bisect ||
                  options.mode == SearchMode::Linear
              ? " " + getSearchDirectionName(options.direction).str()
              : "")
      << ": unmarked at " << options.enabled.front() << ", marked at "
      << options.precision << "\n";
  if (debugger.getUnnamed())
    out << "(" << debugger.getUnnamed()
        << " eligible ops have no name and stay at " << options.enabled.front()
        << ")\n";
}

/// The eight ops that introduce the largest errors, worst first.
void printWorstIntroduced(const std::vector<Unit> &units,
                          const std::vector<double> &introduced,
                          llvm::raw_ostream &out) {
  std::vector<int> order(units.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(
      order, [&](int a, int b) { return introduced[a] > introduced[b]; });
  out << "error each op introduces on exact inputs (relative to its "
         "output's largest magnitude), worst first:\n";
  for (int unit : llvm::ArrayRef<int>(order).take_front(8))
    out << "  " << units[unit].name << ": "
        << llvm::format("%g", introduced[unit]) << "\n";
}

/// Prints each step of the search: what it marked, its error, its verdict.
std::function<void(const SearchStep &)>
stepPrinter(const std::vector<Unit> &units, llvm::raw_ostream &out) {
  auto names = [&units](llvm::ArrayRef<int> marked) {
    std::vector<std::string> listed;
    for (int unit : marked.take_front(6))
      listed.push_back(units[unit].name);
    std::string text = llvm::join(listed, ", ");
    if (marked.size() > 6)
      text += ", ... (" + std::to_string(marked.size() - 6) + " more)";
    return text;
  };
  return [names, &out, step = 0](const SearchStep &searchStep) mutable {
    out << "step " << ++step << ": " << searchStep.marked.size() << " marked"
        << (searchStep.marked.empty() ? "" : " [") << names(searchStep.marked)
        << (searchStep.marked.empty() ? "" : "]") << ", error "
        << llvm::format("%g", searchStep.evaluation.error) << ": "
        << (searchStep.evaluation.passed ? "PASS" : "FAIL") << "\n";
  };
}

/// Prints the ops the search kept and writes the plan: 0, or 1 where no
/// marking passes.
llvm::Expected<int> reportResult(const PrecDebugOptions &options,
                                 const Debugger &debugger,
                                 const SearchResult &result,
                                 llvm::raw_ostream &out) {
  if (!result.fixable) {
    out << "no marking passes: even with every op at " << options.precision
        << " the error is " << llvm::format("%g", result.evaluation.error)
        << "\n";
    return 1;
  }
  if (result.marked.empty())
    out << "nothing needs marking: the model passes with every op at "
        << options.enabled.front() << "\n";
  else
    out << "keep in " << options.precision << ": " << result.marked.size()
        << " ops\n";
  for (int unit : result.marked)
    out << "  " << describeUnit(debugger.getUnits()[unit]) << "\n";
  out << "final error " << llvm::format("%g", result.evaluation.error)
      << ": PASS\n";
  if (options.plan.empty())
    return 0;
  std::error_code error;
  llvm::raw_fd_ostream plan(options.plan, error);
  if (error)
    return makeError("cannot write '" + options.plan + "': " + error.message());
  plan << serializePlan(debugger.planFor(result.marked));
  out << "wrote " << options.plan << ": prec-legalize=\""
      << debugger.reproducingPolicy(options.plan) << "\" reproduces it\n";
  return 0;
}

PrecDebugSummary summarize(const Debugger &debugger, const SearchResult &result,
                           const std::vector<double> &introduced,
                           bool measured) {
  const std::vector<Unit> &units = debugger.getUnits();
  PrecDebugSummary summary;
  summary.fixable = result.fixable;
  summary.error = result.evaluation.error;
  summary.evaluations = result.evaluations;
  for (int unit : result.marked) {
    summary.keptLayers.push_back(units[unit].name);
    summary.keptOps.push_back(
        units[unit].ops.front()->getName().getStringRef().str());
  }
  if (result.fixable)
    summary.plan = serializePlan(debugger.planFor(result.marked));
  if (measured)
    for (auto [unit, error] : llvm::zip(units, introduced))
      summary.introduced.emplace_back(unit.name, error);
  return summary;
}

/// Draws the model legalized with the result, each layer filled by the
/// error it introduces where `introduced` measured it.
llvm::Error drawResult(const PrecDebugOptions &options,
                       const Debugger &debugger, const SearchResult &result,
                       const std::vector<double> &introduced,
                       llvm::raw_ostream &out) {
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      debugger.legalizedWith(result.marked);
  if (!module)
    return module.takeError();
  const std::vector<Unit> &units = debugger.getUnits();
  ReportGraphOverlay overlay;
  for (size_t unit = 0; unit < introduced.size(); ++unit)
    overlay.errors[units[unit].name] = introduced[unit];
  for (int unit : result.marked)
    overlay.kept.insert(units[unit].name);
  std::string diagnostics;
  ScopedDiagnosticHandler handler((*module)->getContext(),
                                  [&](Diagnostic &diagnostic) {
                                    diagnostics += diagnostic.str();
                                    return success();
                                  });
  if (failed(writeReportGraph(**module, options.reportGraph, overlay)))
    return makeError(diagnostics);
  out << "drew " << options.reportGraph << "\n";
  return llvm::Error::success();
}

} // namespace

int runPrecDebug(const PrecDebugOptions &options,
                 const DialectRegistry &registry, llvm::raw_ostream &out,
                 llvm::raw_ostream &err, PrecDebugSummary *summary) {
  auto fail = [&](llvm::Error error) {
    err << "prec-debug: error: " << llvm::toString(std::move(error)) << "\n";
    return 2;
  };
  if (llvm::Error error = checkOptions(options))
    return fail(std::move(error));

  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> model = loadModel(
      options.modelPath, options.functionName, context, "prec-debug", err);
  if (!model)
    return 2;
  Debugger debugger(options, *model, out);
  if (llvm::Error error = debugger.prepare())
    return fail(std::move(error));
  auto building = std::chrono::steady_clock::now();
  if (llvm::Error error = debugger.prepareSwitchable())
    return fail(std::move(error));
  double buildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - building)
          .count();
  if (llvm::Error error = debugger.prepareReference())
    return fail(std::move(error));
  const std::vector<Unit> &units = debugger.getUnits();
  printSearchHeader(options, debugger, out);

  auto start = std::chrono::steady_clock::now();
  std::vector<double> introduced(units.size(), 0.0);
  int measuringRuns = 0;
  if (options.firstNonfinite) {
    if (llvm::Error error = debugger.reportFirstNonfinite())
      return fail(std::move(error));
    ++measuringRuns;
  }
  if (options.mode == SearchMode::WorstFirst) {
    int runs = 0;
    llvm::Expected<std::vector<double>> measured =
        debugger.measureIntroducedErrors(runs);
    if (!measured)
      return fail(measured.takeError());
    introduced = std::move(*measured);
    measuringRuns += runs;
    printWorstIntroduced(units, introduced, out);
  }

  llvm::Expected<SearchResult> result = searchPrecision(
      options.mode, options.direction, units.size(), introduced,
      [&](llvm::ArrayRef<int> marked) { return debugger.evaluate(marked); },
      stepPrinter(units, out));
  if (!result)
    return fail(result.takeError());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  out << "evaluations: " << result->evaluations + measuringRuns << " ("
      << result->evaluations << " searching, " << measuringRuns
      << " measuring) in " << llvm::format("%.2f", seconds) << " s, "
      << (!debugger.compilesOnce() ? "compiled per plan"
          : options.device.device == Device::Gpu
              ? "compiled once, a CUDA engine"
              : "compiled once");
  if (debugger.compilesOnce())
    out << " (in " << llvm::format("%.1f", buildSeconds) << " s)";
  out << "\n";
  if (options.verifyCompileOnce && debugger.compilesOnce()) {
    out << "compile-once runs equal to compiling their plans: "
        << debugger.getVerifiedRuns() << "\n";
    if (options.golden.empty())
      out << "the f32 reference, run compiled once, equal to compiling it\n";
  }
  llvm::Expected<int> status = reportResult(options, debugger, *result, out);
  if (!status)
    return fail(status.takeError());
  if (summary) {
    *summary = summarize(debugger, *result, introduced,
                         options.mode == SearchMode::WorstFirst);
    summary->evaluations += measuringRuns;
  }
  if (!options.reportGraph.empty() && !result->fixable)
    out << "nothing drawn: no marking passes\n";
  if (!options.reportGraph.empty() && result->fixable)
    if (llvm::Error error = drawResult(options, debugger, *result,
                                       options.mode == SearchMode::WorstFirst
                                           ? introduced
                                           : std::vector<double>(),
                                       out))
      return fail(std::move(error));
  return *status;
}

} // namespace prec
