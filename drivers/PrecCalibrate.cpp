//===- PrecCalibrate.cpp - what prec-calibrate does -----------------------===//

#include "drivers/PrecCalibrate.h"

#include "drivers/CalibrationData.h"
#include "drivers/PrecRun.h"
#include "formats/TrtCache.h"
#include "runtime/Calibrators.h"
#include "support/Errors.h"

#include "passes/Calibration.h"
#include "passes/DissolveRegions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;

namespace prec {
namespace {

/// The f32 model with the calibrated tensors, then the observed ones,
/// appended to its results.
struct InstrumentedModel {
  std::unique_ptr<ModelFunction> function;
  std::vector<std::string> tensorNames;
  std::vector<std::string> observedNames;
  size_t firstCalibrated = 0; // index of the first appended result
};

llvm::Expected<InstrumentedModel> instrument(ModuleOp model,
                                             llvm::StringRef functionName,
                                             const DeviceOptions &device,
                                             llvm::StringRef target) {
  OwningOpRef<ModuleOp> clone = model.clone();
  auto function = clone->lookupSymbol<func::FuncOp>(functionName);
  // Named while the regions are there (as prec-legalize names them), then
  // returned once the regions are inlined.
  std::vector<std::pair<std::string, Value>> tensors =
      collectCalibratedTensors(function);
  std::vector<std::pair<std::string, Value>> observed =
      collectObservedTensors(function);
  if (tensors.empty() && observed.empty())
    return makeError("@" + functionName +
                     " has no float op whose values to calibrate");
  dissolveRegions(*clone);
  InstrumentedModel instrumented;
  instrumented.firstCalibrated = function.getNumResults();
  SmallVector<Value> values;
  for (const auto &[name, value] : tensors) {
    values.push_back(value);
    instrumented.tensorNames.push_back(name);
  }
  for (const auto &[name, value] : observed) {
    values.push_back(value);
    instrumented.observedNames.push_back(name);
  }
  appendFunctionResults(function, values);
  // On the GPU, the reference is legalized for the engine's target.
  std::string engineTarget;
  if (device.device == Device::Gpu) {
    llvm::Expected<std::string> chosen = chooseEngineTarget(model, target);
    if (!chosen)
      return chosen.takeError();
    engineTarget = *chosen;
  }
  if (llvm::Error error = makeF32Reference(*clone, {}, engineTarget))
    return std::move(error);
  llvm::Expected<std::unique_ptr<ModelFunction>> compiled =
      compileForDevice(device, std::move(clone), functionName);
  if (!compiled)
    return compiled.takeError();
  instrumented.function = std::move(*compiled);
  return instrumented;
}

/// The model's batch: the first dimension its inputs share.
llvm::Expected<int64_t> getModelBatch(llvm::ArrayRef<Binding> inputs) {
  if (inputs.empty())
    return makeError("the function has no inputs to feed samples to");
  int64_t batch = inputs.front().shape.empty() ? 1 : inputs.front().shape[0];
  for (const Binding &input : inputs) {
    int64_t first = input.shape.empty() ? 1 : input.shape[0];
    if (first != batch)
      return makeError(
          "the inputs disagree on their first (batch) dimension ('" +
          inputs.front().name + "': " + llvm::Twine(batch) + ", '" +
          input.name + "': " + llvm::Twine(first) +
          "); samples are fed along it");
  }
  if (batch < 1)
    return makeError("the inputs' first dimension is 0");
  return batch;
}

/// The arguments of run `run` of the model over a batch: the run-th slice
/// of the model's batch size of each batch tensor.
std::vector<HostTensor> sliceRun(const std::vector<HostTensor> &batch,
                                 const std::vector<Binding> &inputs,
                                 int64_t run) {
  std::vector<HostTensor> slices;
  for (auto [tensor, input] : llvm::zip(batch, inputs)) {
    HostTensor slice(input.kind, input.shape);
    size_t bytes = slice.data.size();
    std::memcpy(slice.data.data(), tensor.data.data() + run * bytes, bytes);
    slices.push_back(std::move(slice));
  }
  return slices;
}

void appendFloats(const HostTensor &tensor, std::vector<float> &values) {
  size_t start = values.size();
  values.resize(start + tensor.getNumElements());
  if (tensor.kind == ElementKind::F32) {
    std::memcpy(values.data() + start, tensor.data.data(), tensor.data.size());
    return;
  }
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    values[start + i] = float(tensor.getAsDouble(i));
}

class ProgressBar {
public:
  ProgressBar(llvm::raw_ostream &os, bool enabled, int64_t total)
      : os(os), enabled(enabled), total(std::max<int64_t>(total, 1)) {}
  void update(int64_t done) {
    if (!enabled)
      return;
    constexpr int kWidth = 40;
    int filled = int(kWidth * std::min(done, total) / total);
    os << "\rcalibrating [" << std::string(filled, '#')
       << std::string(kWidth - filled, '.') << "] " << done << "/" << total
       << " samples";
    os.flush();
  }
  void finish() {
    if (enabled)
      os << "\n";
  }

private:
  llvm::raw_ostream &os;
  bool enabled;
  int64_t total;
};

llvm::Error writeOutputs(const CalibrationFile &calibration,
                         const PrecCalibrateOptions &options,
                         llvm::raw_ostream &out) {
  if (llvm::Error error = writeCalibrationFile(options.output, calibration))
    return error;
  out << "wrote " << options.output << "\n";
  if (options.trtCache.empty())
    return llvm::Error::success();
  llvm::Expected<TrtCache> trtCache = makeTrtCache(calibration);
  if (!trtCache)
    return makeError("cannot write '" + options.trtCache +
                     "': " + llvm::toString(trtCache.takeError()));
  std::error_code error;
  llvm::raw_fd_ostream cache(options.trtCache, error);
  if (error)
    return makeError("cannot write '" + options.trtCache +
                     "': " + error.message());
  cache << serializeTrtCache(*trtCache);
  out << "wrote " << options.trtCache << " (TensorRT calibration cache)\n";
  return llvm::Error::success();
}

void printTable(const CalibrationFile &calibration, llvm::raw_ostream &out) {
  size_t width = 6;
  for (const auto &entry : calibration.tensors)
    width = std::max(width, entry.first.size());
  out << llvm::left_justify("tensor", width) << "  "
      << llvm::right_justify("min", 12) << llvm::right_justify("max", 12)
      << llvm::right_justify("amax", 12) << "\n";
  auto number = [](std::optional<double> value) {
    std::string text = std::string(11, ' ') + "-";
    if (value)
      text = llvm::formatv("{0}", llvm::format("%12.6g", *value)).str();
    return text;
  };
  for (const auto &[name, tensor] : calibration.tensors)
    out << llvm::left_justify(name, width) << "  " << number(tensor.min)
        << number(tensor.max) << number(tensor.amax) << "\n";
}

/// --load-trt-cache: the cache's scales for the model's tensors.
llvm::Error convertTrtCache(ModuleOp model, const PrecCalibrateOptions &options,
                            CalibrationFile &calibration,
                            llvm::raw_ostream &out) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(options.loadTrtCache);
  if (!buffer)
    return makeError("cannot read '" + options.loadTrtCache +
                     "': " + buffer.getError().message());
  llvm::Expected<TrtCache> cache = parseTrtCache((*buffer)->getBuffer());
  if (!cache)
    return makeError("'" + options.loadTrtCache +
                     "': " + llvm::toString(cache.takeError()));
  if (options.algorithm && *options.algorithm != cache->algorithm)
    return makeError("'" + options.loadTrtCache + "' was calibrated with " +
                     getCalibrationAlgorithmName(cache->algorithm) + ", not " +
                     getCalibrationAlgorithmName(*options.algorithm) +
                     "; calibrate again or drop --algorithm");
  calibration.algorithm = cache->algorithm;
  calibration.source = options.loadTrtCache;
  llvm::StringMap<float> scales;
  for (const auto &[name, scale] : cache->scales)
    scales[name] = scale;
  std::vector<std::string> missing;
  auto function = model.lookupSymbol<func::FuncOp>(options.functionName);
  for (const auto &[name, value] : collectCalibratedTensors(function)) {
    auto found = scales.find(name);
    if (found == scales.end()) {
      missing.push_back(name);
      continue;
    }
    calibration.tensors[name].amax = double(found->second) * 127.0;
  }
  if (!missing.empty())
    return makeError("'" + options.loadTrtCache +
                     "' has no scale for the model's tensors " +
                     llvm::join(missing, ", "));
  out << "read " << cache->scales.size() << " scales from "
      << options.loadTrtCache << " (TensorRT " << cache->version << ", "
      << getCalibrationAlgorithmName(cache->algorithm) << "); "
      << calibration.tensors.size() << " are tensors prec may quantize\n";
  return llvm::Error::success();
}

/// Runs the model on the data and fills `calibration`'s tensors.
llvm::Error calibrateOnData(ModuleOp model, const PrecCalibrateOptions &options,
                            CalibrationAlgorithm algorithm,
                            const CalibrationSource &source,
                            CalibrationFile &calibration,
                            llvm::raw_ostream &out, llvm::raw_ostream &err) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<InstrumentedModel> instrumented =
      instrument(model, options.functionName, options.device, options.target);
  if (!instrumented)
    return instrumented.takeError();
  ModelFunction &function = *instrumented->function;
  std::vector<Binding> inputs = function.getInputs();
  llvm::Expected<int64_t> modelBatch = getModelBatch(inputs);
  if (!modelBatch)
    return modelBatch.takeError();
  int64_t batchSize = options.batchSize ? options.batchSize : *modelBatch;
  if (batchSize % *modelBatch != 0)
    return makeError("--batch-size " + llvm::Twine(batchSize) +
                     " is not a multiple of the model's batch (" +
                     llvm::Twine(*modelBatch) + " samples per run)");

