//===- Conversions.h - numpy arrays and prec errors for Python --*- C++ -*-===//
//
// What crosses between Python and prec's libraries: numpy arrays to and
// from host tensors, and prec's diagnostics raised as prec.Error.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PYTHON_CONVERSIONS_H
#define PREC_PYTHON_CONVERSIONS_H

#include "formats/Npy.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Error.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace prec::python {

/// One diagnostic: where, how severe ("error", "warning", "note"), what.
struct DiagnosticRecord {
  std::string location, severity, message;
};

/// Collects the diagnostics of `context` while it lives.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  const std::vector<DiagnosticRecord> &getRecords() const { return records; }
  /// The errors as lines, `location: message`.
  std::string formatErrors() const;

private:
  std::vector<DiagnosticRecord> records;
  mlir::ScopedDiagnosticHandler handler;
};

/// Raises prec.errors.Error(message) carrying `diagnostics`.
[[noreturn]] void raiseError(const std::string &message,
                             const std::vector<DiagnosticRecord> &diagnostics);

/// Raises `error` (consumed) with the diagnostics `collector` gathered, whose
/// errors join the message unless it already holds them.
[[noreturn]] void raiseError(llvm::Error error,
                             const DiagnosticCollector *collector = nullptr);

/// `text` as a Python str; bytes that are not UTF-8 (a corrupt model's
/// names) become U+FFFD rather than an exception.
pybind11::str toText(const std::string &text);

/// The diagnostics as a Python list of (location, severity, message).
pybind11::list toPython(const std::vector<DiagnosticRecord> &diagnostics);

/// `array` as a host tensor of `kind` (its own kind when not given);
/// converted element by element where the kinds differ. Raises on an
/// element type prec has no kind for; `what` names the array.
HostTensor toHostTensor(const pybind11::array &array,
                        std::optional<ElementKind> kind,
                        const std::string &what);

/// `tensor` as a numpy array (bf16 widened to float32).
pybind11::array toNumpy(const HostTensor &tensor);

/// A dict of name -> array as named tensors (in the dict's order).
NamedTensors toNamedTensors(const pybind11::dict &arrays,
                            const std::string &what);

} // namespace prec::python

#endif // PREC_PYTHON_CONVERSIONS_H
