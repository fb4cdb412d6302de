// Block types written in Python (python/twinblocks/user_block.py): a registered UserBlock
// subclass becomes a block type whose blocks are user blocks (blocks/user/user_block.h) that
// call the Python object's hooks with the GIL held. Everything else (the adapter to the
// simulator's blocks, the parameter conversion, the registry) is the C++ block API's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.h"
#include "blocks/user/block_library.h"
#include "blocks/user/block_types.h"
#include "blocks/user/user_block.h"
#include "param_text.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {

namespace {

// A Python object held by what may be copied or destroyed on a thread without the GIL (the
// std::function of a registered type, a block a sweep's worker thread destroys).
using SharedObject = std::shared_ptr<py::object>;

SharedObject Share(py::object object) {
  return SharedObject(new py::object(std::move(object)), [](py::object* p) {
    if (Py_IsInitialized() == 0) {
      p->release();  // the interpreter is gone: nothing to release it to
    } else {
      py::gil_scoped_acquire gil;
      p->release().dec_ref();
    }
    delete p;
  });
}

// "ZeroDivisionError: float division by zero (in calc_derivatives, at blocks.py:23)": a
// Python exception as one line, where the innermost frame of its traceback was. Called with
// the GIL held.
std::string Describe(const py::error_already_set& e, const std::string& hook) {
  std::string text = py::str(e.type().attr("__name__")).cast<std::string>();
  const std::string message = py::str(e.value()).cast<std::string>();
  if (!message.empty()) text += ": " + message;
  std::string where = "in " + hook;
  if (py::object tb = e.trace(); tb && !tb.is_none()) {
    while (!tb.attr("tb_next").is_none()) tb = tb.attr("tb_next");
    std::string file = py::str(tb.attr("tb_frame").attr("f_code").attr("co_filename"));
    if (const size_t slash = file.rfind('/'); slash != std::string::npos) {
      file = file.substr(slash + 1);
    }
    where += ", at " + file + ":" + py::str(tb.attr("tb_lineno")).cast<std::string>();
  }
  text += " (" + where + ")";
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

// A Python number as a double: floats (numpy's float64 is one) and ints at once, numpy's
// other scalars through AsNumber; nullopt for anything else.
std::optional<double> FastNumber(PyObject* value) {
  if (PyFloat_Check(value)) return PyFloat_AS_DOUBLE(value);
  if (PyLong_Check(value) && !PyBool_Check(value)) {
    const double v = PyLong_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return v;
  }
  return AsNumber(value);
}

// Writes `value` (a number, or a list, tuple or array of `n` numbers) to out[0..n).
// @throws std::runtime_error naming `what` for anything else.
void Store(py::handle value, double* out, int n, const std::string& what) {
  PyObject* v = value.ptr();
  if (std::optional<double> x = FastNumber(v)) {
    if (n != 1) {
      throw std::runtime_error(what + " is one number; expected " + std::to_string(n));
    }
    out[0] = *x;
    return;
  }
  if (PyList_Check(v) || PyTuple_Check(v)) {
    // Lists and tuples item by item: a numpy array made of one costs a microsecond.
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(v);
    if (size != n) {
      throw std::runtime_error(what + " has " + std::to_string(size) + " values; expected " +
                               std::to_string(n));
    }
    PyObject** items = PySequence_Fast_ITEMS(v);
    for (int i = 0; i < n; ++i) {
      std::optional<double> x = FastNumber(items[i]);
      if (!x) {
        throw std::runtime_error(what + " holds " + py::repr(items[i]).cast<std::string>() +
                                 "; expected numbers");
      }
      out[i] = *x;
    }
    return;
  }
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) {
    throw std::runtime_error(what + " is " + py::repr(value).cast<std::string>() +
                             "; expected numbers");
  }
  if (a.size() != n) {
    throw std::runtime_error(what + " has " + std::to_string(a.size()) + " values; expected " +
                             std::to_string(n));
  }
  const double* data = a.data();
  for (int i = 0; i < n; ++i) out[i] = data[i];
}

// What a hook is called with: the arrays x, xd and one per input, and the tuple of the
// inputs' arrays; each a buffer filled anew for every call. GIL held to make and fill.
struct HookArguments {
  py::array_t<double> x, xd;
  std::vector<py::array_t<double>> inputs;
  py::tuple u;

