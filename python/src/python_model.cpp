// A user's own mechanical system written in Python, run by the same engine: PythonSystem is a
// model::System whose functions call methods of a Python object (each call takes the GIL, since
// the engine runs without it). Slower than a C++ model by the cost of the calls (docs/python.md,
// docs/performance.md).
//
// The object (see docs/python.md for an example):
//   nq                               number of coordinates (int)
//   contacts                         names of the contacts (list of str)
//   mass_matrix(t, q)                M, (nq, nq), symmetric positive definite
//   applied_forces(t, q, qd)         f, (nq,): everything but inertia and contact forces
//   contact(c, t, q, qd)             (g_N, J (2, nq), w (2,), gamma (2,)[, scale]) of contact c:
//                                    gap, Jacobian rows (T, N), obstacle velocity, dv/dt − J q̈
//   potential_energy(t, q)           V [J]
//   force_scale()                    a typical force [N]
// and optionally coordinate_names (list of str), mass_scale(), kinetic_energy(t, q, qd),
// applied_power(t, q, qd), velocity_scale(t, q, qd), rate_bound(qd), gap_scale(c, t, q), and
// its parameters by name, which sweeps, continuation and DIB change as a C++ model's:
//   parameters                       a dict (or a method returning one) name → value or
//                                    (value[, unit[, doc]])
//   with_parameter(name, value)      a new object with the parameter changed; without it (or
//                                    None), a shallow copy whose attribute `name` is set
// A changed model must show the new value in its parameters (checked).
//
// Compiled (python_model(..., compile=True), python/clatter/_compiled.py): numba turns the state
// functions (mass_matrix, applied_forces, contact, potential_energy and the optional
// kinetic_energy, applied_power, velocity_scale, rate_bound, gap_scale) into C functions of
// (arguments, p, out) returning 0 or a size error; they are called here without the GIL, on the
// object's data packed in p (re-packed by a parameter change). A compiled method that raised
// (kRaised) is called again as Python, with the GIL, so that its exception reaches the caller.
// force_scale and mass_scale are read once per parameter set; parameters, with_parameter and
// symmetry stay Python calls.
//
// A symmetry of its motion
// (model/motion_symmetry.hpp; orbits modulo it, e.g. a walker's step):
//   symmetry(t, q, qd)               (q, qd) of the image G of the state
//   symmetry_contacts                π: contact k of a motion is contact symmetry_contacts[k] of
//                                    its image (list of int, a permutation)

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/motion_symmetry.hpp"
#include "clatter/model/system.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

using model::MatQ;
using model::VecA;
using model::VecQ;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

py::array_t<double> to_numpy(const VecQ& v) {
  py::array_t<double> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

// a returned array of exactly `size` numbers, else InvalidArgument naming the method
const double* numbers(const Array& a, py::ssize_t size, const std::string& what) {
  if (a.size() != size)
    throw InvalidArgument(
        what, "must return " + std::to_string(size) + " numbers, got " + std::to_string(a.size()));
  return a.data();
}

class PythonSystem;

// The machine code of a compiled model (CompiledModel in python/clatter/_compiled.py): one C
// function per method it defines, null where the method is absent.
struct CompiledFunctions {
  using TQ = std::int32_t (*)(double t, const double* q, const double* p, double* out);
  using TQQd = std::int32_t (*)(double t, const double* q, const double* qd, const double* p,
                                double* out);
  using CTQQd = std::int32_t (*)(std::int64_t c, double t, const double* q, const double* qd,
                                 const double* p, double* out);
  using CTQ = std::int32_t (*)(std::int64_t c, double t, const double* q, const double* p,
                               double* out);
  using Qd = std::int32_t (*)(const double* qd, const double* p, double* out);

  py::object table;  ///< the CompiledModel: keeps the code alive, packs an object's data
  TQ mass_matrix{nullptr};
  TQQd applied_forces{nullptr};
  CTQQd contact{nullptr};
  TQ potential_energy{nullptr};
  TQQd kinetic_energy{nullptr};
  TQQd applied_power{nullptr};
  TQQd velocity_scale{nullptr};
  Qd rate_bound{nullptr};
  CTQ gap_scale{nullptr};

  explicit CompiledFunctions(py::object t) : table(std::move(t)) {
    const auto addresses = table.attr("addresses").cast<py::dict>();
    const auto get = [&](const char* name, auto& fn) {
      if (addresses.contains(name))
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
            addresses[name].cast<std::uintptr_t>());
    };
    get("mass_matrix", mass_matrix);
    get("applied_forces", applied_forces);
    get("contact", contact);
    get("potential_energy", potential_energy);
    get("kinetic_energy", kinetic_energy);
    get("applied_power", applied_power);
    get("velocity_scale", velocity_scale);
    get("rate_bound", rate_bound);
    get("gap_scale", gap_scale);
    require(mass_matrix != nullptr && applied_forces != nullptr && contact != nullptr &&
                potential_energy != nullptr,
            "compile", "the compiled model lacks one of its required functions");
  }
  ~CompiledFunctions() {
    const py::gil_scoped_acquire gil;
    table = py::object();
  }
  CompiledFunctions(const CompiledFunctions&) = delete;
  CompiledFunctions& operator=(const CompiledFunctions&) = delete;
};

