//===- BatchRange.h - an engine's dynamic batch -----------------*- C++ -*-===//

#ifndef PREC_LOWERING_BATCHRANGE_H
#define PREC_LOWERING_BATCHRANGE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace prec {

/// TRTorch's Input(min_shape, opt_shape, max_shape) along the batch: the
/// module is at `max`, the engine runs at any batch in [min, max] and is
/// tuned for `opt`.
struct BatchRange {
  int64_t min = 0, opt = 0, max = 0;
};

/// Parses `MIN:OPT:MAX` (1 <= MIN <= OPT <= MAX, MAX >= 2).
llvm::Expected<BatchRange> parseBatchRange(llvm::StringRef text);

} // namespace prec

/// A `--batch=MIN:OPT:MAX` option, of the tools and of the passes: a value
/// that does not parse is an error of the command line; without the option
/// the batch is static.
template <>
class llvm::cl::parser<std::optional<prec::BatchRange>>
    : public basic_parser<std::optional<prec::BatchRange>> {
public:
  using basic_parser::basic_parser;

  bool parse(Option &option, StringRef, StringRef text,
             std::optional<prec::BatchRange> &value);
  StringRef getValueName() const override { return "min:opt:max"; }
  static void print(raw_ostream &os,
                    const std::optional<prec::BatchRange> &value);
  /// For --print-options: the option, and its value if it has one.
  void printOptionDiff(const Option &option,
                       const std::optional<prec::BatchRange> &value,
                       const OptionValue<std::optional<prec::BatchRange>> &,
                       size_t globalWidth) const;
};

#endif // PREC_LOWERING_BATCHRANGE_H