  llvm::Expected<std::unique_ptr<CalibrationData>> data = source(inputs);
  if (!data)
    return data.takeError();
  int64_t total = (*data)->getSampleCount();
  if (total < *modelBatch)
    return makeError("the data holds " + llvm::Twine(total) +
                     " samples, fewer than one run of the model takes (" +
                     llvm::Twine(*modelBatch) + ")");

  std::vector<TensorObserver> observers(instrumented->tensorNames.size(),
                                        TensorObserver(algorithm));
  size_t firstObserved =
      instrumented->firstCalibrated + instrumented->tensorNames.size();
  std::vector<ObservedRange> observedRanges(
      instrumented->observedNames.size(),
      {std::numeric_limits<double>::infinity(),
       -std::numeric_limits<double>::infinity()});
  ProgressBar progress(err, options.progress.value_or(err.is_displayed()),
                       total);
  int64_t used = 0, runs = 0, leftOut = 0;
  std::vector<HostTensor> batch;
  while (true) {
    llvm::Expected<int64_t> read = (*data)->read(batchSize, batch);
    if (!read)
      return read.takeError();
    if (*read == 0)
      break;
    int64_t batchRuns = *read / *modelBatch;
    leftOut += *read % *modelBatch;
    // One observation per calibration batch: the batch size decides what
    // the histograms see first, as it does for TensorRT.
    std::vector<std::vector<float>> values(observers.size());
    for (int64_t run = 0; run < batchRuns; ++run) {
      llvm::Expected<std::vector<HostTensor>> outputs =
          function.run(sliceRun(batch, inputs, run));
      if (!outputs)
        return outputs.takeError();
      for (size_t t = 0; t < observers.size(); ++t)
        appendFloats((*outputs)[instrumented->firstCalibrated + t], values[t]);
      for (size_t t = 0; t < observedRanges.size(); ++t) {
        std::vector<float> observed;
        appendFloats((*outputs)[firstObserved + t], observed);
        for (float value : observed) {
          observedRanges[t].min =
              std::min<double>(observedRanges[t].min, value);
          observedRanges[t].max =
              std::max<double>(observedRanges[t].max, value);
        }
      }
    }
    for (size_t t = 0; t < observers.size(); ++t)
      observers[t].observe(values[t]);
    used += batchRuns * *modelBatch;
    runs += batchRuns;
    progress.update(used + leftOut);
  }
  progress.finish();
  if (leftOut)
    err << "prec-calibrate: warning: " << leftOut
        << " samples did not fill a run of the model (" << *modelBatch
        << " samples) and were left out\n";

