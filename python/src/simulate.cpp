// One simulation from Python (hybrid/simulator.hpp), run with the GIL released:
//
//   _simulate(model, t0, q, qd, aux, options, record_samples, record_events, sections)
//   sections: "none", "apex" or "crossing:NAME:VALUE[:up|down|both]"
//     -> dict: samples, events, sections (dicts of numpy arrays), the final state, stop reason
//        and message, counts, the energy ledger (summary.json's names), drifts, wall time
//
// The pure-Python wrapper (clatter/__init__.py: simulate) fills the arguments from a scenario or
// a model and names the columns as the CLI's timeseries.csv and events.csv do.
// Ctrl-C: the recorder's keep_going() reacquires the GIL every 1000 polls or 50 ms and calls
// PyErr_CheckSignals; a pending KeyboardInterrupt cancels the run (StopReason::kCancelled) and is
// raised once the engine has returned. At the same polls `progress(t)` (a Python callable, or
// None) is called with the latest time the run has reported (a progress bar); an exception it
// raises cancels the run and is raised likewise.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/app/simulate.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/folder_lock.hpp"
#include "clatter/io/output_target.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "streamed_file.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// a growing table of rows of `width` numbers, returned as an (n, width) array
template <typename T>
struct Table {
  int width{1};
  std::vector<T> data;
  [[nodiscard]] py::array_t<T> array(bool matrix = true) const {
    const auto n = static_cast<py::ssize_t>(data.size() / static_cast<std::size_t>(width));
    py::array_t<T> a =
        matrix ? py::array_t<T>({n, static_cast<py::ssize_t>(width)}) : py::array_t<T>(n);
    std::copy(data.begin(), data.end(), a.mutable_data());
    return a;
  }
};

// samples (or section crossings): t, q, q̇, aux, energy, modes, gaps; planar bodies add the surface
// motion and the contact points, as timeseries.csv does
struct SampleTables {
  Table<double> t, q, qd, aux, energy, gap, surface_h, surface_u, contact_x, contact_y;
  Table<std::int8_t> modes;

  void size(int nq, int na, int nc) {
    q.width = qd.width = nq;
    aux.width = std::max(na, 1);
    gap.width = contact_x.width = contact_y.width = modes.width = std::max(nc, 1);
  }

  void add(const model::System& m, const model::PlanarBodyModel* planar, const hybrid::Sample& s) {
    t.data.push_back(s.t);
    for (int i = 0; i < m.nq(); ++i) q.data.push_back(s.q(i));
    for (int i = 0; i < m.nq(); ++i) qd.data.push_back(s.qd(i));
    for (int i = 0; i < aux.width; ++i) aux.data.push_back(i < s.aux.size() ? s.aux(i) : 0.0);
    energy.data.push_back(s.energy);
    if (planar) {
      surface_h.data.push_back(planar->surface().h(s.t));
      surface_u.data.push_back(planar->surface().u(s.t));
    }
    model::ContactGeometry g;
    for (int c = 0; c < m.num_contacts(); ++c) {
      m.contact_geometry(c, s.t, s.q, s.qd, g);
      gap.data.push_back(g.g_N);
      modes.data.push_back(static_cast<std::int8_t>(s.modes[static_cast<std::size_t>(c)]));
      if (planar) {
        const model::ContactKinematics k =
            planar->contact(c, s.t, Vec3(s.q(0), s.q(1), s.q(2)), Vec3(s.qd(0), s.qd(1), s.qd(2)));
        contact_x.data.push_back(s.q(0) + k.r.x());
        contact_y.data.push_back(s.q(1) + k.r.y());
      }
    }
  }

