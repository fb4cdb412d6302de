#include "settings.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace twinblocks::python {

namespace {

const char kSettingNames[] =
    "solver, t_start, t_end, step, rtol, atol, auto_scale_atol, max_step, initial_step, "
    "output_interval, zero_crossings, fixed_step_zero_crossings, jacobian_steps, jacobian_method, "
    "sample_hits, "
    "max_consecutive_zc, zc_time_tolerance";

double Number(py::handle value, const std::string& name) {
  if (py::isinstance<py::bool_>(value) || !PyNumber_Check(value.ptr()) ||
      py::isinstance<py::str>(value)) {
    throw py::type_error("setting '" + name + "': expected a number, got " +
                         std::string(py::repr(value)));
  }
  return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
}

/// A count such as jacobian_steps: a whole number from 1 to `most`.
int WholeNumber(py::handle value, const std::string& name, double most) {
  const double n = Number(value, name);
  if (!(n >= 1.0 && n <= most && n == static_cast<double>(static_cast<int>(n)))) {
    throw py::value_error("setting '" + name + "': expected a whole number >= 1, got " +
                          std::string(py::repr(value)));
  }
  return static_cast<int>(n);
}

std::optional<double> OptionalNumber(py::handle value, const std::string& name) {
  if (value.is_none()) return std::nullopt;
  return Number(value, name);
}

}  // namespace

graph::SimulationSettingsValues ApplySettings(graph::SimulationSettingsValues s,
                                              const py::kwargs& settings) {
  for (auto [key, value] : settings) {
    const std::string name = key.cast<std::string>();
    if (name == "solver") {
      if (!py::isinstance<py::str>(value)) {
        throw py::type_error("setting 'solver': expected a solver name, got " +
                             std::string(py::repr(value)));
      }
      s.solver = value.cast<std::string>();
    } else if (name == "t_start") {
      s.t_start = Number(value, name);
    } else if (name == "t_end") {
      s.t_end = Number(value, name);
    } else if (name == "step") {
      s.step = OptionalNumber(value, name);
    } else if (name == "rtol") {
      s.rtol = OptionalNumber(value, name);
    } else if (name == "atol" && py::isinstance<py::str>(value)) {
      // Simulink's `auto`: from rtol, scaled with the states.
      if (value.cast<std::string>() != "auto") {
        throw py::value_error("setting 'atol': expected a positive number, None or 'auto', got " +
                              std::string(py::repr(value)));
      }
      s.atol.reset();
      s.auto_scale_atol = true;
    } else if (name == "atol") {
      s.atol = OptionalNumber(value, name);
    } else if (name == "max_step") {
      s.max_step = OptionalNumber(value, name);
    } else if (name == "initial_step") {
      s.initial_step = OptionalNumber(value, name);
    } else if (name == "output_interval") {
      s.output_interval = OptionalNumber(value, name);
    } else if (name == "zero_crossings" || name == "fixed_step_zero_crossings" ||
               name == "auto_scale_atol") {
      if (!py::isinstance<py::bool_>(value)) {
        throw py::type_error("setting '" + name + "': expected True or False, got " +
                             std::string(py::repr(value)));
      }
      (name == "zero_crossings"              ? s.zero_crossings
       : name == "fixed_step_zero_crossings" ? s.fixed_step_zero_crossings
                                             : s.auto_scale_atol) = value.cast<bool>();
    } else if (name == "jacobian_steps") {
      if (value.is_none()) {
        s.jacobian_steps.reset();
      } else {
        s.jacobian_steps = WholeNumber(value, name, 1e6);
      }
    } else if (name == "sample_hits" || name == "jacobian_method") {
      const bool hits = name == "sample_hits";
      if (!py::isinstance<py::str>(value)) {
        throw py::type_error(
            "setting '" + name + "': expected " +
            (hits ? "'land' or 'step_over'" : "'auto', 'perturbation' or 'blocks'") + ", got " +
            std::string(py::repr(value)));
      }
      try {
        if (hits) {
          s.sample_hits = graph::ParseSampleHits(value.cast<std::string>());
        } else {
          s.jacobian_method = graph::ParseJacobianMethod(value.cast<std::string>());
        }
      } catch (const std::invalid_argument& e) {
        throw py::value_error(std::string("setting ") + e.what());
      }
    } else if (name == "max_consecutive_zc") {
      s.max_consecutive_zc = WholeNumber(value, name, 1e9);
    } else if (name == "zc_time_tolerance") {
      const double v = Number(value, name);
      if (!(v >= 0.0 && v < 1.0)) {
        throw py::value_error("setting 'zc_time_tolerance': expected a number in [0, 1), got " +
                              std::string(py::repr(value)));
      }
      s.zc_time_tolerance = v;
    } else {
      throw py::type_error("unknown simulation setting '" + name +
                           "'; expected one of: " + kSettingNames);
    }
  }
  return s;
}

py::dict SettingsDict(const graph::SimulationSettingsValues& s) {
  auto optional = [](const std::optional<double>& v) -> py::object {
    return v ? py::object(py::float_(*v)) : py::object(py::none());
  };
  py::dict d;
  d["solver"] = s.solver;
  d["t_start"] = s.t_start;
  d["t_end"] = s.t_end;
  d["step"] = optional(s.step);
  d["rtol"] = optional(s.rtol);
  d["atol"] = !s.atol && s.auto_scale_atol ? py::object(py::str("auto")) : optional(s.atol);
  d["auto_scale_atol"] = s.auto_scale_atol;
  d["max_step"] = optional(s.max_step);
  d["initial_step"] = optional(s.initial_step);
  d["output_interval"] = optional(s.output_interval);
  d["zero_crossings"] = s.zero_crossings;
  d["fixed_step_zero_crossings"] = s.fixed_step_zero_crossings;
  d["jacobian_steps"] =
      s.jacobian_steps ? py::object(py::int_(*s.jacobian_steps)) : py::object(py::none());
  d["sample_hits"] =
      s.sample_hits == graph::SimulationSettingsValues::SampleHits::kLand ? "land" : "step_over";
  d["jacobian_method"] = graph::JacobianMethodWord(s.jacobian_method);
  d["max_consecutive_zc"] = s.max_consecutive_zc;
  d["zc_time_tolerance"] = s.zc_time_tolerance;
  return d;
}

}  // namespace twinblocks::python
