//===- Conversions.cpp - numpy arrays and prec errors for Python ----------===//

#include "python/native/Conversions.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace py = pybind11;

namespace prec::python {

namespace {

std::string getSeverityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "note";
}

/// `file:line:col`, or the layer's name for an op of an imported model.
std::string printLocation(mlir::Location location) {
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(location))
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(location))
    return name.getName().getValue().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << location;
  return text;
}

/// numpy's dtype for `kind`, bf16 widened to float32 (numpy has none).
py::dtype getNumpyDtype(ElementKind kind) {
  return py::dtype(kind == ElementKind::BF16 ? "float32"
                                             : getNumpyDescr(kind).str());
}

} // namespace

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext *context)
    : handler(context, [this](mlir::Diagnostic &diagnostic) {
        records.push_back({printLocation(diagnostic.getLocation()),
                           getSeverityName(diagnostic.getSeverity()),
                           diagnostic.str()});
        for (const mlir::Diagnostic &note : diagnostic.getNotes())
          records.push_back(
              {printLocation(note.getLocation()), "note", note.str()});
        return mlir::success();
      }) {}

std::string DiagnosticCollector::formatErrors() const {
  std::string text;
  for (const DiagnosticRecord &record : records)
    if (record.severity == "error")
      text +=
          (text.empty() ? "" : "\n") + record.location + ": " + record.message;
  return text;
}

py::str toText(const std::string &text) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text.data(), text.size(), "replace"));
}

py::list toPython(const std::vector<DiagnosticRecord> &diagnostics) {
  py::list list;
  for (const DiagnosticRecord &record : diagnostics)
    list.append(py::make_tuple(toText(record.location), record.severity,
                               toText(record.message)));
  return list;
}

void raiseError(const std::string &message,
                const std::vector<DiagnosticRecord> &diagnostics) {
  py::object errorClass = py::module_::import("prec.errors").attr("Error");
  py::object error = errorClass(toText(message), toPython(diagnostics));
  PyErr_SetObject(errorClass.ptr(), error.ptr());
  throw py::error_already_set();
}

void raiseError(llvm::Error error, const DiagnosticCollector *collector) {
  std::string message = llvm::toString(std::move(error));
  if (!collector)
    raiseError(message, {});
  // Errors that say "(above)" or nothing of their own get the diagnostics'.
  std::string located = collector->formatErrors();
  if (!located.empty() && message.find(located) == std::string::npos)
    message += "\n" + located;
  raiseError(message, collector->getRecords());
}

HostTensor toHostTensor(const py::array &array, std::optional<ElementKind> kind,
                        const std::string &what) {
  std::string descr = py::str(array.dtype().attr("str"));
  llvm::Expected<ElementKind> arrayKind = parseNumpyDescr(descr, false);
  if (!arrayKind)
    raiseError(what + " has element type " +
                   py::str(array.dtype()).cast<std::string>() + ": " +
                   llvm::toString(arrayKind.takeError()),
               {});
  auto contiguous = py::array::ensure(array, py::array::c_style);
  std::vector<int64_t> shape(contiguous.shape(),
                             contiguous.shape() + contiguous.ndim());
  HostTensor tensor(*arrayKind, shape);
  std::memcpy(tensor.data.data(), contiguous.data(), tensor.data.size());
  return kind ? tensor.convertTo(*kind) : tensor;
}

py::array toNumpy(const HostTensor &tensor) {
  py::array array(getNumpyDtype(tensor.kind), tensor.shape);
  if (tensor.kind != ElementKind::BF16) {
    std::memcpy(array.mutable_data(), tensor.data.data(), tensor.data.size());
    return array;
  }
  auto *values = static_cast<float *>(array.mutable_data());
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    values[i] = float(tensor.getAsDouble(i));
  return array;
}

NamedTensors toNamedTensors(const py::dict &arrays, const std::string &what) {
  NamedTensors tensors;
  for (auto [name, value] : arrays) {
    std::string key = py::str(name);
    py::array array = py::array::ensure(value);
    if (!array)
      raiseError(what + " '" + key + "' is not an array", {});
    tensors.emplace_back(
        key, toHostTensor(array, std::nullopt, what + " '" + key + "'"));
  }
  return tensors;
}

} // namespace prec::python