// the status of a compiled method that raised (RAISED in _compiled.py): numba cannot pass the
// exception on, so the method is called again uncompiled, where it raises to the caller
constexpr std::int32_t kRaised = 9;

// a compiled function's status: 0, else InvalidArgument naming the method and the size it owes
void check_status(std::int32_t status, const char* method, int nq) {
  if (status == 0) return;
  std::string what = method;
  int size = 1;
  if (what == "mass_matrix") {
    size = nq * nq;
  } else if (what == "applied_forces") {
    size = nq;
  } else if (what == "contact") {
    what = status == 1 ? "contact: J" : status == 2 ? "contact: w" : "contact: gamma";
    size = status == 1 ? 2 * nq : 2;
  }
  throw InvalidArgument(what, "must return " + std::to_string(size) + " numbers");
}

// the symmetry of a Python model: its methods called through the model that owns it
class PythonSymmetry final : public model::MotionSymmetry {
 public:
  explicit PythonSymmetry(const PythonSystem* owner) : owner_(owner) {}
  void apply(double t, VecQ& q, VecQ& qd, VecA& aux) const override;
  [[nodiscard]] std::vector<int> contact_map() const override;
  [[nodiscard]] std::string description() const override {
    return "the Python model's symmetry(t, q, qd)";
  }

 private:
  const PythonSystem* owner_;
};

