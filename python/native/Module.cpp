//===- Module.cpp - the prec._prec extension module -----------------------===//
//
// Binds Model and Program (Program.h) and the search and comparison
// functions for the Python package in python/prec, which is the API users
// see; this module is its private half.
//
//===----------------------------------------------------------------------===//

#include "python/native/Program.h"

#include "drivers/PrecDebug.h"
#include "runtime/Compare.h"
#include "support/ScratchDirectory.h"

#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace prec;
using namespace prec::python;

namespace {

py::list toPython(const std::vector<Binding> &bindings) {
  py::list list;
  for (const Binding &binding : bindings)
    list.append(py::make_tuple(
        binding.name, getElementKindName(binding.kind).str(), binding.shape));
  return list;
}

py::list toTextList(const std::vector<std::string> &texts) {
  py::list list;
  for (const std::string &text : texts)
    list.append(toText(text));
  return list;
}

py::dict toPython(const NamedTensors &tensors) {
  py::dict dict;
  for (const auto &[name, tensor] : tensors)
    dict[toText(name)] = toNumpy(tensor);
  return dict;
}

void writeText(const std::string &path, llvm::StringRef text) {
  std::error_code error;
  llvm::raw_fd_ostream file(path, error);
  if (error)
    raiseError("cannot write '" + path + "': " + error.message(), {});
  file << text;
}

template <typename Enum>
Enum parseName(llvm::StringRef value, std::initializer_list<Enum> choices,
               llvm::StringRef (*name)(Enum), llvm::StringRef what) {
  for (Enum choice : choices)
    if (name(choice) == value)
      return choice;
  std::string names;
  for (Enum choice : choices)
    names += (names.empty() ? "" : ", ") + name(choice).str();
  raiseError("unknown " + what.str() + " '" + value.str() + "' (" + names + ")",
             {});
}

/// prec-debug on `model` with inputs and goldens held in memory.
py::dict debugPrecision(Model &model, const py::dict &options,
                        const py::object &inputs, const py::object &golden) {
  llvm::Expected<ScratchDirectory> created =
      ScratchDirectory::create("prec-python");
  if (!created)
    raiseError(created.takeError());
  ScratchDirectory &scratch = *created;
  PrecDebugOptions debug;
  debug.modelPath = scratch.file("model.mlir");
  writeText(debug.modelPath, model.print());
  debug.mode = parseName(options["mode"].cast<std::string>(),
                         {SearchMode::Bisect, SearchMode::Linear,
                          SearchMode::WorstFirst, SearchMode::Delta},
                         getSearchModeName, "mode");
  debug.direction =
      parseName(options["direction"].cast<std::string>(),
                {SearchDirection::Forward, SearchDirection::Reverse},
                getSearchDirectionName, "direction");
  debug.enabled = options["enabled"].cast<std::vector<std::string>>();
  std::string constraints = options["constraints"].cast<std::string>();
  std::optional<precision::ConstraintMode> mode =
      precision::symbolizeConstraintMode(constraints);
  if (!mode)
    raiseError(
        "unknown constraints '" + constraints + "' (obey, prefer or none)", {});
  debug.constraints = *mode;
  debug.target = options["target"].cast<std::string>();
  debug.precision = options["precision"].cast<std::string>();
  if (!options["calibration"].is_none()) {
    debug.calibration = scratch.file("calibration.json");
    writeText(debug.calibration, options["calibration"].cast<std::string>());
  }
  if (!inputs.is_none()) {
    debug.inputs.loadInputs = scratch.file("inputs.npz");
    if (llvm::Error error =
            writeNpz(debug.inputs.loadInputs,
                     toNamedTensors(inputs.cast<py::dict>(), "input")))
      raiseError(std::move(error));
  }
  debug.inputs.valRanges =
      options["val_ranges"].cast<std::vector<std::string>>();
  debug.inputs.seed = options["seed"].cast<uint64_t>();
  if (!golden.is_none()) {
    debug.golden = scratch.file("golden.npz");
    if (llvm::Error error =
            writeNpz(debug.golden,
                     toNamedTensors(golden.cast<py::dict>(), "golden output")))
      raiseError(std::move(error));
  }
  debug.tolerances.atol = options["atol"].cast<std::vector<std::string>>();
  debug.tolerances.rtol = options["rtol"].cast<std::vector<std::string>>();
  debug.tolerances.checkErrorStat =
      options["check_error_stat"].cast<std::string>();
  debug.tolerances.errorQuantile = options["error_quantile"].cast<double>();
  debug.reportGraph = options["report_graph"].cast<std::string>();
  debug.firstNonfinite = options["first_nonfinite"].cast<bool>();
  debug.compileOnce = options["compile_once"].cast<bool>();
  debug.verifyCompileOnce = options["verify_compile_once"].cast<bool>();

  std::string log, errors;
  llvm::raw_string_ostream out(log), err(errors);
  PrecDebugSummary summary;
  int status = runPrecDebug(debug, getRegistry(), out, err, &summary);
  if (status == 2)
    raiseError(llvm::StringRef(errors).rtrim().str(), {});
  py::dict result;
  result["passed"] = status == 0;
  result["kept_layers"] = toTextList(summary.keptLayers);
  result["kept_ops"] = toTextList(summary.keptOps);
  result["error"] = summary.error;
  result["evaluations"] = summary.evaluations;
  result["plan"] = toText(summary.plan);
  py::list introduced;
  for (const auto &[layer, error] : summary.introduced)
    introduced.append(py::make_tuple(toText(layer), error));
  result["introduced"] = introduced;
  result["log"] = toText(log);
  return result;
}

py::dict compare(const py::array &actual, const py::array &expected,
                 const py::dict &options) {
  Tolerances tolerances;
  tolerances.atol = options["atol"].cast<double>();
  tolerances.rtol = options["rtol"].cast<double>();
  std::string stat = options["check_error_stat"].cast<std::string>();
  std::optional<ErrorStat> parsed = parseErrorStat(stat);
  if (!parsed)
    raiseError("unknown check_error_stat '" + stat +
                   "' (elemwise, max, mean, median or quantile)",
               {});
  tolerances.stat = *parsed;
  tolerances.quantile = options["error_quantile"].cast<double>();
  tolerances.infinitiesCompareEqual =
      options["infinities_compare_equal"].cast<bool>();
  ComparisonResult result = compareTensors(
      toHostTensor(actual, std::nullopt, "actual"),
      toHostTensor(expected, std::nullopt, "expected"), tolerances);
  if (!result.mismatch.empty())
    raiseError(result.mismatch, {});
  py::dict stats;
  stats["passed"] = result.passed;
  stats["max_absolute"] = result.maxAbsolute;
  stats["mean_absolute"] = result.meanAbsolute;
  stats["median_absolute"] = result.medianAbsolute;
  stats["max_relative"] = result.maxRelative;
  stats["mean_relative"] = result.meanRelative;
  stats["median_relative"] = result.medianRelative;
  stats["worst_index"] = result.worstIndex;
  stats["worst_actual"] = result.worstActual;
  stats["worst_expected"] = result.worstExpected;
  stats["actual_nans"] = result.actualNaNs;
  stats["actual_infs"] = result.actualInfs;
  stats["expected_nans"] = result.expectedNaNs;
  stats["expected_infs"] = result.expectedInfs;
  stats["failing_elements"] = result.failingElements;
  return stats;
}

} // namespace

