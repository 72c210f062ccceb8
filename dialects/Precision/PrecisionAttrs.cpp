//===- PrecisionAttrs.cpp - precision dialect attributes ------------------===//

#include "dialects/Precision/PrecisionAttrs.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionTypes.h"
#include "dialects/Precision/Target.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace prec::precision;

#include "dialects/Precision/PrecisionEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Precision/PrecisionAttrs.cpp.inc"

void PrecisionDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Precision/PrecisionAttrs.cpp.inc"
      >();
}

bool PolicyAttr::isEnabled(Type type) const {
  return type.isF32() || llvm::is_contained(getEnabled(), type);
}

LogicalResult PolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 TypingMode typing, ArrayRef<Type> enabled,
                                 ConstraintMode constraints, StringRef target) {
  for (auto [index, type] : llvm::enumerate(enabled)) {
    if (!isPrecisionType(type))
      return emitError() << "enabled precision " << type << " is not one of "
                         << getPrecisionTypeSpellings();
    if (llvm::is_contained(enabled.take_front(index), type))
      return emitError() << "enabled precision " << type << " is listed twice";
  }
  if (!parseTarget(target))
    return emitError() << "unknown target '" << target << "'; expected "
                       << getTargetSpellings();
  return success();
}

Attribute PolicyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  TypingMode typing = TypingMode::Weak;
  SmallVector<Type> enabled;
  ConstraintMode constraints = ConstraintMode::Prefer;
  std::string target = "cpu";
  llvm::StringSet<> seenKeys;

  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!llvm::is_contained({"typing", "enabled", "constraints", "target"},
                            key))
      return parser.emitError(keyLoc)
             << "unknown policy key '" << key
             << "'; expected typing, enabled, constraints or target";
    if (!seenKeys.insert(key).second)
      return parser.emitError(keyLoc)
             << "policy key '" << key << "' given twice";
    if (parser.parseEqual())
      return failure();
    if (key == "enabled")
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() { return parser.parseType(enabled.emplace_back()); });
    if (key == "target")
      return parser.parseString(&target);
    SMLoc valueLoc = parser.getCurrentLocation();
    StringRef value;
    if (parser.parseKeyword(&value))
      return failure();
    if (key == "typing") {
      std::optional<TypingMode> parsed = symbolizeTypingMode(value);
      if (!parsed)
        return parser.emitError(valueLoc) << "unknown typing mode '" << value
                                          << "'; expected strong or weak";
      typing = *parsed;
      return success();
    }
    std::optional<ConstraintMode> parsed = symbolizeConstraintMode(value);
    if (!parsed)
      return parser.emitError(valueLoc) << "unknown constraint mode '" << value
                                        << "'; expected obey, prefer or none";
    constraints = *parsed;
    return success();
  };

  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
      return {};
  }
  return parser.getChecked<PolicyAttr>(loc, parser.getContext(), typing,
                                       enabled, constraints, target);
}

void PolicyAttr::print(AsmPrinter &printer) const {
  printer << "<typing = " << stringifyTypingMode(getTyping())
          << ", enabled = [";
  llvm::interleaveComma(getEnabled(), printer);
  printer << "], constraints = " << stringifyConstraintMode(getConstraints())
          << ", target = \"" << getTarget() << "\">";
}