  [[nodiscard]] py::dict dict(bool planar, bool with_aux) const {
    py::dict d;
    d["t"] = t.array(false);
    d["q"] = q.array();
    d["qd"] = qd.array();
    if (with_aux) d["aux"] = aux.array();
    d["energy"] = energy.array(false);
    d["gap"] = gap.array();
    d["modes"] = modes.array();
    if (planar) {
      d["surface_h"] = surface_h.array(false);
      d["surface_u"] = surface_u.array(false);
      d["contact_x"] = contact_x.array();
      d["contact_y"] = contact_y.array();
    }
    return d;
  }
};

struct EventTables {
  Table<double> t, v_pre, v_post, Lambda, delta_energy, energy, t_accumulation, q, qd_pre, qd_post;
  Table<std::int8_t> kind, mode_after, status;
  Table<std::int32_t> contact, other, region, brach_case;

  void size(int nq) {
    v_pre.width = v_post.width = Lambda.width = 2;
    q.width = qd_pre.width = qd_post.width = nq;
  }

  void add(const hybrid::EventRecord& e) {
    t.data.push_back(e.t);
    kind.data.push_back(static_cast<std::int8_t>(e.kind));
    contact.data.push_back(e.contact);
    other.data.push_back(e.other);
    mode_after.data.push_back(static_cast<std::int8_t>(e.mode_after));
    region.data.push_back(e.region);
    brach_case.data.push_back(e.brach_case);
    status.data.push_back(static_cast<std::int8_t>(e.status));
    for (const Vec2* v : {&e.v_pre, &e.v_post, &e.Lambda}) {
      Table<double>& to = v == &e.v_pre ? v_pre : v == &e.v_post ? v_post : Lambda;
      to.data.push_back(v->x());
      to.data.push_back(v->y());
    }
    delta_energy.data.push_back(e.delta_energy);
    energy.data.push_back(e.energy);
    // events.csv leaves it empty except after a chatter prediction
    t_accumulation.data.push_back(e.kind == hybrid::EventKind::kClosure
                                      ? e.t_accumulation
                                      : std::numeric_limits<double>::quiet_NaN());
    for (int i = 0; i < q.width; ++i) {
      q.data.push_back(e.q(i));
      qd_pre.data.push_back(e.qd_pre(i));
      qd_post.data.push_back(e.qd_post(i));
    }
  }

  [[nodiscard]] py::dict dict() const {
    py::dict d;
    d["t"] = t.array(false);
    d["kind"] = kind.array(false);
    d["contact"] = contact.array(false);
    d["other"] = other.array(false);
    d["mode_after"] = mode_after.array(false);
    d["region"] = region.array(false);
    d["brach_case"] = brach_case.array(false);
    d["status"] = status.array(false);
    d["v_pre"] = v_pre.array();
    d["v_post"] = v_post.array();
    d["Lambda"] = Lambda.array();
    d["delta_energy"] = delta_energy.array(false);
    d["energy"] = energy.array(false);
    d["t_accumulation"] = t_accumulation.array(false);
    d["q"] = q.array();
    d["qd_pre"] = qd_pre.array();
    d["qd_post"] = qd_post.array();
    return d;
  }
};

class Collector final : public hybrid::Recorder {
 public:
  Collector(const model::System& m, bool record_samples, bool record_events, py::object progress)
      : m_(m),
        planar_(dynamic_cast<const model::PlanarBodyModel*>(&m)),
        record_samples_(record_samples),
        record_events_(record_events),
        progress_(std::move(progress)) {
    samples.size(m.nq(), m.num_aux(), m.num_contacts());
    sections.size(m.nq(), m.num_aux(), m.num_contacts());
    events.size(m.nq());
  }

  void on_sample(const hybrid::Sample& s) override {
    if (non_finite) return;
    t_ = s.t;
    if (writer_ != nullptr) {
      try {
        writer_->on_sample(s);
      } catch (const app::NonFiniteSample& e) {
        non_finite = e.t;  // the run stops at the next poll, as the command's stops here
        return;
      }
    }
    if (record_samples_) samples.add(m_, planar_, s);
  }
  void on_section(const hybrid::Sample& s) override {
    t_ = s.t;
    sections.add(m_, planar_, s);
  }
  void on_event(const hybrid::EventRecord& e) override {
    if (non_finite) return;
    t_ = e.t;
    if (writer_ != nullptr) writer_->on_event(e);
    if (record_events_) events.add(e);
  }

