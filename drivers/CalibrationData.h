//===- CalibrationData.h - samples to calibrate on --------------*- C++ -*-===//
//
// Calibration data comes as a directory of .npy / .npz files, one .npz
// whose arrays have a batch axis, or is generated from value ranges. A
// sample is one slice of every input along its first axis; a file's array
// of shape [S, ...] holds S samples (an array of the sample shape, one).
// Samples are read front to back, a batch at a time, so data larger than
// memory works.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_CALIBRATIONDATA_H
#define PREC_DRIVERS_CALIBRATIONDATA_H

#include "formats/Npy.h"
#include "runtime/JitRunner.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace prec {

class CalibrationData {
public:
  virtual ~CalibrationData() = default;

  /// Reads files: `path` is a directory of .npy/.npz files (in name order)
  /// or one .npz/.npy file; arrays are matched to `inputs` by name (a
  /// single input takes a single unnamed array).
  static llvm::Expected<std::unique_ptr<CalibrationData>>
  openFiles(llvm::StringRef path, llvm::ArrayRef<Binding> inputs);

  /// Generates `samples` samples, uniform in the `name:[lo,hi]` ranges
  /// ([0, 1] where none is given), from `seed`.
  static llvm::Expected<std::unique_ptr<CalibrationData>>
  generate(llvm::ArrayRef<Binding> inputs,
           llvm::ArrayRef<std::string> valRanges, int64_t samples,
           uint64_t seed);

  /// Holds `chunks` in memory: each maps input names to arrays of N
  /// samples (N x sample shape, or one sample), as a file would; `chunks`
  /// are read in order and converted to the inputs' element types.
  static llvm::Expected<std::unique_ptr<CalibrationData>>
  fromTensors(llvm::ArrayRef<Binding> inputs, std::vector<NamedTensors> chunks);

  /// The number of samples in all.
  virtual int64_t getSampleCount() const = 0;

  /// Reads the next `count` samples (fewer at the end) into one tensor per
  /// input, shaped [n, ...sample]; returns n, 0 once all are read.
  virtual llvm::Expected<int64_t> read(int64_t count,
                                       std::vector<HostTensor> &batch) = 0;
};

/// The shape of one sample of `binding`: its shape without the first axis.
std::vector<int64_t> getSampleShape(const Binding &binding);

} // namespace prec

#endif // PREC_DRIVERS_CALIBRATIONDATA_H
