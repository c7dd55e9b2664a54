// Periodic orbits, continuation, Poincaré maps and boundary crossings of any model from Python:
// thin translations over analysis/ (periodic_problem, shooting, orbit_branch, poincare_map,
// critical_point, dib), the same computations as `clatter orbits SCENARIO`, `continue`,
// `section` and `dib`. Every call releases the GIL while it computes.
//
//   _periodic_orbit(model, options, section, solved, x0, closed, u0, shooting) -> dict
//   _continue_orbits(model, options, section, solved, x0, closed, u0, branch, progress) -> dict
//   (progress: None, or a callable given the number of points after each)
//   _poincare(model, options, section, t0, x0, closed, count, t_max) -> dict
//   _boundary_crossing(model, options, section, solved, x0, closed, u0, crossing) -> dict
//
// section: {"kind": "forced"|"autonomous"|"impact", "frequency", "phase", "periods", "anchor",
// "drift", "contact", "impacts", "max_period", "start_time", "modulo_symmetry"}
// for orbits; {"kind": "impact"|"event"|"phase"|"crossing", ...} for Poincaré maps.

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
#include "clatter/core/error.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

template <typename T>
T get(const py::dict& d, const char* key, T fallback) {
  return d.contains(key) ? d[key].cast<T>() : fallback;
}

analysis::PeriodicProblem problem_of(const std::shared_ptr<model::System>& m,
                                     const py::dict& options, const py::dict& section,
                                     const std::vector<std::string>& solved,
                                     const Eigen::VectorXd& x0, const std::vector<bool>& closed) {
  require_model(m);
  analysis::OrbitSection sec;
  const std::string kind = get<std::string>(section, "kind", "forced");
  require(kind == "forced" || kind == "autonomous" || kind == "impact", "section",
          "kind must be forced, autonomous or impact");
  if (kind == "impact") {
    sec.kind = analysis::OrbitSectionKind::kImpact;
    const std::string name = get<std::string>(section, "contact", "");
    std::string names;
    for (int c = 0; c < m->num_contacts(); ++c) {
      if (m->contact(c).name == name) sec.contact = c;
      names += (names.empty() ? "" : ", ") + m->contact(c).name;
    }
    require(sec.contact >= 0, "impact", "no contact \"" + name + "\" (contacts: " + names + ")");
    sec.impacts = get<int>(section, "impacts", 1);
    sec.max_period = get<double>(section, "max_period", sec.max_period);
  } else if (kind == "forced") {
    sec.kind = analysis::OrbitSectionKind::kForced;
    sec.frequency = get<std::string>(section, "frequency", "surface.omega");
    sec.phase = get<double>(section, "phase", 0.0);
    sec.periods = get<int>(section, "periods", 1);
  } else {
    sec.kind = analysis::OrbitSectionKind::kAutonomous;
    sec.anchor = analysis::state_index(*m, get<std::string>(section, "anchor", ""), "anchor");
    sec.drift = get<std::string>(section, "drift", "");
  }
  sec.modulo_symmetry = get<bool>(section, "modulo_symmetry", false);
  std::vector<int> s;
  for (const std::string& n : solved) s.push_back(analysis::state_index(*m, n, "solve"));
  std::array<bool, model::kMaxContacts> c{};
  for (std::size_t i = 0; i < closed.size() && i < c.size(); ++i) c[i] = closed[i];
  analysis::PeriodicProblem p = analysis::make_periodic_problem(
      m, to_options(options), sec, s, x0, c, get<double>(section, "start_time", 0.0));
  return p;
}

