//===- BatchRange.h - an engine's dynamic batch -----------------*- C++ -*-===//

#ifndef PREC_LOWERING_BATCHRANGE_H
#define PREC_LOWERING_BATCHRANGE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace prec {

/// TRTorch's Input(min_shape, opt_shape, max_shape) along the batch: the
/// module is at `max`, the engine runs at any batch in [min, max] and is
/// tuned for `opt`.
struct BatchRange {
  int64_t min = 0, opt = 0, max = 0;
};

/// Parses `MIN:OPT:MAX` (1 <= MIN <= OPT <= MAX, MAX >= 2); on failure says
/// why in `error`.
std::optional<BatchRange> parseBatchRange(llvm::StringRef text,
                                          std::string &error);

} // namespace prec

#endif // PREC_LOWERING_BATCHRANGE_H
