//===- Report.cpp - explain the precision of every op ---------------------===//

#include "passes/Passes.h"
#include "passes/ReportGraph.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/OpNames.h"
#include "support/NestingDepth.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace prec {
#define GEN_PASS_DEF_PRECREPORT
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

/// `file:line:col` of the op's location, looking through names and fusion.
std::string formatLocation(Location location) {
  std::string text;
  location->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      text = (fileLoc.getFilename().getValue() + ":" +
              llvm::Twine(fileLoc.getLine()) + ":" +
              llvm::Twine(fileLoc.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

struct Row {
  std::string name, op, location, opClass, compute, accumulate, storage, reason,
      detail;
  RequestAttr request;
  int64_t castsInserted = 0;

  /// How rows of two reports are matched: by name, else op and location.
  std::string key() const { return name.empty() ? op + "@" + location : name; }
};

bool isInsertedCast(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasAttr(PrecisionDialect::getInsertedCastAttrName());
}

class ReportPass : public prec::impl::PrecReportBase<ReportPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (!graphFile.empty() &&
        failed(writeReportGraph(getOperation(), graphFile)))
      return signalPassFailure();
    if (reportFile.empty() && tableFile.empty() && baselineFile.empty() &&
        htmlFile.empty())
      return;
    std::vector<Row> rows;
    llvm::DenseSet<Operation *> insertedCasts;
    int64_t epilogues = 0;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(PrecisionDialect::getInsertedCastAttrName()))
        insertedCasts.insert(op);
      if (op->hasAttr(PrecisionDialect::getEpilogueAttrName()))
        ++epilogues;
      auto assignment = op->getAttrOfType<AssignmentAttr>(
          PrecisionDialect::getAssignmentAttrName());
      if (!assignment)
        return;
      Row row;
      row.name = getLayerName(op);
      row.op = op->getName().getStringRef().str();
      row.location = formatLocation(op->getLoc());
      row.opClass = getOpClassName(classifyOp(op)).str();
      row.compute = getTypeName(assignment.getCompute());
      row.accumulate = getTypeName(assignment.getAccumulate());
      row.storage = getTypeName(assignment.getStorage());
      row.reason = stringifyReason(assignment.getReason()).str();
      row.detail = assignment.getDetail().str();
      row.request = op->getAttrOfType<RequestAttr>(
          PrecisionDialect::getRequestAttrName());
      row.castsInserted = llvm::count_if(op->getOperands(), isInsertedCast);
      rows.push_back(std::move(row));
    });

    if (!reportFile.empty() &&
        failed(writeJson(rows, insertedCasts.size(), epilogues)))
      return signalPassFailure();
    if (!tableFile.empty() || !baselineFile.empty())
      if (failed(writeTable(rows, insertedCasts.size(), epilogues)))
        return signalPassFailure();
    if (!htmlFile.empty() &&
        failed(writeHtml(rows, insertedCasts.size(), epilogues)))
      return signalPassFailure();
  }

