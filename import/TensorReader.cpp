//===- TensorReader.cpp - ONNX TensorProtos to attributes -----------------===//

#include "import/TensorReader.h"

#include "import/Elements.h"
#include "import/Folding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;

namespace prec::onnx_import {

namespace {

/// The bytes of `tensor` kept in a file beside the model.
FailureOr<std::string> readExternalData(const onnx::TensorProto &tensor,
                                        llvm::StringRef modelPath,
                                        Location location) {
  std::string file;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto &entry : tensor.external_data()) {
    uint64_t number = 0;
    bool isCount = entry.key() == "offset" || entry.key() == "length";
    if (isCount && llvm::StringRef(entry.value()).getAsInteger(10, number))
      return emitError(location)
             << "tensor '" << tensor.name() << "': external data "
             << entry.key() << " '" << entry.value() << "' is not a byte count";
    if (entry.key() == "location")
      file = entry.value();
    else if (entry.key() == "offset")
      offset = number;
    else if (entry.key() == "length")
      length = number;
  }
  // As ONNX's own loader does (CVE-2022-25882), external data stays in the
  // model's folder: a model must not read arbitrary files into its weights.
  if (llvm::sys::path::is_absolute(file) ||
      llvm::is_contained(llvm::make_range(llvm::sys::path::begin(file),
                                          llvm::sys::path::end(file)),
                         ".."))
    return emitError(location)
           << "tensor '" << tensor.name() << "': external data '" << file
           << "' must be a path inside the model's folder";
  llvm::SmallString<256> full(llvm::sys::path::parent_path(modelPath));
  llvm::sys::path::append(full, file);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(full, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return emitError(location)
           << "tensor '" << tensor.name() << "': cannot read external data '"
           << full << "': " << buffer.getError().message();
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (offset > bytes.size() || (length && *length > bytes.size() - offset))
    return emitError(location)
           << "tensor '" << tensor.name()
           << "': external data range is outside '" << full << "'";
  return bytes.substr(offset, length.value_or(llvm::StringRef::npos)).str();
}

/// How many values the typed field of `tensor`'s data type holds: int32_data
/// holds int32, int8, uint8, bool and the bits of f16/bf16.
size_t typedFieldSize(const onnx::TensorProto &tensor) {
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    return tensor.float_data_size();
  case onnx::TensorProto::DOUBLE:
    return tensor.double_data_size();
  case onnx::TensorProto::INT64:
    return tensor.int64_data_size();
  default:
    return tensor.int32_data_size();
  }
}

/// The typed field's values as they lie in memory, `width` bytes each (the
/// low bytes of each int32_data entry).
std::string typedFieldBytes(const onnx::TensorProto &tensor, size_t width) {
  auto asBytes = [](const auto &field) {
    return std::string(reinterpret_cast<const char *>(field.data()),
                       field.size() * sizeof(field[0]));
  };
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    return asBytes(tensor.float_data());
  case onnx::TensorProto::DOUBLE:
    return asBytes(tensor.double_data());
  case onnx::TensorProto::INT64:
    return asBytes(tensor.int64_data());
  default:
    break;
  }
  std::string bytes(tensor.int32_data_size() * width, '\0');
  for (auto [index, value] : llvm::enumerate(tensor.int32_data()))
    std::memcpy(bytes.data() + index * width, &value, width);
  return bytes;
}

} // namespace

FailureOr<ElementsAttr> readTensor(const onnx::TensorProto &tensor,
                                   llvm::StringRef modelPath,
                                   Location location) {
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (llvm::any_of(shape, [](int64_t dim) { return dim < 0; }))
    return emitError(location)
           << "tensor '" << tensor.name() << "' has a negative dimension";
  int64_t count = product(shape);
  if (count > maxElements)
    return emitError(location) << "tensor '" << tensor.name() << "' has "
                               << count << " elements: too large to import";
  Type element = getKnownElementType(location.getContext(), tensor.data_type());
  if (!element)
    return emitError(location)
           << "tensor '" << tensor.name() << "' has data type "
           << tensor.data_type() << ", which prec does not import";

  std::string external;
  const std::string *raw = tensor.has_raw_data() ? &tensor.raw_data() : nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    FailureOr<std::string> read = readExternalData(tensor, modelPath, location);
    if (failed(read))
      return failure();
    external = std::move(*read);
    raw = &external;
  }
  // Count the values the tensor holds before allocating: its dims alone may
  // claim far more elements than its data provides.
  size_t width = (element.getIntOrFloatBitWidth() + 7) / 8;
  if (raw && raw->size() % width != 0)
    return emitError(location)
           << "tensor '" << tensor.name() << "' has " << raw->size()
           << " bytes of data, not a whole number of " << width
           << "-byte values";
  size_t held = raw ? raw->size() / width : typedFieldSize(tensor);
  if (held != size_t(count))
    return emitError(location)
           << "tensor '" << tensor.name() << "' holds " << held
           << " values but its shape needs " << count;
  auto type = RankedTensorType::get(shape, element);
  if (raw)
    return elementsFromBytes(type, ArrayRef<char>(raw->data(), raw->size()));
  std::string bytes = typedFieldBytes(tensor, width);
  return elementsFromBytes(type, ArrayRef<char>(bytes.data(), bytes.size()));
}

} // namespace prec::onnx_import
