//===- ScratchDirectory.cpp - a temporary directory -----------------------===//

#include "support/ScratchDirectory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace prec {

llvm::Expected<ScratchDirectory>
ScratchDirectory::create(llvm::StringRef prefix) {
  ScratchDirectory directory;
  if (std::error_code error =
          llvm::sys::fs::createUniqueDirectory(prefix, directory.path))
    return llvm::createStringError(
        error, "cannot create a temporary directory: " + error.message());
  return directory;
}

ScratchDirectory::ScratchDirectory(ScratchDirectory &&other)
    : path(std::move(other.path)) {
  other.path.clear();
}

ScratchDirectory::~ScratchDirectory() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::string ScratchDirectory::file(const llvm::Twine &name) const {
  llvm::SmallString<128> result(path);
  llvm::sys::path::append(result, name);
  return std::string(result);
}

} // namespace prec