  /// Also writes the command's files through `w` (app::SimulationWriter).
  void write_to(app::SimulationWriter* w) { writer_ = w; }

  bool keep_going() override {
    if (non_finite) return false;
    const auto now = std::chrono::steady_clock::now();
    if (++polls_ % 1000 != 0 && now - last_check_ < std::chrono::milliseconds(50)) return true;
    last_check_ = now;
    const py::gil_scoped_acquire gil;
    if (!progress_.is_none()) {
      try {
        progress_(t_);
      } catch (py::error_already_set& e) {
        e.restore();  // raised after the run, as an interrupt is
      }
    }
    if (PyErr_CheckSignals() == 0 && !PyErr_Occurred()) return true;
    // the exception (KeyboardInterrupt, or whatever a signal handler raised) is taken out of the
    // interpreter until the engine has returned, so that no Python call runs with it pending
    interrupt_ = std::make_unique<py::error_already_set>();
    return false;
  }

  [[nodiscard]] bool planar() const { return planar_ != nullptr; }
  /// Raises the exception a signal handler set during the run, if any (GIL held).
  void raise_interrupt() {
    if (!interrupt_) return;
    interrupt_->restore();
    interrupt_.reset();
    throw py::error_already_set();
  }

  SampleTables samples, sections;
  EventTables events;
  std::optional<double> non_finite;  ///< a sample was not finite here (files written to there)

 private:
  app::SimulationWriter* writer_{nullptr};
  const model::System& m_;
  const model::PlanarBodyModel* planar_;
  bool record_samples_;
  bool record_events_;
  py::object progress_;
  double t_{0.0};  ///< the latest time the run reported
  long polls_{0};
  std::chrono::steady_clock::time_point last_check_{std::chrono::steady_clock::now()};
  std::unique_ptr<py::error_already_set> interrupt_;
};

template <typename E, std::size_t N>
E choice(const py::handle& v, const char* key, const std::array<E, N>& values) {
  const auto s = v.cast<std::string>();
  std::string allowed;
  for (const E x : values) {
    if (s == to_string(x)) return x;
    allowed += (allowed.empty() ? "" : ", ") + std::string(to_string(x));
  }
  throw InvalidArgument(key, "unknown value '" + s + "' (allowed: " + allowed + ")");
}

model::VecQ to_vec(const Array& a, Eigen::Index n, const char* name) {
  if (a.ndim() != 1 || a.shape(0) != n)
    throw InvalidArgument(name, "must be a flat sequence of " + std::to_string(n) +
                                    " numbers (the model's), got " + shape_text(a));
  model::VecQ v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = a.data()[i];
  return v;
}

