// Periodic orbits, continuation, Poincaré maps and boundary crossings of any model from Python:
// thin translations over the application layer (app/orbit_setup.hpp, app/continuation.hpp) and
// analysis/ (poincare_map, critical_point, dib), the same operations as `clatter orbits
// SCENARIO`, `continue`, `section` and `dib`. Every call releases the GIL while it computes.
//
//   _periodic_orbit(system, start, options, request, out, scenario, plot) -> dict
//   _continue_orbits(system, start, options, request, branch, progress, out, scenario, plot)
//   (progress: None, or a callable given the number of points after each, over all directions)
//   _poincare(system, start, options, request, out, scenario, plot) -> dict
//   _boundary_crossing(system, start, options, request, crossing, out, scenario, plot) -> dict
//
// system: a Scenario (its model, initial state and options) or a Model; start: {"t", "q", "qd",
// "aux", "closed"} over the Scenario's initial state (a Model needs q and qd); options: simulation
// options over the Scenario's; request: the fields of app::OrbitRequest by name; out: a folder
// to write the operation's files into (empty: none), named in them as `scenario`.

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <pybind11/complex.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/feigin_normal_form.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/analysis/poincare_map.hpp"
#include "clatter/app/continuation.hpp"
#include "clatter/app/dib.hpp"
#include "clatter/app/section.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "clatter/io/scenario.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

template <typename T>
T get(const py::dict& d, const char* key, T fallback) {
  return d.contains(key) ? d[key].cast<T>() : fallback;
}

// what an operation is posed on: a Scenario's or a Model's model, start and options
struct Posed {
  std::shared_ptr<const model::System> model;
  hybrid::InitialState start;
  hybrid::SimulationOptions options;
};

Posed posed(const py::object& system, const py::dict& start, const py::dict& options) {
  Posed p;
  const bool scenario = py::isinstance<io::Scenario>(system);
  if (scenario) {
    const auto& sc = system.cast<const io::Scenario&>();
    p.model = sc.model;
    p.start = sc.initial;
    p.options = sc.options;
  } else {
    const auto m = system.cast<std::shared_ptr<model::System>>();
    require_model(m);
    p.model = m;
    require(start.contains("q") && start.contains("qd"), "q",
            "a Model needs the start state (q=..., qd=...)");
  }
  const model::System& m = *p.model;
  const auto vec = [&](const char* key, int n) {
    const auto v = start[key].cast<Eigen::VectorXd>();
    require(v.size() == n, key, "must have " + std::to_string(n) + " entries (the model's)");
    require(v.allFinite(), key, "must be finite");
    return v;
  };
  if (start.contains("t")) p.start.t = start["t"].cast<double>();
  require(std::isfinite(p.start.t), "t0", "must be finite [s]");
  // a start state of the user's own: no contact closed unless said (the Scenario's closed
  // contacts belong to its own initial state)
  if (start.contains("q") || start.contains("qd")) p.start.closed = {};
  if (start.contains("q")) p.start.q = vec("q", m.nq());
  if (start.contains("qd")) p.start.qd = vec("qd", m.nq());
  if (start.contains("aux") && m.num_aux() > 0) p.start.aux = vec("aux", m.num_aux());
  if (p.start.aux.size() != m.num_aux()) p.start.aux = model::VecA::Zero(m.num_aux());
  if (start.contains("closed")) {
    const auto closed = start["closed"].cast<std::vector<bool>>();
    for (std::size_t c = 0; c < p.start.closed.size(); ++c)
      p.start.closed[c] = c < closed.size() && closed[c];
  }
  p.options = to_options(options, p.options);
  return p;
}

