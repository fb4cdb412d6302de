// Results: the recorded signals of a run as numpy arrays keyed by signal path or logged name.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.h"
#include "common/suggest.h"
#include "results.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

py::array_t<double> Columns(const graph::Recording& r, int first, int width) {
  py::array_t<double> out({r.num_rows(), width});
  auto view = out.mutable_unchecked<2>();
  for (int row = 0; row < r.num_rows(); ++row) {
    for (int c = 0; c < width; ++c) view(row, c) = r.value(row, first + c);
  }
  return out;
}

}  // namespace

void BindResults(py::module_& m) {
  py::class_<graph::SimulationOutcome>(m, "Outcome",
                                       "How a run ended: ok, the time t it reached (s), and when "
                                       "it failed, the error (what failed, when and where).")
      .def_readonly("ok", &graph::SimulationOutcome::ok,
                    "True when the run reached t_end, or a block of the model stopped it.")
      .def_readonly("t", &graph::SimulationOutcome::t, "The time reached (s).")
      .def_readonly("error", &graph::SimulationOutcome::error, "'' when ok, else the message.")
      .def_readonly("stopped", &graph::SimulationOutcome::stopped,
                    "True when a block of the model ended the run at t (a StopSimulation whose "
                    "input became non-zero): ok, but before t_end.")
      .def_readonly("stopped_by", &graph::SimulationOutcome::stopped_by,
                    "The path of the block that stopped the run, '' when none did.")
      .def("__bool__", [](const graph::SimulationOutcome& o) { return o.ok; })
      .def("__repr__", [](const graph::SimulationOutcome& o) {
        const std::string how = o.stopped ? "stopped by '" + o.stopped_by + "'"
                                : o.ok    ? "ok"
                                          : "failed";
        return "<Outcome " + how + " t=" + graph::FormatNumber(o.t) + (o.ok ? "" : ": " + o.error) +
               ">";
      });

  py::class_<Results>(m, "Results", R"(The recorded signals of a run, and how it ended.

results['hand/palm.contact'] or results['palm'] (a logged signal's source path or its
as-name) is a numpy array of shape (rows, width); results['object_position[2]'] one column
of shape (rows, 1). results.time holds the rows' times. A run that failed keeps the rows up to
the failure: check results.ok (or results.outcome).
)")
      .def(
          "__getitem__",
          [](const Results& r, const std::string& key) {
            const auto slice = r.Find(key);
            if (!slice) {
              std::vector<std::string> names = r.names();
              throw py::key_error("no logged signal '" + key + "'" +
                                  graph::SuggestionFor(key, names) +
                                  "; log it with Model.add_log or compile(..., extra_logs=[...])");
            }
            return Columns(r.recording(), slice->first, slice->width);
          },
          "key"_a,
          "The signal's values, shape (rows, width): by as-name, source 'path.port', or column "
          "name 'name[i]'. Raises KeyError for a signal that is not logged.")
      .def(
          "__contains__",
          [](const Results& r, const std::string& key) { return r.Find(key).has_value(); }, "key"_a)
      .def(
          "__len__", [](const Results& r) { return r.recording().num_rows(); }, "Number of rows.")
      .def("keys", &Results::names, "The logged signals' names, in order.")
      .def_property_readonly(
          "time",
          [](const Results& r) {
            py::array_t<double> t(r.recording().num_rows());
            auto view = t.mutable_unchecked<1>();
            for (int row = 0; row < r.recording().num_rows(); ++row)
              view(row) = r.recording().time(row);
            return t;
          },
          "The rows' times (s), shape (rows,).")
      .def_property_readonly(
          "columns", [](const Results& r) { return r.recording().columns(); },
          "Column names after time: 'name' or 'name[i]' for each element.")
      .def(
          "to_array",
          [](const Results& r) {
            const graph::Recording& rec = r.recording();
            py::array_t<double> out({rec.num_rows(), rec.num_columns() + 1});
            auto view = out.mutable_unchecked<2>();
            for (int row = 0; row < rec.num_rows(); ++row) {
              view(row, 0) = rec.time(row);
              for (int c = 0; c < rec.num_columns(); ++c) view(row, c + 1) = rec.value(row, c);
            }
            return out;
          },
          "Every row as one array, shape (rows, 1 + columns): time, then the columns.")
      .def(
          "write_csv",
          [](const Results& r, const std::string& path) { r.recording().WriteCsv(path); }, "path"_a,
          "Writes CSV as `twinblocks run` does (header time,<columns>; shortest exact numbers). "
          "Raises RuntimeError when the file cannot be written.")
      .def_property_readonly(
          "outcome", [](const Results& r) { return r.outcome(); }, "How the run ended (Outcome).")
      .def_property_readonly(
          "ok", [](const Results& r) { return r.outcome().ok; },
          "True when the run reached t_end, or a block of the model stopped it (outcome.stopped).")
      .def_property_readonly(
          "error", [](const Results& r) { return r.outcome().error; },
          "'' when ok, else what failed, when and where.")
      .def_property_readonly(
          "stats", [](const Results& r) { return r.stats(); },
          "One line: steps, rejected steps, evaluations, wall time, real-time factor.")
      .def("__repr__", [](const Results& r) {
        return "<Results: " + std::to_string(r.recording().num_rows()) + " rows, " +
               std::to_string(r.names().size()) + " signals, " +
               (r.outcome().ok ? std::string("ok")
                               : "failed at t = " + graph::FormatNumber(r.outcome().t)) +
               ">";
      });
}

}  // namespace twinblocks::python