  HookArguments(int nx, int nxd, const std::vector<int>& input_widths)
      : x(nx), xd(nxd), u(input_widths.size()) {
    for (size_t i = 0; i < input_widths.size(); ++i) {
      inputs.emplace_back(input_widths[i]);
      u[i] = inputs.back();
    }
  }

  void Fill(user::Context& c) {
    Copy(c.continuous_state(), &x);
    Copy(c.discrete_state(), &xd);
    for (size_t i = 0; i < inputs.size(); ++i) Copy(c.input(static_cast<int>(i)), &inputs[i]);
  }

  static void Copy(const double* from, py::array_t<double>* to) {
    double* data = to->mutable_data();
    for (py::ssize_t i = 0; i < to->size(); ++i) data[i] = from[i];
  }
};

// A user block whose hooks are a Python object's methods.
class PythonBlock final : public user::Block {
 public:
  /// Reads what the object declared (UserBlock._tb_state). Called with the GIL held.
  /// @throws std::runtime_error when a hook the declarations need is missing
  explicit PythonBlock(const py::object& object) {
    py::dict s = object.attr("_tb_state")();
    for (py::handle p : s["inputs"]) {
      auto [name, width, feedthrough] = p.cast<std::tuple<std::string, int, bool>>();
      DeclareInput(name, width, feedthrough);
      input_widths_.push_back(width);
    }
    for (py::handle p : s["outputs"]) {
      auto [name, width] = p.cast<std::tuple<std::string, int>>();
      DeclareOutput(name, width);
      output_widths_.push_back(width);
    }
    nx_ = s["nx"].cast<int>();
    nxd_ = s["nxd"].cast<int>();
    nzc_ = s["nzc"].cast<int>();
    x0_ = s["x0"].cast<std::vector<double>>();
    xd0_ = s["xd0"].cast<std::vector<double>>();
    DeclareContinuousStates(nx_);
    DeclareDiscreteStates(nxd_);
    DeclareZeroCrossings(nzc_);
    const double period = s["period"].cast<double>();
    if (period != 0.0) DeclareSampleTime(period, s["offset"].cast<double>());

    auto hook = [&](const char* name) -> SharedObject {
      py::object method = py::getattr(object, name, py::none());
      return method.is_none() ? nullptr : Share(std::move(method));
    };
    outputs_ = hook("calc_outputs");
    derivatives_ = hook("calc_derivatives");
    update_ = hook("update");
    reset_ = hook("reset");
    zero_crossings_ = hook("calc_zero_crossings");
    auto require = [&](bool needed, const SharedObject& h, const char* what, const char* name) {
      if (needed && h == nullptr) {
        throw std::runtime_error("the block declares " + std::string(what) + " but its class " +
                                 "defines no " + name);
      }
    };
    require(!output_widths_.empty(), outputs_, "outputs", "calc_outputs");
    require(nx_ > 0, derivatives_, "continuous states", "calc_derivatives");
    require(nzc_ > 0, zero_crossings_, "zero crossings", "calc_zero_crossings");
    if (update_ != nullptr || reset_ != nullptr) DeclareMajorStepUpdate();
    arguments_ = std::make_shared<HookArguments>(nx_, nxd_, input_widths_);
  }

  ~PythonBlock() override {
    if (Py_IsInitialized() == 0) {
      new std::shared_ptr<HookArguments>(std::move(arguments_));  // no interpreter to free it
      return;
    }
    py::gil_scoped_acquire gil;
    arguments_.reset();
  }