app::OrbitRequest request_of(const py::dict& d) {
  app::OrbitRequest r;
  for (const auto& [key, v] : d) {
    const auto k = key.cast<std::string>();
    if (k == "solve") {
      r.solve = v.cast<std::vector<std::string>>();
    } else if (k == "frequency") {
      r.frequency = v.cast<std::string>();
    } else if (k == "phase") {
      r.phase = v.is_none() ? std::nan("") : v.cast<double>();
    } else if (k == "periods") {
      r.periods = v.cast<int>();
    } else if (k == "anchor") {
      r.anchor = v.cast<std::string>();
    } else if (k == "drift") {
      r.drift = v.cast<std::string>();
    } else if (k == "period") {
      r.period = v.cast<double>();
    } else if (k == "impact") {
      r.impact = v.cast<std::string>();
    } else if (k == "impacts") {
      r.impacts = v.cast<int>();
    } else if (k == "max_period") {
      r.max_period = v.cast<double>();
    } else if (k == "modulo_symmetry") {
      r.modulo_symmetry = v.cast<bool>();
    } else if (k == "closed") {
      r.closed = v.cast<std::vector<std::string>>();
    } else if (k == "transient") {
      r.transient = v.cast<double>();
    } else if (k == "start_on_section") {
      r.start_on_section = v.cast<bool>();
    } else if (k == "monodromy") {
      r.monodromy = v.cast<std::string>();
    } else if (k == "tol") {
      r.tol = v.cast<double>();
    } else if (k == "max_iter") {
      r.max_iter = v.cast<int>();
    } else if (k == "segments") {
      r.segments = v.cast<int>();
    } else {
      throw InvalidArgument(k, "is not an option of the orbit problem");
    }
  }
  return r;
}

app::OrbitSetup setup_of(const py::object& system, const py::dict& start, const py::dict& options,
                         const py::dict& request) {
  const Posed p = posed(system, start, options);
  const app::OrbitRequest r = request_of(request);
  const py::gil_scoped_release release;
  return app::make_orbit_setup(p.model, p.start, p.options, r);
}

// writes an operation's files (each atomically, the last one last) into their folder
void write_files(const std::vector<app::OutputFile>& files) {
  if (!files.empty()) write_outputs(files, files.front().path.parent_path());
}

py::array_t<std::complex<double>> complex_array(const std::vector<std::complex<double>>& v) {
  py::array_t<std::complex<double>> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::dict orbit_dict(const app::OrbitSetup& s, const analysis::Orbit& o) {
  py::dict d;
  d["converged"] = o.converged;
  d["message"] = o.message;
  d["iterations"] = o.iterations;
  d["residual"] = o.residual;
  d["u"] = o.u;
  d["x0"] = Eigen::VectorXd(o.x0);
  d["t0"] = o.t0;
  d["period"] = o.period;
  d["monodromy"] = o.monodromy;
  d["DP"] = o.DP;
  d["multipliers"] = complex_array(o.multipliers);
  d["stable"] = o.stable;
  d["monodromy_warning"] = o.monodromy_warning;
  py::list events;
  for (const hybrid::EventRecord& e : o.events)
    events.append(py::dict(py::arg("t") = e.t, py::arg("kind") = hybrid::to_string(e.kind),
                           py::arg("contact") = e.contact, py::arg("region") = e.region));
  d["events"] = events;
  // the section and the solved components as posed (the defaults made explicit)
  const py::dict j = py::module_::import("json").attr("loads")(app::orbit_json(s, o));
  d["section"] = j["section"];
  d["solved"] = j["solved"];
  return d;
}

py::dict periodic_orbit(const py::object& system, const py::dict& start, const py::dict& options,
                        const py::dict& request, const std::string& out,
                        const std::string& scenario, bool plot) {
  const app::OrbitSetup s = setup_of(system, start, options, request);
  analysis::Orbit o;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    o = app::find_orbit(s);
    if (!out.empty()) files = app::orbit_files(s, o, scenario, out, plot);
  }
  write_files(files);
  py::dict d = orbit_dict(s, o);
  for (const app::OutputFile& f : files)
    d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
  return d;
}