private:
  LogicalResult writeJson(ArrayRef<Row> rows, int64_t casts,
                          int64_t epilogues) {
    llvm::json::Array ops;
    std::map<std::string, int64_t> perCompute;
    for (const Row &row : rows) {
      llvm::json::Object entry{{"name", row.name},
                               {"op", row.op},
                               {"location", row.location},
                               {"class", row.opClass},
                               {"compute", row.compute},
                               {"accumulate", row.accumulate},
                               {"storage", row.storage},
                               {"reason", row.reason},
                               {"casts_inserted", row.castsInserted}};
      if (!row.detail.empty())
        entry["detail"] = row.detail;
      if (row.request) {
        llvm::json::Object requested{
            {"mode", stringifyConstraintMode(row.request.getMode())},
            {"origin", stringifyReason(row.request.getOrigin())}};
        if (row.request.getCompute())
          requested["compute"] = getTypeName(row.request.getCompute());
        if (row.request.getAccumulate())
          requested["accumulate"] = getTypeName(row.request.getAccumulate());
        if (row.request.getOutput())
          requested["output"] = getTypeName(row.request.getOutput());
        entry["requested"] = std::move(requested);
      }
      ops.push_back(std::move(entry));
      ++perCompute[row.compute];
    }
    llvm::json::Object computeTotals;
    for (const auto &[type, count] : perCompute)
      computeTotals[type] = count;
    PolicyAttr policy = getOperation()->getAttrOfType<PolicyAttr>(
        PrecisionDialect::getPolicyAttrName());
    llvm::json::Object document{
        {"version", 1},
        {"ops", std::move(ops)},
        {"totals", llvm::json::Object{{"ops", int64_t(rows.size())},
                                      {"compute", std::move(computeTotals)},
                                      {"casts_inserted", casts},
                                      {"epilogue_conversions", epilogues}}}};
    if (policy) {
      document["target"] = policy.getTarget();
      document["typing"] = stringifyTypingMode(policy.getTyping());
    }

    std::error_code error;
    llvm::raw_fd_ostream os(reportFile, error, llvm::sys::fs::OF_Text);
    if (error)
      return getOperation().emitError() << "cannot write report '" << reportFile
                                        << "': " << error.message();
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(document)))
       << "\n";
    return success();
  }

  LogicalResult writeTable(ArrayRef<Row> rows, int64_t casts,
                           int64_t epilogues) {
    std::unique_ptr<llvm::raw_fd_ostream> file;
    llvm::raw_ostream *os = &llvm::errs();
    if (!tableFile.empty() && tableFile != "-") {
      std::error_code error;
      file = std::make_unique<llvm::raw_fd_ostream>(tableFile, error,
                                                    llvm::sys::fs::OF_Text);
      if (error)
        return getOperation().emitError()
               << "cannot write report table '" << tableFile
               << "': " << error.message();
      os = file.get();
    }
    if (!baselineFile.empty())
      return writeDiff(*os, rows);

    // The widest reason, "normalization", sets its column's width.
    const char *rowFormat =
        "{0,-20} {1,-22} {2,-8} {3,-10} {4,-8} {5,-13} {6,-5} {7}\n";
    *os << llvm::formatv(rowFormat, "name", "op", "compute", "accumulate",
                         "storage", "reason", "casts", "detail");
    std::map<std::string, int64_t> perCompute;
    for (const Row &row : rows) {
      *os << llvm::formatv(rowFormat, row.name.empty() ? "-" : row.name, row.op,
                           row.compute, row.accumulate, row.storage, row.reason,
                           row.castsInserted, row.detail);
      ++perCompute[row.compute];
    }
    *os << "totals: " << rows.size() << " ops (";
    llvm::interleaveComma(perCompute, *os, [&](const auto &entry) {
      *os << entry.first << ": " << entry.second;
    });
    *os << "), " << casts << " casts inserted, " << epilogues
        << " epilogue conversions\n";
    return success();
  }

  /// The table as one HTML page: rows filled with their compute type's
  /// colour (as in report-graph), a click on a header sorts by it.
  LogicalResult writeHtml(ArrayRef<Row> rows, int64_t casts,
                          int64_t epilogues) {
    std::error_code error;
    llvm::raw_fd_ostream os(htmlFile, error, llvm::sys::fs::OF_Text);
    if (error)
      return getOperation().emitError() << "cannot write report page '"
                                        << htmlFile << "': " << error.message();
    os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
          "<title>prec precision report</title>\n<style>"
          "body{font-family:sans-serif}table{border-collapse:collapse}"
          "td,th{border:1px solid #999;padding:2px 6px;text-align:left}"
          "th{cursor:pointer;background:#eee}</style></head><body>\n"
       << "<h1>Precision report</h1>\n<p>" << rows.size() << " ops, " << casts
       << " casts inserted, " << epilogues << " epilogue conversions</p>\n"
       << "<table id=\"report\"><thead><tr>";
    const char *headers[] = {"name",    "op",     "compute", "accumulate",
                             "storage", "reason", "casts",   "detail"};
    for (auto [column, header] : llvm::enumerate(headers))
      os << "<th onclick=\"sortBy(" << column << ")\">" << header << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const Row &row : rows) {
      os << "<tr style=\"background:" << getComputeColor(row.compute) << "\">";
      for (llvm::StringRef cell :
           {llvm::StringRef(row.name), llvm::StringRef(row.op),
            llvm::StringRef(row.compute), llvm::StringRef(row.accumulate),
            llvm::StringRef(row.storage), llvm::StringRef(row.reason)}) {
        os << "<td>";
        llvm::printHTMLEscaped(cell, os);
        os << "</td>";
      }
      os << "<td>" << row.castsInserted << "</td><td>";
      llvm::printHTMLEscaped(row.detail, os);
      os << "</td></tr>\n";
    }
    os << "</tbody></table>\n<script>\nfunction sortBy(column) {\n"
          "  const body = document.querySelector('#report tbody');\n"
          "  const rows = Array.from(body.rows);\n"
          "  const key = r => r.cells[column].textContent;\n"
          "  const numeric = rows.every(r => key(r) !== '' && "
          "!isNaN(key(r)));\n"
          "  const up = !(body.dataset.column == column && body.dataset.up == "
          "'1');\n"
          "  rows.sort((a, b) => (numeric ? key(a) - key(b) : "
          "key(a).localeCompare(key(b))) * (up ? 1 : -1));\n"
          "  body.dataset.column = column; body.dataset.up = up ? '1' : '0';\n"
          "  rows.forEach(r => body.appendChild(r));\n}\n</script>\n"
          "</body></html>\n";
    return success();
  }

  /// Lists the ops whose types differ from those in the baseline report.
  LogicalResult writeDiff(llvm::raw_ostream &os, ArrayRef<Row> rows) {
    auto fail = [&](const llvm::Twine &why) {
      return getOperation().emitError()
             << "baseline report '" << baselineFile << "': " << why;
    };
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(baselineFile);
    if (!buffer)
      return fail(buffer.getError().message());
    if (llvm::Error error = checkNestingDepth((*buffer)->getBuffer(), ""))
      return fail(llvm::toString(std::move(error)));
    llvm::Expected<llvm::json::Value> document =
        llvm::json::parse((*buffer)->getBuffer());
    if (!document)
      return fail(llvm::toString(document.takeError()));
    const llvm::json::Object *root = document->getAsObject();
    const llvm::json::Array *ops = root ? root->getArray("ops") : nullptr;
    if (!ops)
      return fail("not a prec report (no 'ops' array)");

    llvm::StringMap<Row> baseline;
    for (const llvm::json::Value &value : *ops) {
      const llvm::json::Object *entry = value.getAsObject();
      if (!entry)
        return fail("an entry of 'ops' is not an object");
      Row row;
      auto get = [&](StringRef key) {
        return entry->getString(key).value_or("").str();
      };
      row.name = get("name");
      row.op = get("op");
      row.location = get("location");
      row.compute = get("compute");
      row.accumulate = get("accumulate");
      row.storage = get("storage");
      baseline[row.key()] = row;
    }

    int64_t changes = 0;
    auto label = [](const Row &row) {
      return row.name.empty() ? row.op + " at " + row.location
                              : row.name + " (" + row.op + ")";
    };
    for (const Row &row : rows) {
      auto it = baseline.find(row.key());
      if (it == baseline.end()) {
        os << "added   " << label(row) << ": " << row.compute << "\n";
        ++changes;
        continue;
      }
      const Row &old = it->second;
      if (old.compute != row.compute || old.accumulate != row.accumulate ||
          old.storage != row.storage) {
        os << "changed " << label(row) << ": compute " << old.compute << " -> "
           << row.compute << ", accumulate " << old.accumulate << " -> "
           << row.accumulate << ", storage " << old.storage << " -> "
           << row.storage << "\n";
        ++changes;
      }
      baseline.erase(it);
    }
    for (const auto &entry : baseline) {
      os << "removed " << label(entry.second) << "\n";
      ++changes;
    }
    os << changes << " ops differ from the baseline\n";
    return success();
  }
};

} // namespace
