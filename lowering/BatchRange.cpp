//===- BatchRange.cpp - an engine's dynamic batch -------------------------===//

#include "lowering/BatchRange.h"

#include "llvm/ADT/SmallVector.h"

namespace prec {

llvm::Expected<BatchRange> parseBatchRange(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ':');
  BatchRange range;
  if (parts.size() != 3 || parts[0].getAsInteger(10, range.min) ||
      parts[1].getAsInteger(10, range.opt) ||
      parts[2].getAsInteger(10, range.max))
    return llvm::createStringError("'%s' is not MIN:OPT:MAX",
                                   text.str().c_str());
  if (range.min < 1 || range.min > range.opt || range.opt > range.max ||
      range.max < 2)
    return llvm::createStringError(
        "'%s' needs 1 <= MIN <= OPT <= MAX and MAX >= 2", text.str().c_str());
  return range;
}

} // namespace prec

bool llvm::cl::parser<std::optional<prec::BatchRange>>::parse(
    Option &option, StringRef, StringRef text,
    std::optional<prec::BatchRange> &value) {
  Expected<prec::BatchRange> range = prec::parseBatchRange(text);
  if (!range)
    return option.error(toString(range.takeError()));
  value = *range;
  return false;
}

void llvm::cl::parser<std::optional<prec::BatchRange>>::printOptionDiff(
    const Option &option, const std::optional<prec::BatchRange> &value,
    const OptionValue<std::optional<prec::BatchRange>> &,
    size_t globalWidth) const {
  printOptionName(option, globalWidth);
  outs() << "= ";
  print(outs(), value);
  outs() << '\n';
}

void llvm::cl::parser<std::optional<prec::BatchRange>>::print(
    raw_ostream &os, const std::optional<prec::BatchRange> &value) {
  if (value)
    os << value->min << ':' << value->opt << ':' << value->max;
}