app::ContinueRequest continue_request_of(const py::dict& d) {
  app::ContinueRequest r;
  r.parameter = get<std::string>(d, "parameter", "");
  r.p_min = get<double>(d, "p_min", r.p_min);
  r.p_max = get<double>(d, "p_max", r.p_max);
  r.direction = get<std::string>(d, "direction", r.direction);
  r.ds = get<double>(d, "ds", r.ds);
  r.ds_max = get<double>(d, "ds_max", r.ds_max);
  r.max_points = get<int>(d, "max_points", r.max_points);
  app::validate(r);
  return r;
}

py::dict point_table(const app::Continuation& c, Eigen::Index n) {
  std::vector<double> pv, period, max_abs, tau_sn, tau_pd, tau_ns, margin;
  std::vector<int> stable, sticks, reliable;
  std::vector<std::string> branch;
  std::size_t rows = 0;
  for (const app::Branch& b : c.branches) rows += b.branch.points.size();
  Eigen::MatrixXd u(static_cast<Eigen::Index>(rows), n);
  Eigen::Index row = 0;
  for (const app::Branch& b : c.branches)
    for (const analysis::OrbitPoint& pt : b.branch.points) {
      branch.push_back(b.direction);
      pv.push_back(pt.p);
      period.push_back(pt.period);
      max_abs.push_back(pt.multipliers.empty() ? 0.0 : std::abs(pt.multipliers.front()));
      stable.push_back(pt.stable ? 1 : 0);
      tau_sn.push_back(pt.tau_sn);
      tau_pd.push_back(pt.tau_pd);
      tau_ns.push_back(pt.tau_ns);
      margin.push_back(pt.margin);
      sticks.push_back(pt.sticks);
      reliable.push_back(pt.monodromy_warning.empty() ? 1 : 0);
      u.row(row++) = pt.u.transpose();
    }
  py::dict d;
  d["branch"] = branch;
  d["p"] = pv;
  d["u"] = u;
  d["period"] = period;
  d["max_abs_multiplier"] = max_abs;
  d["stable"] = stable;
  d["tau_sn"] = tau_sn;
  d["tau_pd"] = tau_pd;
  d["tau_ns"] = tau_ns;
  d["margin"] = margin;
  d["sticks"] = sticks;
  d["multipliers_reliable"] = reliable;
  return d;
}

py::dict continue_orbits(const py::object& system, const py::dict& start, const py::dict& options,
                         const py::dict& request, const py::dict& branch,
                         const py::object& progress, const std::string& out,
                         const std::string& scenario, bool plot) {
  const app::ContinueRequest r = continue_request_of(branch);
  const app::OrbitSetup s = setup_of(system, start, options, request);
  std::function<void(int)> on_point;
  if (!progress.is_none())
    on_point = [&progress](int points) {
      const py::gil_scoped_acquire gil;
      progress(points);
    };
  app::Continuation c;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    c = app::run_continuation(s, r, on_point);
    if (c.start.converged && !out.empty())
      files = app::continuation_files(s, r, c, scenario, out, plot);
  }
  require(c.start.converged, "u0", "the start orbit did not converge: " + c.start.message);
  write_files(files);
  py::dict d = point_table(c, s.problem.dimension());
  py::list bifs;
  py::list branches;
  for (const app::Branch& b : c.branches) {
    for (const analysis::OrbitBifurcation& f : b.branch.bifurcations)
      bifs.append(py::dict(py::arg("branch") = b.direction,
                           py::arg("kind") = std::string(analysis::to_string(f.kind)),
                           py::arg("p") = f.at.p, py::arg("period") = f.at.period,
                           py::arg("max_abs_multiplier") =
                               f.at.multipliers.empty() ? 0.0 : std::abs(f.at.multipliers.front()),
                           py::arg("u") = f.at.u,
                           py::arg("multipliers") = complex_array(f.at.multipliers),
                           py::arg("detail") = f.detail));
    branches.append(py::dict(py::arg("direction") = b.direction,
                             py::arg("points") = b.branch.points.size(),
                             py::arg("end") = std::string(analysis::to_string(b.branch.end)),
                             py::arg("message") = b.branch.message));
    d["end"] = std::string(analysis::to_string(b.branch.end));
    d["message"] = b.branch.message;
  }
  d["bifurcations"] = bifs;
  d["branches"] = branches;
  d["start"] = orbit_dict(s, c.start);
  for (const app::OutputFile& f : files)
    d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
  return d;
}