py::dict run(const std::shared_ptr<model::System>& model, double t0, const Array& q,
             const Array& qd, const std::optional<Array>& aux, const py::dict& options,
             bool record_samples, bool record_events, const std::string& sections,
             py::object progress, const py::dict& request, bool horizon_given,
             const std::string& out, const std::vector<std::string>& label, bool plot) {
  require_model(model);
  const model::System& m = *model;
  hybrid::InitialState init;
  init.t = t0;
  init.q = to_vec(q, m.nq(), "q");
  init.qd = to_vec(qd, m.nq(), "qd");
  if (aux && m.num_aux() > 0) init.aux = to_vec(*aux, m.num_aux(), "aux");
  // the command's defaults (app/simulate.hpp): 2000 samples for output_dt = 0, the chatter
  // horizon the sample step unless given
  app::SimulateRequest req;
  if (request.contains("t_end")) req.t_end = request["t_end"].cast<double>();
  if (request.contains("output_dt")) req.output_dt = request["output_dt"].cast<double>();
  if (request.contains("wall_limit")) req.wall_limit = request["wall_limit"].cast<double>();
  if (request.contains("precision")) req.precision = request["precision"].cast<int>();
  hybrid::SimulationOptions o =
      app::simulation_options(to_options(options), t0, horizon_given, req);
  // events_only: no samples asked of the engine, unless the command's files are written (they
  // are streamed to disk, not kept)
  if (!record_samples && out.empty()) o.output_dt = 0.0;
  o.record_events = record_events || !out.empty();
  if (sections == "apex") {
    o.section = hybrid::Section::kApex;
  } else if (sections.rfind("crossing", 0) == 0) {
    const CrossingSpec c = parse_crossing(sections, "sections");
    const std::vector<std::string> names = m.coordinate_names();
    const auto it = std::find(names.begin(), names.end(), c.name);
    require(it != names.end(), "sections",
            "unknown crossing coordinate \"" + c.name + "\" for this model");
    o.section = hybrid::Section::kCrossing;
    o.crossing_coordinate = static_cast<int>(it - names.begin());
    o.crossing_value = c.value;
    o.crossing_direction = c.direction;
  } else if (sections != "none") {
    throw InvalidArgument("sections", "unknown section '" + sections +
                                          "' (allowed: none, apex, crossing:NAME:VALUE[:DIR])");
  }

  Collector rec(m, record_samples, record_events, std::move(progress));
  const std::filesystem::path dir(out);
  std::optional<io::FolderLock> lock;  // held for the call (io/folder_lock.hpp)
  std::optional<StreamedFile> ts_file, ev_file;
  std::optional<app::SimulationWriter> writer;
  if (!out.empty()) {
    require(label.size() == 3, "label", "name, description and kind");
    io::require_output_folder(dir, "out");
    lock.emplace(dir, "out");
    io::remove_stale_temporaries(dir / "summary.json");
    ts_file.emplace(dir / "timeseries.csv");
    ev_file.emplace(dir / "events.csv");
    writer.emplace(m, ts_file->stream, ev_file->stream, req.precision);
    rec.write_to(&*writer);
  }
  hybrid::SimulationResult r;
  const auto start = std::chrono::steady_clock::now();
  {
    const py::gil_scoped_release release;
    r = hybrid::simulate(m, init, o, &rec);
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rec.raise_interrupt();
  py::dict files;
  if (writer) {
    const std::string summary = app::simulation_summary(m, {label[0], label[1], label[2]}, o, r,
                                                        *writer, wall, rec.non_finite, dir, plot);
    ts_file->commit();
    ev_file->commit();
    io::write_file_atomic(dir / "summary.json", summary, "out");
    files["timeseries"] = (dir / "timeseries.csv").string();
    files["events"] = (dir / "events.csv").string();
    files["summary"] = (dir / "summary.json").string();
  }

  std::vector<std::int8_t> modes;
  for (int c = 0; c < m.num_contacts(); ++c)
    modes.push_back(static_cast<std::int8_t>(r.modes[static_cast<std::size_t>(c)]));
  const EnergyLedger& L = r.energy;
  py::dict energy;
  energy["initial"] = L.initial;
  energy["applied_work"] = L.applied_work;
  energy["final"] = L.total();
  energy["kinetic"] = L.kinetic;
  energy["potential"] = L.potential;
  energy["surface_work"] = L.surface_work;
  energy["impact_loss"] = L.impact_loss;
  energy["friction_loss"] = L.friction_loss;
  energy["reset"] = L.reset;
  energy["balance"] = L.balance();
  py::dict counts;
  counts["events"] = r.events;
  counts["impacts"] = r.impacts;
  counts["chatter_sequences"] = r.chatter_sequences;
  counts["multipoint_fallbacks"] = r.multipoint_fallbacks;
  counts["rk_steps"] = r.rk_steps;
  counts["rk_steps_dop853"] = r.dop853_steps;
  counts["rhs_evaluations"] = r.rhs_evaluations;
  counts["gap_evaluations"] = r.gap_evaluations;
  counts["carried_phases"] = r.carried_phases;
  counts["force_evaluations"] = r.force_evaluations;

  py::dict d;
  d["reason"] = std::string(to_string(r.reason));
  d["message"] = r.message;
  if (rec.non_finite) {
    d["reason"] = "non_finite";
    d["message"] = "a sample became NaN or infinite at t = " + format_number(*rec.non_finite);
  }
  d["files"] = files;
  d["t_final"] = r.t;
  d["q_final"] = std::vector<double>(r.q.data(), r.q.data() + r.q.size());
  d["qd_final"] = std::vector<double>(r.qd.data(), r.qd.data() + r.qd.size());
  d["aux_final"] = std::vector<double>(r.aux.data(), r.aux.data() + r.aux.size());
  d["modes_final"] = modes;
  d["counts"] = counts;
  py::dict integrator;
  integrator["requested"] = std::string(hybrid::to_string(o.integrator));
  integrator["used"] = std::string(hybrid::integrators_used(r));
  d["integrator"] = integrator;
  d["energy"] = energy;
  d["max_gap_drift"] = r.max_gap_drift;
  d["max_velocity_drift"] = r.max_velocity_drift;
  d["wall_time_s"] = wall;
  d["samples"] = rec.samples.dict(rec.planar(), m.num_aux() > 0);
  d["sections"] = rec.sections.dict(rec.planar(), m.num_aux() > 0);
  d["events"] = rec.events.dict();
  return d;
}

// one key of a scenario's [simulation] table (io/scenario.hpp), or max_wall_time
void set_option(hybrid::SimulationOptions& o, const std::string& k, const py::handle& v) {
  const auto num = [&] { return v.cast<double>(); };
  if (k == "t_end")
    o.t_end = num();
  else if (k == "output_dt")
    o.output_dt = num();
  else if (k == "max_events")
    o.max_events = v.cast<long>();
  else if (k == "max_steps")
    o.max_steps = v.cast<long>();
  else if (k == "max_wall_time")
    o.max_wall_time = num();
  else if (k == "exact_flight")
    o.exact_flight = v.cast<bool>();
  else if (k == "exact_contact")
    o.exact_contact = v.cast<bool>();
  else if (k == "broad_phase")
    o.broad_phase = v.cast<bool>();
  else if (k == "abs_tol")
    o.abs_tol = num();
  else if (k == "rel_tol")
    o.rel_tol = num();
  else if (k == "max_dt")
    o.max_dt = num();
  else if (k == "event_samples")
    o.event_samples = v.cast<int>();
  else if (k == "integrator")
    o.integrator = choice(v, "integrator",
                          std::array{hybrid::Integrator::kAuto, hybrid::Integrator::kDopri5,
                                     hybrid::Integrator::kDop853});
  else if (k == "chatter")
    o.chatter =
        choice(v, "chatter",
               std::array{hybrid::ChatterPolicy::kAccumulation, hybrid::ChatterPolicy::kCutoff});
  else if (k == "v_tol")
    o.v_tol = num();
  else if (k == "chatter_tol")
    o.chatter_tol = num();
  else if (k == "chatter_horizon")
    o.chatter_horizon = num();
  else if (k == "two_contact")
    o.two_contact =
        choice(v, "two_contact",
               std::array{hybrid::TwoContactRule::kSequential, hybrid::TwoContactRule::kMultipoint,
                          hybrid::TwoContactRule::kSymmetric});
  else if (k == "theta_crit")
    o.theta_crit = num();
  else if (k == "painleve")
    o.painleve = choice(
        v, "painleve",
        std::array{hybrid::PainlevePolicy::kStop, hybrid::PainlevePolicy::kImpactWithoutCollision});
  else if (k == "stabilization_omega")
    o.stabilization.omega = num();
  else if (k == "stabilization_zeta")
    o.stabilization.zeta = num();
  else if (k == "zeno_events")
    o.zeno_events = v.cast<int>();
  else if (k == "zeno_window")
    o.zeno_window = num();
  else
    throw InvalidArgument(k,
                          "unknown simulation option (allowed: the keys of a scenario's "
                          "[simulation] table and max_wall_time)");
}

template <typename E>
py::tuple names(int count) {
  py::list out;
  for (int i = 0; i < count; ++i) out.append(std::string(to_string(static_cast<E>(i))));
  return py::tuple(out);
}

}  // namespace

