//===- BatchRange.cpp - an engine's dynamic batch -------------------------===//

#include "lowering/BatchRange.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

namespace prec {

std::optional<BatchRange> parseBatchRange(llvm::StringRef text,
                                          std::string &error) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ':');
  BatchRange range;
  if (parts.size() != 3 || parts[0].getAsInteger(10, range.min) ||
      parts[1].getAsInteger(10, range.opt) ||
      parts[2].getAsInteger(10, range.max)) {
    error = ("--batch '" + text + "' is not MIN:OPT:MAX").str();
    return std::nullopt;
  }
  if (range.min < 1 || range.min > range.opt || range.opt > range.max ||
      range.max < 2) {
    error = ("--batch '" + text + "' needs 1 <= MIN <= OPT <= MAX and MAX >= 2")
                .str();
    return std::nullopt;
  }
  return range;
}

} // namespace prec