py::dict poincare(const py::object& system, const py::dict& start, const py::dict& options,
                  const py::dict& request, const std::string& out, const std::string& scenario,
                  bool plot) {
  const Posed p = posed(system, start, options);
  app::SectionRequest r;
  r.section = get<std::string>(request, "section", r.section);
  r.count = get<int>(request, "count", r.count);
  r.transient = get<double>(request, "transient", r.transient);
  r.t_max = get<double>(request, "t_max", r.t_max);
  r.frequency = get<std::string>(request, "frequency", r.frequency);
  r.sample_dt = get<double>(request, "sample_dt", r.sample_dt);
  app::SectionRun run;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    run = app::run_section(*p.model, p.start, p.options, r);
    if (!out.empty()) files = app::section_files(*p.model, r, run, scenario, out, plot);
  }
  write_files(files);
  const auto n = static_cast<Eigen::Index>(run.points.size());
  std::vector<double> t;
  std::vector<int> passed;
  Eigen::MatrixXd x(n, analysis::state_dimension(*p.model));
  for (Eigen::Index k = 0; k < n; ++k) {
    const analysis::SectionPoint& pt = run.points[static_cast<std::size_t>(k)];
    t.push_back(pt.t);
    passed.push_back(static_cast<int>(pt.passed.size()));
    x.row(k) = pt.x.transpose();
  }
  py::dict d;
  d["t"] = t;
  d["x"] = x;
  d["events_passed"] = passed;
  d["stopped"] = run.stopped;
  d["message"] = n < r.count ? run.stopped : std::string();
  for (const app::OutputFile& f : files)
    d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
  return d;
}

