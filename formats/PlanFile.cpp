//===- PlanFile.cpp - precision plans -------------------------------------===//

#include "formats/PlanFile.h"

#include "support/Errors.h"
#include "support/JSONDocument.h"

#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using llvm::json::Path;

namespace prec {

bool PlanOpEntry::matches(Operation *op) const {
  if (opName && !opName->match(op->getName().getStringRef()))
    return false;
  if (name) {
    std::string opNameText = getLayerName(op).str();
    if (opNameText.empty() || !name->match(opNameText))
      return false;
  }
  return true;
}

namespace {

/// Maps a plan's JSON onto a PrecisionPlan in the way of llvm::json's
/// fromJSON functions, reporting through `path` where a value does not fit
/// (`ops[2].mode`). A class rather than fromJSON overloads, since the types
/// are made in `context`.
class PlanReader {
public:
  explicit PlanReader(MLIRContext *context) : context(context) {}

  bool mapPlan(const llvm::json::Value &value, PrecisionPlan &plan, Path path);

  /// The error reported under `root`, followed by its detail.
  llvm::Error getError(const Path::Root &root) const {
    return makeError(llvm::toString(root.getError()) + detail);
  }

private:
  template <typename Entry>
  using EntryMapper = bool (PlanReader::*)(const llvm::json::Value &, Entry &,
                                           Path);

  /// Path::report keeps only string literals: what the message quotes from
  /// the document, or lists as allowed, goes to `detail`.
  bool fail(Path path, llvm::StringLiteral message,
            const llvm::Twine &messageDetail = "") {
    path.report(message);
    detail = messageDetail.str();
    return false;
  }

  bool checkObject(const llvm::json::Value &value, ArrayRef<StringRef> keys,
                   Path path);
  template <typename Entry>
  bool mapEntries(const llvm::json::Object &plan, StringRef key,
                  std::vector<Entry> &entries, Path path,
                  EntryMapper<Entry> mapEntry);
  bool mapOpEntry(const llvm::json::Value &value, PlanOpEntry &entry,
                  Path path);
  bool mapClassRule(const llvm::json::Value &value, PlanClassRule &rule,
                    Path path);
  bool mapRequest(const llvm::json::Object &entry, PlanRequest &request,
                  Path path);
  bool mapString(const llvm::json::Object &entry, StringRef key,
                 std::optional<StringRef> &text, Path path);
  bool mapType(const llvm::json::Object &entry, StringRef key, Type &type,
               Path path);
  bool mapGlob(const llvm::json::Object &entry, StringRef key,
               std::optional<NamePattern> &glob, Path path);
  bool mapMode(const llvm::json::Object &entry,
               std::optional<precision::ConstraintMode> &mode, Path path);