  for (auto [name, observer] :
       llvm::zip(instrumented->tensorNames, observers)) {
    TensorCalibration &tensor = calibration.tensors[name];
    tensor.amax = observer.computeAmax(options.percentile);
    tensor.min = observer.getMin();
    tensor.max = observer.getMax();
  }
  // Infinities and NaNs say the f32 model itself overflows there: no range.
  for (auto [name, range] :
       llvm::zip(instrumented->observedNames, observedRanges))
    if (std::isfinite(range.min) && std::isfinite(range.max))
      calibration.observed[name] = range;
  calibration.samples = used;
  calibration.batchSize = batchSize;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  out << "calibrated " << observers.size() << " tensors with "
      << getCalibrationAlgorithmName(algorithm) << " and observed the range of "
      << calibration.observed.size() << " on " << used
      << " samples (batches of " << batchSize << ", " << runs
      << (runs == 1 ? " run" : " runs") << " of the model) in "
      << llvm::format("%.2f", seconds) << " s\n";
  return llvm::Error::success();
}

/// A calibration of `model` with options' algorithm and percentile, its
/// tensors still to fill.
llvm::Expected<CalibrationFile>
startCalibration(ModuleOp model, const PrecCalibrateOptions &options) {
  llvm::Expected<ModelFingerprint> fingerprint =
      computeModelFingerprint(model, options.functionName);
  if (!fingerprint)
    return fingerprint.takeError();
  CalibrationFile calibration;
  calibration.model = *fingerprint;
  calibration.algorithm =
      options.algorithm.value_or(CalibrationAlgorithm::Entropy);
  calibration.percentile = options.percentile;
  return calibration;
}

} // namespace