py::dict boundary_crossing(const py::object& system, const py::dict& start, const py::dict& options,
                           const py::dict& request, const py::dict& crossing,
                           const std::string& out, const std::string& scenario, bool plot) {
  app::DibRequest r;
  r.parameter = get<std::string>(crossing, "parameter", "");
  r.regions = get<std::vector<int>>(crossing, "regions", {});
  r.impact = get<int>(crossing, "impact", r.impact);
  r.offset = get<double>(crossing, "offset", r.offset);
  r.span = get<double>(crossing, "span", r.span);
  r.kink_step = get<double>(crossing, "kink_step", r.kink_step);
  r.newton = get<std::string>(crossing, "newton", r.newton);
  r.forced = get<bool>(crossing, "forced", r.forced);
  app::validate(r);
  const app::OrbitSetup s = setup_of(system, start, options, request);
  app::Dib dib;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    dib = app::run_dib(s, r, scenario);
    if (dib.critical.converged && !out.empty()) files = app::dib_files(dib, out, plot);
  }
  write_files(files);
  const analysis::CriticalPoint& cp = dib.critical;
  const analysis::BoundaryCrossing& bc = dib.crossing;
  const analysis::FeiginNormalForm& nf = dib.normal_form;
  py::dict d;
  d["converged"] = cp.converged;
  d["message"] = cp.converged ? bc.message : cp.message;
  d["critical_value"] = cp.p;
  d["u"] = cp.u;
  d["H"] = cp.H;
  d["region"] = cp.impact.region;
  if (cp.converged && bc.message.empty()) {
    d["one_minus_sigma"] = bc.one_minus_sigma;
    d["one_minus_sigma_error"] = bc.one_minus_sigma_error;  // NaN: not estimated
    d["D"] = bc.D;
    d["D_error"] = bc.D_error;
    d["verdict"] = bc.verdict;
    d["continuity"] = bc.c1 ? "C1" : "C0";
    d["positive_side"] =
        py::dict(py::arg("p") = bc.positive.p, py::arg("region") = bc.positive.region,
                 py::arg("H") = bc.positive.H,
                 py::arg("multipliers") = complex_array(bc.positive.orbit.multipliers));
    d["negative_side"] =
        py::dict(py::arg("p") = bc.negative.p, py::arg("region") = bc.negative.region,
                 py::arg("H") = bc.negative.H,
                 py::arg("multipliers") = complex_array(bc.negative.orbit.multipliers));
  }
  // the explicit normal form of [NDC] §5.1 (autonomous sections), the digest's symbols
  if (nf.ok) {
    d["normal_form"] =
        py::dict(py::arg("z_star") = nf.z_star, py::arg("dQ_dz") = nf.dQ_dz,
                 py::arg("dQ_dp") = nf.dQ_dp, py::arg("dg1_dz") = nf.dg1_dz,
                 py::arg("dg1_dp") = nf.dg1_dp, py::arg("dg2_minus_g1_dH") = nf.jump,
                 py::arg("dg2_minus_g1_dH_closed_form") = nf.jump_closed_form,
                 py::arg("gamma") = Eigen::VectorXd(nf.gamma.transpose()), py::arg("N") = nf.N,
                 py::arg("alpha") = nf.alpha, py::arg("beta") = nf.beta, py::arg("M") = nf.M,
                 py::arg("sigma") = nf.sigma, py::arg("one_minus_sigma") = nf.one_minus_sigma,
                 py::arg("D") = nf.D, py::arg("eig_alpha") = complex_array(nf.multipliers_positive),
                 py::arg("eig_alpha_plus_beta_gamma") = complex_array(nf.multipliers_negative),
                 py::arg("verdict") = nf.verdict);
  }
  // dib.json as the command writes it (the multiplier kink, the scaled law variables, ...)
  d["report"] = py::module_::import("json").attr("loads")(dib.json);
  for (const app::OutputFile& f : files)
    d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
  return d;
}

}  // namespace

void bind_orbits(py::module_& m) {
  m.def("_periodic_orbit", &periodic_orbit, py::arg("system"), py::arg("start"), py::arg("options"),
        py::arg("request"), py::arg("out") = "", py::arg("scenario") = "", py::arg("plot") = false);
  m.def("_continue_orbits", &continue_orbits, py::arg("system"), py::arg("start"),
        py::arg("options"), py::arg("request"), py::arg("branch"), py::arg("progress") = py::none(),
        py::arg("out") = "", py::arg("scenario") = "", py::arg("plot") = false);
  m.def("_poincare", &poincare, py::arg("system"), py::arg("start"), py::arg("options"),
        py::arg("request"), py::arg("out") = "", py::arg("scenario") = "", py::arg("plot") = false);
  m.def(
      "_parameter_unit",
      [](const std::shared_ptr<model::System>& s, const std::string& name) {
        const model::ParameterSet ps = require_model(s).parameters();
        for (const model::Parameter& p : ps.list())
          if (p.name == name) return p.unit;
        return std::string();
      },
      "the unit of a model's parameter ('' if it has none or is unknown)");
  m.def("_boundary_crossing", &boundary_crossing, py::arg("system"), py::arg("start"),
        py::arg("options"), py::arg("request"), py::arg("crossing"), py::arg("out") = "",
        py::arg("scenario") = "", py::arg("plot") = false);
  m.def(
      "state_names",
      [](const std::shared_ptr<model::System>& s) {
        return analysis::state_names(require_model(s));
      },
      "names of the state x = (q, qdot, aux) of a model: coordinates, '<name>dot', aux names");
}

}  // namespace clatter::python