class PythonSystem final : public model::System {
 public:
  PythonSystem(py::object obj, const LawChoice& law, py::object compiled) : obj_(std::move(obj)) {
    // the kind names the class, so that messages say which model ("python:BeltWall")
    kind_ = "python:" + py::type::of(obj_).attr("__name__").cast<std::string>();
    nq_ = obj_.attr("nq").cast<int>();
    require(nq_ >= 1 && nq_ <= model::kMaxDof, "nq",
            "must lie in [1, " + std::to_string(model::kMaxDof) + "]");
    std::vector<model::Contact> contacts;
    for (const py::handle name : obj_.attr("contacts"))
      contacts.push_back(model::Contact::with_law(name.cast<std::string>(), law));
    require(!contacts.empty() && contacts.size() <= model::kMaxContacts, "contacts",
            "must name between 1 and " + std::to_string(model::kMaxContacts) + " contacts");
    set_contacts(std::move(contacts));
    if (py::hasattr(obj_, "coordinate_names"))
      names_ = obj_.attr("coordinate_names").cast<std::vector<std::string>>();
    else
      names_ = model::numbered_names("q", nq_);
    require(static_cast<int>(names_.size()) == nq_, "coordinate_names", "must have nq entries");
    for (const char* m : {"mass_scale", "kinetic_energy", "applied_power", "velocity_scale",
                          "rate_bound", "gap_scale"})
      has_.push_back(py::hasattr(obj_, m));
    has_symmetry_ = py::hasattr(obj_, "symmetry");
    has_guards_ = py::hasattr(obj_, "contact_guards");
    require(!has_symmetry_ || py::hasattr(obj_, "symmetry_contacts"), "symmetry_contacts",
            "a model with symmetry(t, q, qd) must give symmetry_contacts (the image of each "
            "contact)");
    if (!compiled.is_none()) {
      compiled_ = std::make_shared<const CompiledFunctions>(std::move(compiled));
      pack_data();
    }
  }
  PythonSystem(const PythonSystem& other) : model::System(other), symmetry_(this) {
    const py::gil_scoped_acquire gil;
    obj_ = other.obj_;
    kind_ = other.kind_;
    nq_ = other.nq_;
    names_ = other.names_;
    has_ = other.has_;
    has_symmetry_ = other.has_symmetry_;
    has_guards_ = other.has_guards_;
    compiled_ = other.compiled_;
    data_ = other.data_;
    force_scale_ = other.force_scale_;
    mass_scale_ = other.mass_scale_;
  }
  [[nodiscard]] const model::MotionSymmetry* motion_symmetry() const override {
    return has_symmetry_ ? &symmetry_ : nullptr;
  }
  // contact_guards(t, q, qd) -> one truth value per contact (System::contact_guards)
  bool contact_guards(double t, const VecQ& q, const VecQ& qd, const VecA& /*aux*/,
                      std::array<bool, model::kMaxContacts>& enabled) const override {
    if (!has_guards_) return false;
    const py::gil_scoped_acquire gil;
    const py::object r = obj_.attr("contact_guards")(t, to_numpy(q), to_numpy(qd));
    const int n = num_contacts();
    int i = 0;
    for (const py::handle h : r) {
      require(i < n, "contact_guards",
              "must return one truth value per contact (" + std::to_string(n) + ")");
      enabled[static_cast<std::size_t>(i++)] = h.cast<bool>();
    }
    require(i == n, "contact_guards",
            "must return one truth value per contact (" + std::to_string(n) + ")");
    return true;
  }
  PythonSystem& operator=(const PythonSystem&) = delete;
  ~PythonSystem() override {
    const py::gil_scoped_acquire gil;
    obj_ = py::object();
  }