hybrid::SimulationOptions to_options(const py::dict& d, const hybrid::SimulationOptions& base) {
  hybrid::SimulationOptions o = base;
  for (const auto& [key, v] : d) {
    const auto k = key.cast<std::string>();
    try {
      set_option(o, k, v);
    } catch (const py::cast_error&) {
      throw InvalidArgument(k, "has the wrong type: " + py::repr(v).cast<std::string>() +
                                   " (numbers, integers, true/false or names as in a scenario's "
                                   "[simulation] table)");
    }
  }
  return o;
}

CrossingSpec parse_crossing(const std::string& text, const char* field) {
  // crossing:NAME:VALUE[:DIR]
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t colon = text.find(':', from);
    parts.push_back(text.substr(from, colon - from));
    if (colon == std::string::npos) break;
    from = colon + 1;
  }
  require(parts.size() >= 3 && parts.size() <= 4 && parts[0] == "crossing" && !parts[1].empty(),
          field,
          "a crossing section is written crossing:NAME:VALUE[:up|down|both], not \"" + text + "\"");
  CrossingSpec c;
  c.name = parts[1];
  char* end = nullptr;
  c.value = std::strtod(parts[2].c_str(), &end);
  require(end != parts[2].c_str() && *end == '\0' && std::isfinite(c.value), field,
          "the crossing value must be a finite number, not \"" + parts[2] + "\"");
  const std::string dir = parts.size() == 4 ? parts[3] : "both";
  if (dir == "up" || dir == "+1" || dir == "1") {
    c.direction = 1;
  } else if (dir == "down" || dir == "-1") {
    c.direction = -1;
  } else {
    require(dir == "both" || dir == "0", field,
            "the crossing direction must be up (+1), down (-1) or both (0), not \"" + dir + "\"");
    c.direction = 0;
  }
  return c;
}