  void Initialize(user::Context& c) const override {
    if (nx_ > 0) {
      double* x = c.mutable_continuous_state();
      for (int i = 0; i < nx_; ++i) x[i] = x0_[i];
    }
    double* xd = c.discrete_state();
    for (int i = 0; i < nxd_; ++i) xd[i] = xd0_[i];
  }

  void CalcOutputs(user::Context& c) const override {
    py::gil_scoped_acquire gil;
    try {
      py::object r = Call(*outputs_, c);
      const int n = static_cast<int>(output_widths_.size());
      if (n == 1) {
        Store(r, c.output(0), output_widths_[0], "what calc_outputs returned");
        return;
      }
      if (!py::isinstance<py::sequence>(r) || py::len(r) != static_cast<size_t>(n)) {
        throw std::runtime_error("calc_outputs returned " + py::repr(r).cast<std::string>() +
                                 "; expected a sequence of " + std::to_string(n) +
                                 " values, one per output");
      }
      py::sequence values = r;
      for (int i = 0; i < n; ++i) {
        Store(values[i], c.output(i), output_widths_[i],
              "output " + std::to_string(i) + " of calc_outputs");
      }
    } catch (py::error_already_set& e) {
      throw std::runtime_error(Describe(e, "calc_outputs"));
    }
  }

  void CalcDerivatives(user::Context& c) const override {
    py::gil_scoped_acquire gil;
    try {
      Store(Call(*derivatives_, c), c.derivatives(), nx_, "what calc_derivatives returned");
    } catch (py::error_already_set& e) {
      throw std::runtime_error(Describe(e, "calc_derivatives"));
    }
  }

  void Update(user::Context& c) const override {
    py::gil_scoped_acquire gil;
    const char* hook = "update";
    try {
      if (update_ != nullptr) {
        py::object r = Call(*update_, c);
        if (!r.is_none()) Store(r, c.discrete_state(), nxd_, "what update returned");
      }
      if (reset_ != nullptr) {
        hook = "reset";
        py::object r = Call(*reset_, c);
        if (!r.is_none()) Store(r, c.mutable_continuous_state(), nx_, "what reset returned");
      }
    } catch (py::error_already_set& e) {
      throw std::runtime_error(Describe(e, hook));
    }
  }

  void CalcZeroCrossings(user::Context& c) const override {
    py::gil_scoped_acquire gil;
    try {
      Store(Call(*zero_crossings_, c), c.zero_crossings(), nzc_,
            "what calc_zero_crossings returned");
    } catch (py::error_already_set& e) {
      throw std::runtime_error(Describe(e, "calc_zero_crossings"));
    }
  }