  [[nodiscard]] std::string_view kind() const override { return kind_; }
  [[nodiscard]] int nq() const override { return nq_; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override { return names_; }
  [[nodiscard]] const py::object& object() const { return obj_; }

  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override {
    if (compiled_) {
      // (the model's n² entries zeroed, not the capacity's: core/scratch.hpp)
      Scratch<double, model::kMaxDof * model::kMaxDof> out;
      out.fill(0.0, static_cast<std::size_t>(nq_ * nq_));
      const auto status = compiled_->mass_matrix(t, q.data(), data_.data(), out.data());
      if (status != kRaised) {
        check_status(status, "mass_matrix", nq_);
        MatQ M(nq_, nq_);
        for (int i = 0; i < nq_; ++i)
          for (int j = 0; j < nq_; ++j) M(i, j) = out[i * nq_ + j];
        return M;
      }
    }
    const py::gil_scoped_acquire gil;
    const auto a = obj_.attr("mass_matrix")(t, to_numpy(q)).cast<Array>();
    const double* d = numbers(a, nq_ * nq_, "mass_matrix");
    MatQ M(nq_, nq_);
    for (int i = 0; i < nq_; ++i)
      for (int j = 0; j < nq_; ++j) M(i, j) = d[i * nq_ + j];
    return M;
  }
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& /*aux*/) const override {
    if (compiled_) {
      VecQ f(nq_);
      const auto status = compiled_->applied_forces(t, q.data(), qd.data(), data_.data(), f.data());
      if (status != kRaised) {
        check_status(status, "applied_forces", nq_);
        return f;
      }
    }
    const py::gil_scoped_acquire gil;
    const auto a = obj_.attr("applied_forces")(t, to_numpy(q), to_numpy(qd)).cast<Array>();
    const double* d = numbers(a, nq_, "applied_forces");
    VecQ f(nq_);
    for (int i = 0; i < nq_; ++i) f(i) = d[i];
    return f;
  }
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        model::ContactGeometry& out) const override {
    if (compiled_) {
      Scratch<double, 2 * model::kMaxDof + 6> r;
      r.fill(0.0, static_cast<std::size_t>(2 * nq_ + 6));
      const auto status = compiled_->contact(c, t, q.data(), qd.data(), data_.data(), r.data());
      if (status == kRaised) return contact_geometry_uncompiled(c, t, q, qd, out);
      check_status(status, "contact", nq_);
      out.g_N = r[0];
      out.J.resize(2, nq_);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < nq_; ++j) out.J(i, j) = r[1 + i * nq_ + j];
      out.w = {r[1 + 2 * nq_], r[2 + 2 * nq_]};
      out.gamma = {r[3 + 2 * nq_], r[4 + 2 * nq_]};
      out.v = out.J * qd - out.w;
      out.scale = r[5 + 2 * nq_];
      return;
    }
    contact_geometry_uncompiled(c, t, q, qd, out);
  }
  void contact_geometry_uncompiled(int c, double t, const VecQ& q, const VecQ& qd,
                                   model::ContactGeometry& out) const {
    const py::gil_scoped_acquire gil;
    const auto r = obj_.attr("contact")(c, t, to_numpy(q), to_numpy(qd)).cast<py::tuple>();
    if (r.size() != 4 && r.size() != 5)
      throw InvalidArgument("contact", "must return (g_N, J, w, gamma[, scale])");
    out.g_N = r[0].cast<double>();
    // the arrays held while their numbers are read (a tuple or list converts to a new array)
    const auto J_array = r[1].cast<Array>();
    const auto w_array = r[2].cast<Array>();
    const auto gamma_array = r[3].cast<Array>();
    const double* J = numbers(J_array, 2 * nq_, "contact: J");
    out.J.resize(2, nq_);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < nq_; ++j) out.J(i, j) = J[i * nq_ + j];
    const double* w = numbers(w_array, 2, "contact: w");
    const double* gamma = numbers(gamma_array, 2, "contact: gamma");
    out.w = {w[0], w[1]};
    out.gamma = {gamma[0], gamma[1]};
    out.v = out.J * qd - out.w;
    out.scale = r.size() == 5 ? r[4].cast<double>() : 1.0;
  }
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override {
    if (compiled_)
      if (const auto v = scalar(compiled_->potential_energy, t, q, "potential_energy")) return *v;
    const py::gil_scoped_acquire gil;
    return obj_.attr("potential_energy")(t, to_numpy(q)).cast<double>();
  }
  [[nodiscard]] double force_scale() const override {
    if (compiled_) return force_scale_;
    const py::gil_scoped_acquire gil;
    return obj_.attr("force_scale")().cast<double>();
  }
  [[nodiscard]] double mass_scale() const override {
    if (!has_[0]) return System::mass_scale();
    if (compiled_) return mass_scale_;
    const py::gil_scoped_acquire gil;
    return obj_.attr("mass_scale")().cast<double>();
  }
  [[nodiscard]] double kinetic_energy(double t, const VecQ& q, const VecQ& qd) const override {
    if (!has_[1]) return System::kinetic_energy(t, q, qd);
    if (compiled_)
      if (const auto v = scalar(compiled_->kinetic_energy, t, q, qd, "kinetic_energy")) return *v;
    const py::gil_scoped_acquire gil;
    return obj_.attr("kinetic_energy")(t, to_numpy(q), to_numpy(qd)).cast<double>();
  }
  [[nodiscard]] double applied_power(double t, const VecQ& q, const VecQ& qd,
                                     const VecA& aux) const override {
    if (!has_[2]) return System::applied_power(t, q, qd, aux);
    if (compiled_)
      if (const auto v = scalar(compiled_->applied_power, t, q, qd, "applied_power")) return *v;
    const py::gil_scoped_acquire gil;
    return obj_.attr("applied_power")(t, to_numpy(q), to_numpy(qd)).cast<double>();
  }
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override {
    if (!has_[3]) return System::velocity_scale(t, q, qd);
    if (compiled_)
      if (const auto v = scalar(compiled_->velocity_scale, t, q, qd, "velocity_scale")) return *v;
    const py::gil_scoped_acquire gil;
    return obj_.attr("velocity_scale")(t, to_numpy(q), to_numpy(qd)).cast<double>();
  }
  [[nodiscard]] double rate_bound(const VecQ& qd) const override {
    if (!has_[4]) return System::rate_bound(qd);
    if (compiled_) {
      double out = 0.0;
      const auto status = compiled_->rate_bound(qd.data(), data_.data(), &out);
      if (const auto v = scalar_result(status, out, "rate_bound", nq_)) return *v;
    }
    const py::gil_scoped_acquire gil;
    return obj_.attr("rate_bound")(to_numpy(qd)).cast<double>();
  }
  [[nodiscard]] double gap_scale(int c, double t, const VecQ& q) const override {
    if (!has_[5]) return System::gap_scale(c, t, q);
    if (compiled_) {
      double out = 0.0;
      const auto status = compiled_->gap_scale(c, t, q.data(), data_.data(), &out);
      if (const auto v = scalar_result(status, out, "gap_scale", nq_)) return *v;
    }
    const py::gil_scoped_acquire gil;
    return obj_.attr("gap_scale")(c, t, to_numpy(q)).cast<double>();
  }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<PythonSystem>(*this);
  }
  [[nodiscard]] model::ParameterSet own_parameters() const override {
    model::ParameterSet out;
    const py::gil_scoped_acquire gil;
    if (!py::hasattr(obj_, "parameters")) return out;
    py::object declared = obj_.attr("parameters");
    if (PyCallable_Check(declared.ptr()) != 0) declared = declared();
    if (!py::isinstance<py::dict>(declared))
      throw InvalidArgument("parameters", "must be a dict name -> value or (value, unit, doc)");
    for (const auto& [key, v] : declared.cast<py::dict>()) {
      const auto name = key.cast<std::string>();
      try {
        if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
          const auto seq = v.cast<py::sequence>();
          if (seq.size() < 1 || seq.size() > 3) throw py::cast_error();
          out.add(name, seq[0].cast<double>(),
                  seq.size() > 1 ? seq[1].cast<std::string>() : std::string(),
                  seq.size() > 2 ? seq[2].cast<std::string>() : std::string());
        } else {
          out.add(name, v.cast<double>(), "", "");
        }
      } catch (const py::cast_error&) {
        throw InvalidArgument("parameters", "'" + name +
                                                "' must be a number or (value[, unit[, doc]]), "
                                                "got " +
                                                py::repr(v).cast<std::string>());
      }
    }
    return out;
  }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override {
    const py::gil_scoped_acquire gil;
    (void)own_parameters().get(name);  // throws, naming the known parameters
    const std::string key(name);
    py::object next;
    const bool own = py::hasattr(obj_, "with_parameter") && !obj_.attr("with_parameter").is_none();
    if (own) {
      next = obj_.attr("with_parameter")(key, value);
    } else {
      next = py::module_::import("copy").attr("copy")(obj_);
      py::setattr(next, key.c_str(), py::float_(value));
    }
    auto out = std::make_unique<PythonSystem>(*this);
    out->obj_ = std::move(next);
    if (compiled_) out->pack_data();
    const double shown = out->own_parameters().get(name);
    require(shown == value || (std::isnan(shown) && std::isnan(value)), key.c_str(),
            "the Python model changed by " +
                std::string(own ? "its with_parameter"
                                : "setting the attribute (it has no with_parameter)") +
                " shows " + format_number(shown) + " instead of " + format_number(value) +
                " in its parameters: define with_parameter(name, value) returning the changed "
                "model");
    return out;
  }

 private:
  // the object's data for the compiled functions, and the scales they do not compute (the GIL
  // held by the caller)
  void pack_data() {
    const auto packed = compiled_->table.attr("pack")(obj_).cast<Array>();
    data_.assign(packed.data(), packed.data() + packed.size());
    if (data_.empty()) data_.push_back(0.0);
    force_scale_ = obj_.attr("force_scale")().cast<double>();
    mass_scale_ = has_[0] ? obj_.attr("mass_scale")().cast<double>() : System::mass_scale();
  }
  // a compiled scalar function's value, or none if it raised (then the caller calls Python)
  static std::optional<double> scalar_result(std::int32_t status, double value, const char* method,
                                             int nq) {
    if (status == kRaised) return std::nullopt;
    check_status(status, method, nq);
    return value;
  }
  template <class Fn>
  std::optional<double> scalar(Fn fn, double t, const VecQ& q, const char* method) const {
    double out = 0.0;
    const auto status = fn(t, q.data(), data_.data(), &out);
    return scalar_result(status, out, method, nq_);
  }
  template <class Fn>
  std::optional<double> scalar(Fn fn, double t, const VecQ& q, const VecQ& qd,
                               const char* method) const {
    double out = 0.0;
    const auto status = fn(t, q.data(), qd.data(), data_.data(), &out);
    return scalar_result(status, out, method, nq_);
  }

  std::string kind_;
  py::object obj_;
  std::shared_ptr<const CompiledFunctions> compiled_;  ///< null: the uncompiled route
  std::vector<double> data_;                           ///< p of the compiled functions
  double force_scale_{1.0};
  double mass_scale_{1.0};
  int nq_{0};
  std::vector<std::string> names_;
  std::vector<bool> has_;
  bool has_symmetry_{false};
  bool has_guards_{false};
  PythonSymmetry symmetry_{this};
};