  MLIRContext *context;
  /// What follows the path in the error: "; expected ...", ": '<value>'".
  std::string detail;
};

bool PlanReader::mapPlan(const llvm::json::Value &value, PrecisionPlan &plan,
                         Path path) {
  if (!checkObject(value, {"version", "ops", "classes"}, path))
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  if (object.getInteger("version") != 1)
    return fail(path.field("version"), "must be 1");
  return mapEntries(object, "ops", plan.ops, path, &PlanReader::mapOpEntry) &&
         mapEntries(object, "classes", plan.classes, path,
                    &PlanReader::mapClassRule);
}

/// Whether `value` is an object of only `keys`: a misspelt key would
/// otherwise be ignored without a word.
bool PlanReader::checkObject(const llvm::json::Value &value,
                             ArrayRef<StringRef> keys, Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper) // In the plan's words rather than "expected object".
    return fail(path, "must be an object");
  for (const auto &member : *value.getAsObject()) {
    StringRef key = member.first;
    if (!llvm::is_contained(keys, key))
      return fail(path.field(key), "unknown key",
                  "; expected " + llvm::join(keys, ", "));
  }
  return true;
}

/// Maps each element of the array at `key`, if the plan has one.
template <typename Entry>
bool PlanReader::mapEntries(const llvm::json::Object &plan, StringRef key,
                            std::vector<Entry> &entries, Path path,
                            EntryMapper<Entry> mapEntry) {
  const llvm::json::Value *value = plan.get(key);
  if (!value)
    return true;
  Path arrayPath = path.field(key);
  const llvm::json::Array *array = value->getAsArray();
  if (!array)
    return fail(arrayPath, "must be an array");
  for (auto [index, element] : llvm::enumerate(*array)) {
    if (!(this->*mapEntry)(element, entries.emplace_back(),
                           arrayPath.index(index)))
      return false;
  }
  return true;
}

bool PlanReader::mapOpEntry(const llvm::json::Value &value, PlanOpEntry &entry,
                            Path path) {
  if (!checkObject(value,
                   {"name", "op", "compute", "accumulate", "output", "mode"},
                   path))
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  if (!mapGlob(object, "name", entry.name, path) ||
      !mapGlob(object, "op", entry.opName, path))
    return false;
  if (!entry.name && !entry.opName)
    return fail(path, "needs 'name' or 'op'");
  return mapRequest(object, entry.request, path);
}

bool PlanReader::mapClassRule(const llvm::json::Value &value,
                              PlanClassRule &rule, Path path) {
  if (!checkObject(value, {"class", "compute", "accumulate", "output", "mode"},
                   path))
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  std::optional<StringRef> className;
  if (!mapString(object, "class", className, path))
    return false;
  if (!className)
    return fail(path, "needs 'class'");
  std::optional<OpClass> opClass = parseOpClassName(*className);
  if (!opClass)
    return fail(path.field("class"), "unknown class",
                ": '" + *className + "'; expected " + getOpClassSpellings());
  rule.opClass = *opClass;
  return mapRequest(object, rule.request, path);
}

bool PlanReader::mapRequest(const llvm::json::Object &entry,
                            PlanRequest &request, Path path) {
  if (!mapType(entry, "compute", request.compute, path) ||
      !mapType(entry, "accumulate", request.accumulate, path) ||
      !mapType(entry, "output", request.output, path))
    return false;
  if (!request.compute && !request.output)
    return fail(path, "needs 'compute' or 'output'");
  return mapMode(entry, request.mode, path);
}

/// The string at `key`, if the entry has one; null is not a string.
bool PlanReader::mapString(const llvm::json::Object &entry, StringRef key,
                           std::optional<StringRef> &text, Path path) {
  const llvm::json::Value *value = entry.get(key);
  if (!value)
    return true;
  text = value->getAsString();
  return text || fail(path.field(key), "must be a string");
}

bool PlanReader::mapType(const llvm::json::Object &entry, StringRef key,
                         Type &type, Path path) {
  std::optional<StringRef> text;
  if (!mapString(entry, key, text, path))
    return false;
  if (!text)
    return true;
  type = precision::parsePrecisionType(context, *text);
  return type || fail(path.field(key), "names unknown precision",
                      ": '" + *text + "'; expected " +
                          precision::getPrecisionTypeSpellings());
}

bool PlanReader::mapGlob(const llvm::json::Object &entry, StringRef key,
                         std::optional<NamePattern> &glob, Path path) {
  std::optional<StringRef> text;
  if (!mapString(entry, key, text, path))
    return false;
  if (!text)
    return true;
  if (text->empty())
    return fail(path.field(key), "is empty");
  llvm::Expected<NamePattern> pattern = NamePattern::create(*text);
  if (!pattern)
    return fail(path.field(key), "is a malformed pattern",
                ": " + llvm::toString(pattern.takeError()));
  glob = std::move(*pattern);
  return true;
}

bool PlanReader::mapMode(const llvm::json::Object &entry,
                         std::optional<precision::ConstraintMode> &mode,
                         Path path) {
  std::optional<StringRef> text;
  if (!mapString(entry, "mode", text, path))
    return false;
  if (!text)
    return true;
  mode = precision::symbolizeConstraintMode(*text);
  return mode || fail(path.field("mode"), "must be obey, prefer or none",
                      ", not '" + *text + "'");
}

} // namespace

llvm::Expected<PrecisionPlan> parsePlan(StringRef text, MLIRContext *context) {
  llvm::Expected<llvm::json::Value> document = parseJSONDocument(text);
  if (!document)
    return document.takeError();
  PrecisionPlan plan;
  PlanReader reader(context);
  Path::Root root("plan");
  if (!reader.mapPlan(*document, plan, root))
    return reader.getError(root);
  return plan;
}

static void writeRequest(llvm::json::OStream &json,
                         const PlanRequest &request) {
  auto typeName = [](Type type) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    return text;
  };
  if (request.compute)
    json.attribute("compute", typeName(request.compute));
  if (request.accumulate)
    json.attribute("accumulate", typeName(request.accumulate));
  if (request.output)
    json.attribute("output", typeName(request.output));
  if (request.mode)
    json.attribute("mode", precision::stringifyConstraintMode(*request.mode));
}

std::string serializePlan(const PrecisionPlan &plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("version", 1);
    json.attributeArray("ops", [&] {
      for (const PlanOpEntry &entry : plan.ops)
        json.object([&] {
          if (entry.name)
            json.attribute("name", entry.name->getText());
          if (entry.opName)
            json.attribute("op", entry.opName->getText());
          writeRequest(json, entry.request);
        });
    });
    if (!plan.classes.empty())
      json.attributeArray("classes", [&] {
        for (const PlanClassRule &rule : plan.classes)
          json.object([&] {
            json.attribute("class", getOpClassName(rule.opClass));
            writeRequest(json, rule.request);
          });
      });
  });
  os << "\n";
  return text;
}

llvm::Expected<PrecisionPlan> loadPlanFile(StringRef path,
                                           MLIRContext *context) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read plan file '" + path +
                     "': " + buffer.getError().message());
  llvm::Expected<PrecisionPlan> plan =
      parsePlan((*buffer)->getBuffer(), context);
  if (!plan)
    return makeError("plan file '" + path +
                     "': " + llvm::toString(plan.takeError()));
  return plan;
}

} // namespace prec