py::array_t<std::complex<double>> complex_array(const std::vector<std::complex<double>>& v) {
  py::array_t<std::complex<double>> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::dict orbit_dict(const analysis::Orbit& o) {
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
  py::list events;
  for (const hybrid::EventRecord& e : o.events)
    events.append(py::dict(py::arg("t") = e.t, py::arg("kind") = hybrid::to_string(e.kind),
                           py::arg("contact") = e.contact, py::arg("region") = e.region));
  d["events"] = events;
  return d;
}

analysis::ShootingOptions shooting_of(const py::dict& d) {
  analysis::ShootingOptions o;
  o.tol = get<double>(d, "tol", o.tol);
  o.max_iter = get<int>(d, "max_iter", o.max_iter);
  const std::string mono = get<std::string>(d, "monodromy", "differences");
  require(mono == "differences" || mono == "variational", "monodromy",
          "must be differences or variational");
  o.monodromy = mono == "variational" ? analysis::MonodromyMethod::kVariational
                                      : analysis::MonodromyMethod::kDifferences;
  analysis::validate(o);
  return o;
}

py::dict periodic_orbit(const std::shared_ptr<model::System>& m, const py::dict& options,
                        const py::dict& section, const std::vector<std::string>& solved,
                        const Eigen::VectorXd& x0, const std::vector<bool>& closed,
                        const Eigen::VectorXd& u0, const py::dict& shooting) {
  require_model(m);
  const analysis::PeriodicProblem p = problem_of(m, options, section, solved, x0, closed);
  const analysis::ShootingOptions so = shooting_of(shooting);
  const int segments = get<int>(shooting, "segments", 1);
  analysis::Orbit o;
  {
    const py::gil_scoped_release release;
    o = segments > 1 ? analysis::find_orbit_multiple(p, *m, u0, segments, so)
                     : analysis::find_orbit(p, *m, u0, so);
  }
  return orbit_dict(o);
}

py::dict continue_orbits(const std::shared_ptr<model::System>& m, const py::dict& options,
                         const py::dict& section, const std::vector<std::string>& solved,
                         const Eigen::VectorXd& x0, const std::vector<bool>& closed,
                         const Eigen::VectorXd& u0, const py::dict& branch,
                         const py::object& progress) {
  require_model(m);
  const analysis::PeriodicProblem p = problem_of(m, options, section, solved, x0, closed);
  analysis::OrbitBranchOptions bo;
  bo.parameter = get<std::string>(branch, "parameter", "");
  bo.p_min = get<double>(branch, "p_min", bo.p_min);
  bo.p_max = get<double>(branch, "p_max", bo.p_max);
  bo.direction = get<int>(branch, "direction", 1);
  bo.ds = get<double>(branch, "ds", bo.ds);
  bo.ds_max = get<double>(branch, "ds_max", bo.ds_max);
  bo.ds_min = std::min(bo.ds_min, bo.ds);
  bo.max_points = get<int>(branch, "max_points", bo.max_points);
  if (!progress.is_none())
    bo.on_point = [&progress](const analysis::OrbitPoint&, int points) {
      const py::gil_scoped_acquire gil;
      progress(points);
    };
  analysis::validate(bo);
  analysis::OrbitBranch b;
  {
    const py::gil_scoped_release release;
    const analysis::Orbit start = analysis::find_orbit(p, *m, u0);
    require(start.converged, "u0", "the start orbit did not converge: " + start.message);
    b = analysis::continue_orbits(p, start, bo);
  }
  std::vector<double> pv, period, max_abs, tau_sn, tau_pd, margin;
  std::vector<int> stable;
  Eigen::MatrixXd u(static_cast<Eigen::Index>(b.points.size()), p.dimension());
  for (std::size_t i = 0; i < b.points.size(); ++i) {
    const analysis::OrbitPoint& pt = b.points[i];
    pv.push_back(pt.p);
    period.push_back(pt.period);
    max_abs.push_back(pt.multipliers.empty() ? 0.0 : std::abs(pt.multipliers.front()));
    stable.push_back(pt.stable ? 1 : 0);
    tau_sn.push_back(pt.tau_sn);
    tau_pd.push_back(pt.tau_pd);
    margin.push_back(pt.margin);
    u.row(static_cast<Eigen::Index>(i)) = pt.u.transpose();
  }
  py::list bifs;
  for (const analysis::OrbitBifurcation& f : b.bifurcations)
    bifs.append(py::dict(py::arg("kind") = std::string(analysis::to_string(f.kind)),
                         py::arg("p") = f.at.p, py::arg("u") = f.at.u,
                         py::arg("multipliers") = complex_array(f.at.multipliers),
                         py::arg("detail") = f.detail));
  py::dict d;
  d["p"] = pv;
  d["u"] = u;
  d["period"] = period;
  d["max_abs_multiplier"] = max_abs;
  d["stable"] = stable;
  d["tau_sn"] = tau_sn;
  d["tau_pd"] = tau_pd;
  d["margin"] = margin;
  d["bifurcations"] = bifs;
  d["end"] = std::string(analysis::to_string(b.end));
  d["message"] = b.message;
  return d;
}

py::dict poincare(const std::shared_ptr<model::System>& m, const py::dict& options,
                  const py::dict& section, double t0, const Eigen::VectorXd& x0,
                  const std::vector<bool>& closed, int count, double t_max) {
  require_model(m);
  analysis::PoincareSection s;
  const std::string kind = get<std::string>(section, "kind", "impact");
  if (kind == "impact") {
    s.kind = analysis::PoincareKind::kImpact;
  } else if (kind == "phase") {
    s.kind = analysis::PoincareKind::kPhase;
  } else if (kind == "crossing") {
    s.kind = analysis::PoincareKind::kCrossing;
  } else if (kind == "event") {
    s.kind = analysis::PoincareKind::kEvent;
    const std::string name = get<std::string>(section, "event", "");
    bool known = false;
    for (int k = 0; k <= static_cast<int>(hybrid::EventKind::kParameterChange); ++k)
      if (name == hybrid::to_string(static_cast<hybrid::EventKind>(k))) {
        s.event = static_cast<hybrid::EventKind>(k);
        known = true;
      }
    require(known, "section", "unknown event kind '" + name + "'");
  } else {
    throw InvalidArgument("section", "kind must be impact, event, phase or crossing");
  }
  s.contact = get<int>(section, "contact", -1);
  s.frequency = get<std::string>(section, "frequency", s.frequency);
  s.phase = get<double>(section, "phase", 0.0);
  if (section.contains("component"))
    s.component = analysis::state_index(*m, section["component"].cast<std::string>(), "section");
  s.value = get<double>(section, "value", 0.0);
  s.direction = get<int>(section, "direction", 0);
  s.sample_dt = get<double>(section, "sample_dt", s.sample_dt);
  hybrid::InitialState from;
  from.t = t0;
  require(x0.size() == analysis::state_dimension(*m), "x0", "must have the model's state size");
  analysis::unpack_state(*m, x0, from.q, from.qd, from.aux);
  for (std::size_t i = 0; i < closed.size() && i < from.closed.size(); ++i)
    from.closed[i] = closed[i];
  std::vector<analysis::SectionPoint> seq;
  const hybrid::SimulationOptions o = to_options(options);
  {
    const py::gil_scoped_release release;
    seq = analysis::poincare_sequence(*m, o, s, from, count, t_max);
  }
  std::vector<double> t;
  Eigen::MatrixXd x(0, analysis::state_dimension(*m));
  std::string message;
  for (const analysis::SectionPoint& pt : seq) {
    if (!pt.found) {
      message = pt.message;
      break;
    }
    t.push_back(pt.t);
    x.conservativeResize(x.rows() + 1, Eigen::NoChange);
    x.row(x.rows() - 1) = pt.x.transpose();
  }
  py::dict d;
  d["t"] = t;
  d["x"] = x;
  d["message"] = message;
  return d;
}

py::dict boundary_crossing(const std::shared_ptr<model::System>& m, const py::dict& options,
                           const py::dict& section, const std::vector<std::string>& solved,
                           const Eigen::VectorXd& x0, const std::vector<bool>& closed,
                           const Eigen::VectorXd& u0, const py::dict& crossing) {
  require_model(m);
  const analysis::PeriodicProblem p = problem_of(m, options, section, solved, x0, closed);
  analysis::CriticalPointOptions co;
  co.parameter = get<std::string>(crossing, "parameter", "");
  const auto regions = get<std::vector<int>>(crossing, "regions", {});
  require(regions.size() == 2, "regions", "give the two regions of the boundary");
  co.region_a = regions[0];
  co.region_b = regions[1];
  co.impact = get<int>(crossing, "impact", 0);
  analysis::validate(co);
  analysis::BoundaryCrossingOptions bo;
  bo.offset = get<double>(crossing, "offset", bo.offset);
  analysis::CriticalPoint cp;
  analysis::BoundaryCrossing bc;
  analysis::FeiginNormalForm nf;
  {
    const py::gil_scoped_release release;
    cp = analysis::locate_critical_point(p, u0, co);
    if (cp.converged) bc = analysis::classify_boundary_crossing(p, cp, co, bo);
    if (cp.converged && p.section.kind == analysis::OrbitSectionKind::kAutonomous)
      nf = analysis::feigin_normal_form(p, cp, co);
  }
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
  return d;
}

}  // namespace

void bind_orbits(py::module_& m) {
  m.def("_periodic_orbit", &periodic_orbit);
  m.def("_continue_orbits", &continue_orbits, py::arg("model"), py::arg("options"),
        py::arg("section"), py::arg("solved"), py::arg("x0"), py::arg("closed"), py::arg("u0"),
        py::arg("branch"), py::arg("progress") = py::none());
  m.def("_poincare", &poincare);
  m.def("_boundary_crossing", &boundary_crossing);
  m.def(
      "state_names",
      [](const std::shared_ptr<model::System>& s) {
        return analysis::state_names(require_model(s));
      },
      "names of the state x = (q, qdot, aux) of a model: coordinates, '<name>dot', aux names");
}

}  // namespace clatter::python