void PythonSymmetry::apply(double t, VecQ& q, VecQ& qd, VecA& /*aux*/) const {
  const py::gil_scoped_acquire gil;
  const py::tuple r =
      owner_->object().attr("symmetry")(t, to_numpy(q), to_numpy(qd)).cast<py::tuple>();
  require(r.size() == 2, "symmetry", "must return (q, qd)");
  const Array a = r[0].cast<Array>(), b = r[1].cast<Array>();
  const double* qa = numbers(a, q.size(), "symmetry");
  const double* qb = numbers(b, qd.size(), "symmetry");
  std::copy(qa, qa + q.size(), q.data());
  std::copy(qb, qb + qd.size(), qd.data());
}

std::vector<int> PythonSymmetry::contact_map() const {
  const py::gil_scoped_acquire gil;
  return owner_->object().attr("symmetry_contacts").cast<std::vector<int>>();
}

}  // namespace

void bind_python_model(py::module_& m) {
  m.def(
      "_python_model",
      [](py::object obj, const std::string& law, double e, double mu, py::object compiled) {
        LawChoice choice;
        choice.kind = parse_law(law);
        choice.params = {mu, e};
        auto out = std::shared_ptr<model::System>(
            std::make_shared<PythonSystem>(std::move(obj), choice, std::move(compiled)));
        (void)out->parameters();  // a parameter named as the contacts' (e, mu) is refused now
        return out;
      },
      py::arg("obj"), py::arg("law") = "stronge", py::arg("e") = 0.0, py::arg("mu") = 0.0,
      py::arg("compiled") = py::none(),
      "Wraps a Python object with nq, contacts, mass_matrix, applied_forces, contact, "
      "potential_energy and force_scale into a Model (see clatter.python_model); compiled: its "
      "CompiledModel (clatter._compiled), or None to call the methods.");
}

}  // namespace clatter::python
