//===- CalibrationData.cpp - samples to calibrate on ----------------------===//

#include "drivers/CalibrationData.h"

#include "drivers/PrecRun.h"
#include "formats/NpyStream.h"
#include "support/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>

namespace prec {

std::vector<int64_t> getSampleShape(const Binding &binding) {
  if (binding.shape.empty())
    return {};
  return std::vector<int64_t>(binding.shape.begin() + 1, binding.shape.end());
}

namespace {

int64_t getElementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

/// Batch tensors for `count` samples of each input.
std::vector<HostTensor> makeBatch(llvm::ArrayRef<Binding> inputs,
                                  int64_t count) {
  std::vector<HostTensor> batch;
  for (const Binding &input : inputs) {
    std::vector<int64_t> shape = getSampleShape(input);
    shape.insert(shape.begin(), count);
    batch.emplace_back(input.kind, shape);
  }
  return batch;
}

/// Keeps the first `count` samples of each batch tensor.
void truncateBatch(std::vector<HostTensor> &batch, int64_t count) {
  for (HostTensor &tensor : batch) {
    if (tensor.shape.empty())
      continue;
    tensor.data.resize(tensor.data.size() / tensor.shape[0] * count);
    tensor.shape[0] = count;
  }
}

/// How many samples of `input` an array of `shape` holds (one sample, or
/// N x sample); `where` names the array's file or chunk in errors.
llvm::Expected<int64_t> countSamples(llvm::ArrayRef<int64_t> shape,
                                     const Binding &input,
                                     llvm::StringRef where) {
  std::vector<int64_t> sampleShape = getSampleShape(input);
  if (shape == llvm::ArrayRef<int64_t>(sampleShape))
    return 1;
  if (!shape.empty() &&
      shape.drop_front() == llvm::ArrayRef<int64_t>(sampleShape))
    return shape.front();
  return makeError(where + ": the array for input '" + input.name +
                   "' has shape " + formatShape(shape) +
                   ", but the input takes samples of " +
                   formatShape(sampleShape) + " (arrays of N x " +
                   formatShape(sampleShape) + " or one sample)");
}

/// Checks that the arrays of one file or chunk agree on their samples.
llvm::Error checkSameCount(int64_t &count, int64_t samples,
                           llvm::StringRef where) {
  if (count >= 0 && samples != count)
    return makeError(where +
                     ": its arrays hold different numbers of samples (" +
                     llvm::Twine(count) + " and " + llvm::Twine(samples) + ")");
  count = samples;
  return llvm::Error::success();
}

/// The entry of `entries` (name, array) that holds `input`'s samples: by
/// name, or the only one for a one-input model; `where` names the file or
/// batch in errors, and `samples`, the count its arrays agree on so far,
/// is checked against this array's (`getShape` reads its shape).
template <typename Entries, typename GetShape>
auto findInputArray(Entries &entries, const Binding &input, size_t inputCount,
                    llvm::StringRef where, int64_t &samples, GetShape getShape)
    -> llvm::Expected<decltype(entries.begin())> {
  auto found = llvm::find_if(entries, [&](const auto &entry) {
    return entry.first == input.name ||
           (inputCount == 1 && entries.size() == 1);
  });
  if (found == entries.end())
    return makeError(where + " has no array for input '" + input.name + "'");
  llvm::Expected<int64_t> count =
      countSamples(getShape(found->second), input, where);
  if (!count)
    return count.takeError();
  if (llvm::Error error = checkSameCount(samples, *count, where))
    return std::move(error);
  return found;
}

/// One file's arrays, matched to the inputs.
struct OpenFile {
  std::vector<std::unique_ptr<NpyStream>> arrays; // one per input
  int64_t samples = 0;
};

class FileData : public CalibrationData {
public:
  FileData(std::vector<std::string> files, std::vector<Binding> inputs)
      : files(std::move(files)), inputs(std::move(inputs)) {}

  /// Opens every file once to check it and count its samples.
  llvm::Error scan() {
    for (const std::string &path : files) {
      llvm::Expected<OpenFile> file = openFile(path);
      if (!file)
        return file.takeError();
      sampleCount += file->samples;
    }
    return llvm::Error::success();
  }

  int64_t getSampleCount() const override { return sampleCount; }