PYBIND11_MODULE(_prec, m) {
  m.doc() = "prec's compiler, bound for the prec package (use `prec`)";

  py::class_<Model, std::shared_ptr<Model>>(m, "Model")
      .def_static("load", &Model::load, py::arg("data"), py::arg("name"),
                  py::arg("onnx"), py::arg("input_shapes"))
      .def(
          "legalize",
          [](Model &model, std::vector<std::string> enabled, std::string typing,
             std::string constraints, std::string target,
             std::vector<std::string> layerPrecisions,
             std::vector<std::string> layerOutputTypes,
             std::vector<std::string> valRanges,
             std::vector<std::string> ioTypes, std::string bindingLayout,
             std::optional<std::string> calibration,
             std::optional<std::string> plan, bool quantizeResiduals) {
            Policy policy{std::move(enabled),
                          std::move(typing),
                          std::move(constraints),
                          std::move(target),
                          std::move(bindingLayout),
                          std::move(layerPrecisions),
                          std::move(layerOutputTypes),
                          std::move(valRanges),
                          std::move(ioTypes),
                          std::move(calibration),
                          std::move(plan),
                          quantizeResiduals};
            return model.legalize(policy);
          },
          py::arg("enabled"), py::arg("typing"), py::arg("constraints"),
          py::arg("target"), py::arg("layer_precisions"),
          py::arg("layer_output_types"), py::arg("val_ranges"),
          py::arg("io_types"), py::arg("binding_layout"),
          py::arg("calibration"), py::arg("plan"),
          py::arg("quantize_residuals"))
      .def(
          "calibrate",
          [](Model &model, const py::list &batches, std::string algorithm,
             double percentile, int64_t batchSize) {
            std::vector<NamedTensors> chunks;
            for (py::handle batch : batches)
              chunks.push_back(
                  toNamedTensors(batch.cast<py::dict>(), "calibration input"));
            std::string summary;
            std::string calibration = model.calibrate(
                std::move(chunks), algorithm, percentile, batchSize, summary);
            return py::make_tuple(toText(calibration), toText(summary));
          },
          py::arg("batches"), py::arg("algorithm"), py::arg("percentile"),
          py::arg("batch_size"))
      .def("reference", &Model::reference)
      .def("input_names",
           [](const Model &model) { return toTextList(model.getInputNames()); })
      .def("mlir", [](const Model &model) { return toText(model.print()); });

  py::class_<Program, std::shared_ptr<Program>>(m, "Program")
      .def_property_readonly(
          "inputs", [](const Program &p) { return toPython(p.getInputs()); })
      .def_property_readonly(
          "outputs", [](const Program &p) { return toPython(p.getOutputs()); })
      .def_property_readonly(
          "report_json", [](const Program &p) { return toText(p.getReport()); })
      .def_property_readonly(
          "warnings",
          [](const Program &p) { return python::toPython(p.getWarnings()); })
      .def_property_readonly("model", &Program::getModel)
      .def("mlir", [](const Program &p) { return toText(p.print()); })
      .def(
          "run",
          [](Program &program, const py::dict &arrays) {
            return toPython(program.run(toNamedTensors(arrays, "input")));
          },
          py::arg("arrays"))
      .def("build_engine", &Program::buildEngine, py::arg("directory"),
           py::arg("name"), py::arg("batch"), py::arg("batch_inputs"),
           py::arg("nvcc"), py::arg("arch"));

  m.def("debug_precision", &debugPrecision, py::arg("model"),
        py::arg("options"), py::arg("inputs"), py::arg("golden"));
  m.def("compare", &compare, py::arg("actual"), py::arg("expected"),
        py::arg("options"));
}
