//===- OptionChoices.cpp - options with a fixed set of values -------------===//

#include "passes/OptionChoices.h"

namespace prec {

using precision::ConstraintMode;
using precision::TypingMode;

std::optional<TypingMode> getTypingMode(TypingChoice choice) {
  switch (choice) {
  case TypingChoice::Module:
    return std::nullopt;
  case TypingChoice::Strong:
    return TypingMode::Strong;
  case TypingChoice::Weak:
    return TypingMode::Weak;
  }
  return std::nullopt;
}

std::optional<ConstraintMode> getConstraintMode(ConstraintsChoice choice) {
  switch (choice) {
  case ConstraintsChoice::Module:
    return std::nullopt;
  case ConstraintsChoice::Obey:
    return ConstraintMode::Obey;
  case ConstraintsChoice::Prefer:
    return ConstraintMode::Prefer;
  case ConstraintsChoice::None:
    return ConstraintMode::None;
  }
  return std::nullopt;
}

ConstraintsChoice getConstraintsChoice(ConstraintMode mode) {
  switch (mode) {
  case ConstraintMode::Obey:
    return ConstraintsChoice::Obey;
  case ConstraintMode::Prefer:
    return ConstraintsChoice::Prefer;
  case ConstraintMode::None:
    return ConstraintsChoice::None;
  }
  return ConstraintsChoice::Module;
}

} // namespace prec
