//===- OpClass.cpp - spellings of the op classes --------------------------===//

#include "dialects/Precision/OpClass.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

namespace prec {

using llvm::StringRef;

StringRef getOpClassName(OpClass opClass) {
  switch (opClass) {
  case OpClass::Contraction:
    return "contraction";
  case OpClass::Sensitive:
    return "sensitive";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Pooling:
    return "pooling";
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::DataMovement:
    return "data_movement";
  case OpClass::Cast:
    return "cast";
  case OpClass::Other:
    return "other";
  }
  llvm_unreachable("unknown op class");
}

std::optional<OpClass> parseOpClassName(StringRef name) {
  return llvm::StringSwitch<std::optional<OpClass>>(name)
      .Case("contraction", OpClass::Contraction)
      .Case("sensitive", OpClass::Sensitive)
      .Case("reduction", OpClass::Reduction)
      .Case("pooling", OpClass::Pooling)
      .Case("elementwise", OpClass::Elementwise)
      .Case("data_movement", OpClass::DataMovement)
      .Default(std::nullopt);
}

StringRef getOpClassSpellings() {
  return "contraction, sensitive, reduction, pooling, elementwise, "
         "data_movement";
}

} // namespace prec
