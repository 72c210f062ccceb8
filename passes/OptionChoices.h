//===- OptionChoices.h - options with a fixed set of values -----*- C++ -*-===//
//
// The values of the precision passes' enumerated options. `Module` keeps what
// the module's `precision.policy` already says; the others override it.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_OPTIONCHOICES_H
#define PREC_PASSES_OPTIONCHOICES_H

#include "dialects/Precision/PrecisionAttrs.h"

#include <optional>

namespace prec {

/// prec-annotate's `typing`.
enum class TypingChoice { Module, Strong, Weak };

/// prec-annotate's `constraints`: the mode of pinned ops that name none.
enum class ConstraintsChoice { Module, Obey, Prefer, None };

/// prec-binding-layout's `layout`: the memory layout of 4-D bindings.
enum class BindingLayout { NCHW, NHWC };

/// The mode a choice sets; std::nullopt for `Module`.
std::optional<precision::TypingMode> getTypingMode(TypingChoice choice);
std::optional<precision::ConstraintMode>
getConstraintMode(ConstraintsChoice choice);
/// The choice that sets `mode`.
ConstraintsChoice getConstraintsChoice(precision::ConstraintMode mode);

} // namespace prec

// The cl::values of the options, shared by the passes and the pipeline.
#define PREC_TYPING_VALUES                                                     \
  ::llvm::cl::values(                                                          \
      clEnumValN(::prec::TypingChoice::Module, "module",                       \
                 "what the module's policy says, else weak (default)"),        \
      clEnumValN(::prec::TypingChoice::Strong, "strong",                       \
                 "ops keep the types the model gives them"),                   \
      clEnumValN(::prec::TypingChoice::Weak, "weak",                           \
                 "the compiler may lower enabled ops"))
#define PREC_CONSTRAINTS_VALUES                                                \
  ::llvm::cl::values(                                                          \
      clEnumValN(::prec::ConstraintsChoice::Module, "module",                  \
                 "what the module's policy says, else prefer (default)"),      \
      clEnumValN(::prec::ConstraintsChoice::Obey, "obey",                      \
                 "a pin the target cannot honour is an error"),                \
      clEnumValN(::prec::ConstraintsChoice::Prefer, "prefer",                  \
                 "such a pin falls back, with a warning"),                     \
      clEnumValN(::prec::ConstraintsChoice::None, "none",                      \
                 "such a pin falls back silently"))
#define PREC_BINDING_LAYOUT_VALUES                                             \
  ::llvm::cl::values(                                                          \
      clEnumValN(::prec::BindingLayout::NCHW, "nchw",                          \
                 "bindings as the model declares them (default)"),             \
      clEnumValN(::prec::BindingLayout::NHWC, "nhwc",                          \
                 "4-D bindings channels-last"))

#endif // PREC_PASSES_OPTIONCHOICES_H