  llvm::Expected<int64_t> read(int64_t count,
                               std::vector<HostTensor> &batch) override {
    batch = makeBatch(inputs, count);
    int64_t filled = 0;
    while (filled < count) {
      if (current.samples == 0) {
        if (nextFile == files.size())
          break;
        llvm::Expected<OpenFile> file = openFile(files[nextFile++]);
        if (!file)
          return file.takeError();
        current = std::move(*file);
        continue;
      }
      int64_t take = std::min(count - filled, current.samples);
      for (auto [index, input] : llvm::enumerate(inputs))
        if (llvm::Error error = readSamples(*current.arrays[index], input,
                                            filled, take, batch[index]))
          return makeError("'" + files[nextFile - 1] +
                           "': " + llvm::toString(std::move(error)));
      current.samples -= take;
      filled += take;
    }
    truncateBatch(batch, filled);
    return filled;
  }

private:
  llvm::Expected<OpenFile> openFile(const std::string &path) {
    std::vector<std::string> bf16Names;
    for (const Binding &input : inputs)
      if (input.kind == ElementKind::BF16)
        bf16Names.push_back(input.name);
    auto streams = NpyStream::open(path, bf16Names);
    if (!streams)
      return streams.takeError();
    OpenFile file;
    file.samples = -1;
    std::string where = "'" + path + "'";
    for (const Binding &input : inputs) {
      auto found = findInputArray(
          *streams, input, inputs.size(), where, file.samples,
          [](const auto &stream) { return stream->getHeader().shape; });
      if (!found)
        return found.takeError();
      file.arrays.push_back(std::move((*found)->second));
    }
    return file;
  }

  /// Reads `take` samples of `input` into `batch` from sample `at` on,
  /// converting the file's element type to the input's.
  static llvm::Error readSamples(NpyStream &array, const Binding &input,
                                 int64_t at, int64_t take, HostTensor &batch) {
    int64_t elements = getElementCount(getSampleShape(input));
    ElementKind fileKind = array.getHeader().kind;
    size_t size = getElementSize(input.kind);
    if (fileKind == input.kind)
      return array.read(batch.data.data() + at * elements * size,
                        take * elements * size);
    HostTensor staged(fileKind, {take * elements});
    if (llvm::Error error = array.read(staged.data.data(), staged.data.size()))
      return error;
    for (int64_t i = 0; i < take * elements; ++i)
      batch.setFromDouble(at * elements + i, staged.getAsDouble(i));
    return llvm::Error::success();
  }

  std::vector<std::string> files;
  std::vector<Binding> inputs;
  int64_t sampleCount = 0;
  size_t nextFile = 0;
  OpenFile current;
};

class TensorData : public CalibrationData {
public:
  TensorData(std::vector<Binding> inputs) : inputs(std::move(inputs)) {}

  /// Matches a chunk's arrays to the inputs, converted to their kinds.
  llvm::Error add(NamedTensors chunk, size_t index) {
    std::string where = "batch " + std::to_string(index);
    std::vector<HostTensor> arrays;
    int64_t samples = -1;
    for (const Binding &input : inputs) {
      auto found =
          findInputArray(chunk, input, inputs.size(), where, samples,
                         [](const HostTensor &array) { return array.shape; });
      if (!found)
        return found.takeError();
      arrays.push_back((*found)->second.convertTo(input.kind));
    }
    if (samples == 0)
      return llvm::Error::success();
    sampleCount += samples;
    chunks.push_back({std::move(arrays), samples});
    return llvm::Error::success();
  }

  int64_t getSampleCount() const override { return sampleCount; }

  llvm::Expected<int64_t> read(int64_t count,
                               std::vector<HostTensor> &batch) override {
    batch = makeBatch(inputs, count);
    int64_t filled = 0;
    while (filled < count && next < chunks.size()) {
      Chunk &chunk = chunks[next];
      int64_t take = std::min(count - filled, chunk.samples - taken);
      for (auto [index, array] : llvm::enumerate(chunk.arrays)) {
        size_t bytes = array.data.size() / chunk.samples; // one sample
        std::memcpy(batch[index].data.data() + filled * bytes,
                    array.data.data() + taken * bytes, take * bytes);
      }
      filled += take;
      taken += take;
      if (taken == chunk.samples) {
        chunk.arrays.clear(); // read: free it
        ++next;
        taken = 0;
      }
    }
    truncateBatch(batch, filled);
    return filled;
  }

private:
  struct Chunk {
    std::vector<HostTensor> arrays; // one per input
    int64_t samples;
  };

