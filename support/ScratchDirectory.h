//===- ScratchDirectory.h - a temporary directory ---------------*- C++ -*-===//
//
// A new directory under the system's temporary one, removed with what is
// in it when its owner goes: where prec-debug writes an engine it builds,
// and where the Python package writes a model it hands to a tool.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_SUPPORT_SCRATCHDIRECTORY_H
#define PREC_SUPPORT_SCRATCHDIRECTORY_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace prec {

class ScratchDirectory {
public:
  /// Creates `<temporary directory>/<prefix>-XXXXXX`.
  static llvm::Expected<ScratchDirectory> create(llvm::StringRef prefix);

  ScratchDirectory(ScratchDirectory &&other);
  ScratchDirectory &operator=(ScratchDirectory &&) = delete;
  ~ScratchDirectory();

  llvm::StringRef getPath() const { return path; }
  /// The path of `name` in the directory.
  std::string file(const llvm::Twine &name) const;

private:
  ScratchDirectory() = default;

  llvm::SmallString<128> path;
};

} // namespace prec

#endif // PREC_SUPPORT_SCRATCHDIRECTORY_H