void bind_simulate(py::module_& m) {
  m.attr("EVENT_KINDS") =
      names<hybrid::EventKind>(static_cast<int>(hybrid::EventKind::kParameterChange) + 1);
  m.attr("CONTACT_MODES") =
      names<hybrid::ContactMode>(static_cast<int>(hybrid::ContactMode::kStick) + 1);
  m.attr("STOP_REASONS") = names<hybrid::StopReason>(hybrid::kNumStopReasons);
  m.def("_simulate", &run, py::arg("model"), py::arg("t0"), py::arg("q"), py::arg("qd"),
        py::arg("aux"), py::arg("options"), py::arg("record_samples") = true,
        py::arg("record_events") = true, py::arg("sections") = "none",
        py::arg("progress") = py::none(), py::arg("request") = py::dict(),
        py::arg("horizon_given") = true, py::arg("out") = "",
        py::arg("label") = std::vector<std::string>{}, py::arg("plot") = false,
        "The engine on one model and initial state (see clatter.simulate for the wrapper).");
  m.def(
      "_check_options",
      [](const py::dict& options, double t0) { hybrid::validate(to_options(options), t0); },
      py::arg("options"), py::arg("t0"),
      "ValueError naming the first simulation option that is unknown or out of range");
}

}  // namespace clatter::python