  std::vector<Binding> inputs;
  std::vector<Chunk> chunks;
  int64_t sampleCount = 0;
  size_t next = 0;
  int64_t taken = 0; // samples of chunks[next] already read
};

class GeneratedData : public CalibrationData {
public:
  GeneratedData(std::vector<Binding> inputs, std::vector<std::string> ranges,
                int64_t samples, uint64_t seed)
      : inputs(std::move(inputs)), ranges(std::move(ranges)),
        sampleCount(samples), seed(seed) {
    for (Binding sample : this->inputs) {
      sample.shape = getSampleShape(sample);
      sampleBindings.push_back(sample);
    }
  }

  int64_t getSampleCount() const override { return sampleCount; }

  llvm::Expected<int64_t> read(int64_t count,
                               std::vector<HostTensor> &batch) override {
    count = std::min(count, sampleCount - nextSample);
    batch = makeBatch(inputs, count);
    // Sample by sample from its own seed: the data does not depend on how
    // it is batched.
    for (int64_t i = 0; i < count; ++i, ++nextSample) {
      llvm::Expected<NamedTensors> sample =
          generateInputs(sampleBindings, ranges, seed * 1000003 + nextSample);
      if (!sample)
        return sample.takeError();
      for (auto [index, entry] : llvm::enumerate(*sample)) {
        const std::vector<uint8_t, CacheLineAllocator<uint8_t>> &bytes =
            entry.second.data;
        std::memcpy(batch[index].data.data() + i * bytes.size(), bytes.data(),
                    bytes.size());
      }
    }
    return count;
  }

private:
  std::vector<Binding> inputs, sampleBindings;
  std::vector<std::string> ranges;
  int64_t sampleCount;
  uint64_t seed;
  int64_t nextSample = 0;
};

} // namespace

llvm::Expected<std::unique_ptr<CalibrationData>>
CalibrationData::openFiles(llvm::StringRef path,
                           llvm::ArrayRef<Binding> inputs) {
  std::vector<std::string> files;
  if (llvm::sys::fs::is_directory(path)) {
    std::error_code error;
    for (llvm::sys::fs::directory_iterator entry(path, error), end;
         entry != end && !error; entry.increment(error)) {
      llvm::StringRef file = entry->path();
      if (file.ends_with(".npy") || file.ends_with(".npz"))
        files.push_back(file.str());
    }
    if (error)
      return makeError("cannot list '" + path + "': " + error.message());
    if (files.empty())
      return makeError("'" + path + "' holds no .npy or .npz files");
    llvm::sort(files);
  } else if (path.ends_with(".npz") || path.ends_with(".npy")) {
    if (!llvm::sys::fs::exists(path))
      return makeError("cannot read '" + path + "': no such file");
    files.push_back(path.str());
  } else {
    return makeError("--data '" + path +
                     "' is neither a directory nor an .npz or .npy file");
  }
  auto data = std::make_unique<FileData>(std::move(files), inputs.vec());
  if (llvm::Error error = data->scan())
    return std::move(error);
  return std::unique_ptr<CalibrationData>(std::move(data));
}

llvm::Expected<std::unique_ptr<CalibrationData>>
CalibrationData::fromTensors(llvm::ArrayRef<Binding> inputs,
                             std::vector<NamedTensors> chunks) {
  if (chunks.empty())
    return makeError("there are no batches to calibrate on");
  auto data = std::make_unique<TensorData>(inputs.vec());
  for (auto [index, chunk] : llvm::enumerate(chunks))
    if (llvm::Error error = data->add(std::move(chunk), index))
      return std::move(error);
  return std::unique_ptr<CalibrationData>(std::move(data));
}

llvm::Expected<std::unique_ptr<CalibrationData>>
CalibrationData::generate(llvm::ArrayRef<Binding> inputs,
                          llvm::ArrayRef<std::string> valRanges,
                          int64_t samples, uint64_t seed) {
  // Check the ranges once, here, rather than at the first batch.
  std::vector<Binding> sampleBindings;
  for (Binding sample : inputs) {
    sample.shape = getSampleShape(sample);
    sampleBindings.push_back(sample);
  }
  if (llvm::Expected<NamedTensors> check =
          generateInputs(sampleBindings, valRanges, seed);
      !check)
    return check.takeError();
  return std::unique_ptr<CalibrationData>(
      new GeneratedData(inputs.vec(), valRanges.vec(), samples, seed));
}

} // namespace prec
