//===- PlanFile.cpp - precision plans -------------------------------------===//

#include "formats/PlanFile.h"

#include "support/Errors.h"
#include "support/NestingDepth.h"

#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace prec {

bool PlanOpEntry::matches(Operation *op) const {
  if (opName && !opName->match(op->getName().getStringRef()))
    return false;
  if (name) {
    std::string opNameText = getLayerName(op);
    if (opNameText.empty() || !name->match(opNameText))
      return false;
  }
  return true;
}

namespace {

/// Parses one JSON object of the plan, naming its place (`ops[2]`) in errors.
class EntryParser {
public:
  EntryParser(const llvm::json::Object &object, std::string place,
              MLIRContext *context)
      : object(object), place(std::move(place)), context(context) {}

  llvm::Error checkKeys(ArrayRef<StringRef> allowed) {
    for (const auto &member : object) {
      StringRef key = member.first;
      if (!llvm::is_contained(allowed, key))
        return error("unknown key '" + key + "'; expected " +
                     llvm::join(allowed, ", "));
    }
    return llvm::Error::success();
  }

  llvm::Expected<std::optional<StringRef>> getString(StringRef key) {
    const llvm::json::Value *value = object.get(key);
    if (!value)
      return std::nullopt;
    std::optional<StringRef> text = value->getAsString();
    if (!text)
      return error("'" + key + "' must be a string");
    return text;
  }

  llvm::Expected<Type> getType(StringRef key) {
    llvm::Expected<std::optional<StringRef>> text = getString(key);
    if (!text)
      return text.takeError();
    if (!*text)
      return Type();
    Type type = precision::parsePrecisionType(context, **text);
    if (!type)
      return error("'" + key + "' names unknown precision '" + **text +
                   "'; expected " + precision::getPrecisionTypeSpellings());
    return type;
  }

  llvm::Expected<std::optional<NamePattern>> getGlob(StringRef key) {
    llvm::Expected<std::optional<StringRef>> text = getString(key);
    if (!text)
      return text.takeError();
    if (!*text)
      return std::nullopt;
    if ((*text)->empty())
      return error("'" + key + "' is empty");
    llvm::Expected<NamePattern> glob = NamePattern::create(**text);
    if (!glob)
      return error("'" + key + "' is a malformed pattern: " +
                   llvm::toString(glob.takeError()));
    return std::optional<NamePattern>(std::move(*glob));
  }

  llvm::Expected<PlanRequest> getRequest() {
    PlanRequest request;
    for (auto [key, slot] : {std::pair{"compute", &request.compute},
                             std::pair{"accumulate", &request.accumulate},
                             std::pair{"output", &request.output}}) {
      llvm::Expected<Type> type = getType(key);
      if (!type)
        return type.takeError();
      *slot = *type;
    }
    if (!request.compute && !request.output)
      return error("needs 'compute' or 'output'");
    llvm::Expected<std::optional<StringRef>> mode = getString("mode");
    if (!mode)
      return mode.takeError();
    if (*mode) {
      request.mode = precision::symbolizeConstraintMode(**mode);
      if (!request.mode)
        return error("'mode' must be obey, prefer or none, not '" + **mode +
                     "'");
    }
    return request;
  }

  llvm::Error error(const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   place + ": " + message.str());
  }

private:
  const llvm::json::Object &object;
  std::string place;
  MLIRContext *context;
};

} // namespace

llvm::Expected<PrecisionPlan> parsePlan(StringRef text, MLIRContext *context) {
  if (llvm::Error error = checkNestingDepth(text, ""))
    return std::move(error);
  llvm::Expected<llvm::json::Value> document = llvm::json::parse(text);
  if (!document)
    return makeError("not valid JSON: " + llvm::toString(document.takeError()));
  const llvm::json::Object *root = document->getAsObject();
  if (!root)
    return makeError("the plan must be a JSON object");
  for (const auto &member : *root) {
    StringRef key = member.first;
    if (!llvm::is_contained({"version", "ops", "classes"}, key))
      return makeError("unknown key '" + key +
                       "'; expected version, ops, classes");
  }
  std::optional<int64_t> version = root->getInteger("version");
  if (!version || *version != 1)
    return makeError("'version' must be 1");

  PrecisionPlan plan;
  auto forEachEntry =
      [&](StringRef key,
          llvm::function_ref<llvm::Error(EntryParser &)> fn) -> llvm::Error {
    const llvm::json::Value *value = root->get(key);
    if (!value)
      return llvm::Error::success();
    const llvm::json::Array *array = value->getAsArray();
    if (!array)
      return makeError("'" + key + "' must be an array");
    for (auto [index, element] : llvm::enumerate(*array)) {
      std::string place = (key + "[" + llvm::Twine(index) + "]").str();
      const llvm::json::Object *object = element.getAsObject();
      if (!object)
        return makeError(place + ": must be an object");
      EntryParser parser(*object, place, context);
      if (llvm::Error error = fn(parser))
        return error;
    }
    return llvm::Error::success();
  };

  if (llvm::Error error =
          forEachEntry("ops", [&](EntryParser &parser) -> llvm::Error {
            if (llvm::Error error = parser.checkKeys(
                    {"name", "op", "compute", "accumulate", "output", "mode"}))
              return error;
            PlanOpEntry entry;
            llvm::Expected<std::optional<NamePattern>> name =
                parser.getGlob("name");
            if (!name)
              return name.takeError();
            llvm::Expected<std::optional<NamePattern>> opName =
                parser.getGlob("op");
            if (!opName)
              return opName.takeError();
            if (!*name && !*opName)
              return parser.error("needs 'name' or 'op'");
            llvm::Expected<PlanRequest> request = parser.getRequest();
            if (!request)
              return request.takeError();
            entry.name = std::move(*name);
            entry.opName = std::move(*opName);
            entry.request = *request;
            plan.ops.push_back(std::move(entry));
            return llvm::Error::success();
          }))
    return std::move(error);

  if (llvm::Error error =
          forEachEntry("classes", [&](EntryParser &parser) -> llvm::Error {
            if (llvm::Error error = parser.checkKeys(
                    {"class", "compute", "accumulate", "output", "mode"}))
              return error;
            llvm::Expected<std::optional<StringRef>> className =
                parser.getString("class");
            if (!className)
              return className.takeError();
            if (!*className)
              return parser.error("needs 'class'");
            std::optional<OpClass> opClass = parseOpClassName(**className);
            if (!opClass)
              return parser.error("unknown class '" + **className +
                                  "'; expected " + getOpClassSpellings());
            llvm::Expected<PlanRequest> request = parser.getRequest();
            if (!request)
              return request.takeError();
            plan.classes.push_back({*opClass, *request});
            return llvm::Error::success();
          }))
    return std::move(error);
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