llvm::Expected<CalibrationFile>
calibrateModel(ModuleOp model, const PrecCalibrateOptions &options,
               const CalibrationSource &source, llvm::StringRef sourceName,
               llvm::raw_ostream &out, llvm::raw_ostream &err) {
  if (!(options.percentile > 0 && options.percentile <= 100))
    return makeError("--percentile must lie in (0, 100]");
  if (options.batchSize < 0)
    return makeError("--batch-size must be positive");
  llvm::Expected<CalibrationFile> calibration =
      startCalibration(model, options);
  if (!calibration)
    return calibration.takeError();
  calibration->source = sourceName.str();
  if (llvm::Error error =
          calibrateOnData(model, options, calibration->algorithm, source,
                          *calibration, out, err))
    return std::move(error);
  return calibration;
}

int runPrecCalibrate(const PrecCalibrateOptions &options,
                     const DialectRegistry &registry, llvm::raw_ostream &out,
                     llvm::raw_ostream &err) {
  auto fail = [&](const llvm::Twine &message) {
    err << "prec-calibrate: error: " << message << "\n";
    return 2;
  };
  if (options.output.empty())
    return fail("-o CALIB.json is required");
  int sources = !options.data.empty() + !options.valRanges.empty() +
                !options.loadTrtCache.empty();
  if (sources != 1)
    return fail("give exactly one of --data, --val-range (with --samples) "
                "and --load-trt-cache");
  if (!options.valRanges.empty() && options.samples <= 0)
    return fail("--val-range needs --samples N (N > 0)");
  if (options.valRanges.empty() && options.samples)
    return fail("--samples goes with --val-range");
  if (llvm::Error error = checkDeviceOptions(options.device))
    return fail(llvm::toString(std::move(error)));
  if (options.device.device == Device::Cpu && !options.target.empty())
    return fail("--target is the GPU --device gpu builds for");
  if (options.device.device == Device::Gpu && !options.loadTrtCache.empty())
    return fail("--load-trt-cache runs no model: not with --device gpu");

  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> model = loadModel(
      options.modelPath, options.functionName, context, "prec-calibrate", err);
  if (!model)
    return 2;
  CalibrationFile calibration;
  if (!options.loadTrtCache.empty()) {
    llvm::Expected<CalibrationFile> started = startCalibration(*model, options);
    if (!started)
      return fail(llvm::toString(started.takeError()));
    calibration = std::move(*started);
    if (llvm::Error error = convertTrtCache(*model, options, calibration, out))
      return fail(llvm::toString(std::move(error)));
  } else {
    auto source = [&](llvm::ArrayRef<Binding> inputs) {
      return options.data.empty()
                 ? CalibrationData::generate(inputs, options.valRanges,
                                             options.samples, options.seed)
                 : CalibrationData::openFiles(options.data, inputs);
    };
    std::string sourceName = options.data.empty()
                                 ? "val-range " +
                                       llvm::join(options.valRanges, ",") +
                                       " seed " + std::to_string(options.seed)
                                 : options.data;
    llvm::Expected<CalibrationFile> calibrated =
        calibrateModel(*model, options, source, sourceName, out, err);
    if (!calibrated)
      return fail(llvm::toString(calibrated.takeError()));
    calibration = std::move(*calibrated);
  }
  printTable(calibration, out);
  if (llvm::Error error = writeOutputs(calibration, options, out))
    return fail(llvm::toString(std::move(error)));
  return 0;
}

} // namespace prec