 private:
  // hook(t, x, xd, u) with copies of the block's slices. GIL held.
  py::object Call(const py::object& hook, user::Context& c) const {
    // The block's own arguments, unless a call of another simulation is using them (a hook
    // that let the GIL go, a sweep's other thread): then arguments of this call's own.
    std::shared_ptr<HookArguments> own;
    HookArguments* args = arguments_.get();
    if (arguments_busy_) {
      own = std::make_shared<HookArguments>(nx_, nxd_, input_widths_);
      args = own.get();
    } else {
      arguments_busy_ = true;
    }
    struct Release {
      bool* busy;
      ~Release() {
        if (busy != nullptr) *busy = false;
      }
    } release{own ? nullptr : &arguments_busy_};
    args->Fill(c);
    py::object t = py::reinterpret_steal<py::object>(PyFloat_FromDouble(c.time()));
    PyObject* call_args[] = {t.ptr(), args->x.ptr(), args->xd.ptr(), args->u.ptr()};
    PyObject* result = PyObject_Vectorcall(hook.ptr(), call_args, 4, nullptr);
    if (result == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(result);
  }

  std::vector<int> input_widths_, output_widths_;
  int nx_ = 0, nxd_ = 0, nzc_ = 0;
  std::vector<double> x0_, xd0_;
  SharedObject outputs_, derivatives_, update_, reset_, zero_crossings_;
  std::shared_ptr<HookArguments> arguments_;
  /// True while a call uses arguments_; read and written with the GIL held.
  mutable bool arguments_busy_ = false;
};

user::ParamKind KindOf(const std::string& kind) {
  if (kind == "scalar") return user::ParamKind::kScalar;
  if (kind == "vector") return user::ParamKind::kVector;
  if (kind == "matrix") return user::ParamKind::kMatrix;
  if (kind == "word") return user::ParamKind::kWord;
  if (kind == "string") return user::ParamKind::kString;
  throw py::value_error("parameter kind '" + kind + "'");
}

// An evaluated parameter as __init__ receives it. GIL held.
py::object ToPython(const user::ParamValue& v, user::ParamKind kind) {
  if (!v.is_numeric) return py::str(v.text);
  switch (kind) {
    case user::ParamKind::kScalar:
      if (v.values.size() == 1) return py::float_(v.values[0]);
      break;
    case user::ParamKind::kMatrix: {
      py::array_t<double> a({v.rows, v.cols});
      std::copy(v.values.begin(), v.values.end(), a.mutable_data());
      return a;
    }
    default:
      break;
  }
  return py::array_t<double>(static_cast<py::ssize_t>(v.values.size()), v.values.data());
}

using ParamTuple =
    std::tuple<std::string, std::string, std::string, std::string, std::vector<std::string>, bool>;
using PortTuple = std::pair<std::string, std::string>;

void RegisterBlockType(const py::object& cls, const std::string& name, const std::string& category,
                       const std::string& summary, const std::string& doc,
                       const std::string& reference, const std::vector<ParamTuple>& params,
                       const std::vector<PortTuple>& inputs,
                       const std::vector<PortTuple>& outputs) {
  user::BlockType t;
  t.name = name;
  t.category = category;
  t.summary = summary;
  t.doc = doc;
  t.reference = reference;
  std::vector<std::pair<std::string, user::ParamKind>> kinds;
  for (const auto& [pname, kind, default_text, pdoc, words, required] : params) {
    user::ParamSpec spec;
    spec.name = pname;
    spec.kind = KindOf(kind);
    spec.default_text = default_text;
    spec.doc = pdoc;
    spec.words = words;
    spec.required = required;
    kinds.emplace_back(pname, spec.kind);
    t.params.push_back(std::move(spec));
  }
  for (const auto& [pname, pdoc] : inputs) t.inputs.push_back({pname, pdoc});
  for (const auto& [pname, pdoc] : outputs) t.outputs.push_back({pname, pdoc});
  t.create = [cls = Share(cls), name,
              kinds](const user::Params& p) -> std::unique_ptr<user::Block> {
    py::gil_scoped_acquire gil;
    try {
      py::dict kwargs;
      for (const auto& [pname, kind] : kinds) {
        if (p.has(pname)) kwargs[py::str(pname)] = ToPython(p.Get(pname), kind);
      }
      py::object block = (*cls)(**kwargs);
      return std::make_unique<PythonBlock>(block);
    } catch (py::error_already_set& e) {
      throw std::runtime_error(Describe(e, name + "()"));
    }
  };
  try {
    blocks::RegisterBlockType(blocks::FromUserBlockType(std::move(t)));
  } catch (const blocks::BlockLibraryError& e) {
    throw py::value_error(std::string("register_block: ") + e.what());
  }
}

}  // namespace

void BindUserBlocks(py::module_& m) {
  m.def("_register_block_type", &RegisterBlockType, "cls"_a, "name"_a, "category"_a, "summary"_a,
        "doc"_a, "reference"_a, "params"_a, "inputs"_a, "outputs"_a,
        "Registers a UserBlock subclass as a block type (twinblocks.register_block calls it).");
  m.def(
      "registered_block_types", [] { return blocks::RegisteredBlockTypeNames(); },
      "The names of the block types registered in this process (Python block classes), sorted.");
}

}  // namespace twinblocks::python
