//===- Calibration.h - what a calibration covers ----------------*- C++ -*-===//
//
// The file format is in formats/CalibrationFile.h; this is its link to the
// IR: which tensors a calibration covers, what they are called and which
// model it fits.
//
// Tensors are named as users know them: a binding by its name, an op's
// result by its source tensor name (`precision.tensor`, which the ONNX
// importer records) or else by the op's layer name (`name:N` for result N > 0
// of an op with several), an unnamed op's result as `<op name>_<k>` (the k-th
// such op of the function); a precision.region's arguments and results by the
// tensors they stand for.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_CALIBRATION_H
#define PREC_PASSES_CALIBRATION_H

#include "formats/CalibrationFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prec {

/// The fingerprint of `function` in `module`: a SHA-256 of the module's
/// ops, types and constants with precision.region bodies inlined and every
/// precision attribute and location left out, so that pinning precisions
/// keeps a calibration valid but changing a weight or an op does not.
llvm::Expected<ModelFingerprint>
computeModelFingerprint(mlir::ModuleOp module, llvm::StringRef function);

/// The name `value` is calibrated under (see the file comment).
std::string getTensorName(mlir::Value value);

/// The value whose range an op prec-quantize may quantize (a matmul or a
/// convolution) needs: its input (or another operand, a matmul's B where it
/// is an activation), followed through precision.region boundaries and
/// through transposes, reshapes and slices, whose values lie in their
/// source's range.
mlir::Value getCalibratedInput(mlir::Operation *op, unsigned operand = 0);

/// The tensors a calibration of `function` covers: the calibrated inputs of
/// its matmuls and convolutions, each once, in program order.
std::vector<std::pair<std::string, mlir::Value>>
collectCalibratedTensors(mlir::Operation *function);

/// The float results of `function`'s ops in program order, with unique
/// names (`name#k` for the k-th later op of a name): what prec-calibrate
/// observes the range of.
std::vector<std::pair<std::string, mlir::Value>>
collectObservedTensors(mlir::Operation *function);

/// Checks that `calibration` was made for `module`: an error names what
/// differs (the function, an input, a tensor, or the graph itself).
llvm::Error checkCalibrationFits(const CalibrationFile &calibration,
                                 mlir::ModuleOp module, llvm::StringRef path);

} // namespace prec

#endif // PREC_PASSES_CALIBRATION_H
