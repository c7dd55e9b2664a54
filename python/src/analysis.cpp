// Analysis from Python, as thin as possible over analysis/ (the sweeps are being generalised: keep
// this file a translation of arguments and results only):
//
//   _sweep_omega(model, t0, q, qd, options, omega_from, omega_to, n, transient_periods,
//                record_periods, continuation, threads)
//       the older analysis::sweep_omega, GIL released -> (omega, y_apex) and (omega, distinct,
//       samples, reason); no command runs it any more (clatter.sweep is analysis::run_sweep):
//       kept as an independent implementation the tests compare run_sweep with
//   _orbit_branch(e, amplitude, gravity, periods, omega_min, omega_max, cascade, out, plot)
//       `clatter orbits` for one e (app/ball_orbits.hpp, the same operation): the stable
//       period-n orbit halfway between the closed-form SN and PD, continued both ways -> the
//       columns of branches.csv and bifurcations.csv (with cascade = K: the period-doubling
//       cascade, as --cascade K); with out, the command's three files written there
//   _painleve(given, out, plot) -> `clatter painleve` (app/painleve.hpp)
//   find_orbit(amplitude, omega, gravity, e, impacts, periods, guess) -> dict (shooting)
//   closed_form_orbit(amplitude, omega, gravity, e, periods) -> dict

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/complex.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/app/ball_orbits.hpp"
#include "clatter/app/painleve.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

template <typename T>
py::array_t<T> array(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

model::VecQ to_vec(const Array& a, int n, const char* name) {
  require(a.ndim() == 1 && a.shape(0) == n, name,
          "must be a flat sequence of " + std::to_string(n) + " numbers (the model's), got " +
              shape_text(a));
  model::VecQ v(n);
  for (int i = 0; i < n; ++i) v(i) = a.data()[i];
  return v;
}

py::dict sweep(const std::shared_ptr<model::System>& model, double t0, const Array& q,
               const Array& qd, const hybrid::SimulationOptions& options,
               const analysis::SweepOptions& sw) {
  require_model(model);
  hybrid::InitialState init;
  init.t = t0;
  init.q = to_vec(q, model->nq(), "q");
  init.qd = to_vec(qd, model->nq(), "qd");
  std::vector<analysis::SweepPoint> points;
  {
    const py::gil_scoped_release release;
    points = analysis::sweep_omega(*model, init, options, sw);
  }
  std::vector<double> omega, y_apex, s_omega;
  std::vector<std::int32_t> distinct;
  std::vector<std::int64_t> samples;
  py::list reason;
  for (const analysis::SweepPoint& p : points) {
    for (const double y : p.apex_heights) {
      omega.push_back(p.omega);
      y_apex.push_back(y);
    }
    s_omega.push_back(p.omega);
    distinct.push_back(p.distinct);
    samples.push_back(static_cast<std::int64_t>(p.apex_heights.size()));
    reason.append(std::string(hybrid::to_string(p.reason)));
  }
  py::dict bifurcation, summary;
  bifurcation["omega"] = array(omega);
  bifurcation["y_apex"] = array(y_apex);
  summary["omega"] = array(s_omega);
  summary["distinct"] = array(distinct);
  summary["samples"] = array(samples);
  summary["reason"] = reason;
  return py::dict(py::arg("bifurcation") = bifurcation, py::arg("summary") = summary);
}

// the columns of branches.csv / bifurcations.csv, from the rows `clatter orbits` writes
py::dict branch_columns(double e, const std::vector<app::BallOrbitPoint>& points) {
  std::vector<double> omega, phase, velocity, apex_min, apex_max, l1_re, l1_im, l2_re, l2_im,
      margin;
  std::vector<std::int32_t> impacts, periods, stable;
  for (const app::BallOrbitPoint& p : points) {
    impacts.push_back(p.impacts);
    periods.push_back(p.periods);
    omega.push_back(p.omega);
    phase.push_back(p.phase);
    velocity.push_back(p.velocity);
    apex_min.push_back(p.apex_min);
    apex_max.push_back(p.apex_max);
    l1_re.push_back(p.multipliers[0].real());
    l1_im.push_back(p.multipliers[0].imag());
    l2_re.push_back(p.multipliers[1].real());
    l2_im.push_back(p.multipliers[1].imag());
    stable.push_back(p.stable ? 1 : 0);
    margin.push_back(p.margin);
  }
  py::dict d;
  d["e"] = array(std::vector<double>(points.size(), e));
  d["impacts"] = array(impacts);
  d["periods"] = array(periods);
  d["omega"] = array(omega);
  d["phase"] = array(phase);
  d["velocity"] = array(velocity);
  d["apex_min"] = array(apex_min);
  d["apex_max"] = array(apex_max);
  d["lambda1_re"] = array(l1_re);
  d["lambda1_im"] = array(l1_im);
  d["lambda2_re"] = array(l2_re);
  d["lambda2_im"] = array(l2_im);
  d["stable"] = array(stable);
  d["margin"] = array(margin);
  return d;
}

py::dict bifurcation_columns(double e, const std::vector<app::BallBifurcation>& rows) {
  std::vector<std::string> kind;
  std::vector<double> omega, phase, velocity, apex_max, l1, l2, margin, closed;
  std::vector<std::int32_t> impacts, periods;
  for (const app::BallBifurcation& b : rows) {
    kind.emplace_back(analysis::to_string(b.kind));
    impacts.push_back(b.at.impacts);
    periods.push_back(b.at.periods);
    omega.push_back(b.at.omega);
    phase.push_back(b.at.phase);
    velocity.push_back(b.at.velocity);
    apex_max.push_back(b.at.apex_max);
    l1.push_back(b.at.multipliers[0].real());
    l2.push_back(b.at.multipliers[1].real());
    margin.push_back(b.at.margin);
    closed.push_back(b.closed_form_omega);
  }
  py::dict bif;
  bif["e"] = array(std::vector<double>(rows.size(), e));
  bif["impacts"] = array(impacts);
  bif["periods"] = array(periods);
  bif["kind"] = kind;
  bif["omega"] = array(omega);
  bif["phase"] = array(phase);
  bif["velocity"] = array(velocity);
  bif["apex_max"] = array(apex_max);
  bif["lambda1"] = array(l1);
  bif["lambda2"] = array(l2);
  bif["margin"] = array(margin);
  bif["closed_form_omega"] = array(closed);
  return bif;
}

// `clatter orbits` for one e (app/ball_orbits.hpp), as Tables' columns; with `out`, its files
py::dict orbit_branch(const app::BallOrbitsRequest& r, const std::string& out, bool plot) {
  std::vector<app::BallOrbitsOfE> result;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    result = app::run_ball_orbits(r);
    if (!out.empty()) files = app::ball_orbits_files(r, result, out, plot);
  }
  if (!files.empty()) write_outputs(files, out);
  const app::BallOrbitsOfE& o = result.front();
  std::vector<std::int32_t> c_impacts, c_periods;
  std::vector<double> c_omega;
  for (const app::CascadeLevel& c : o.cascade) {
    c_impacts.push_back(c.impacts);
    c_periods.push_back(c.periods);
    c_omega.push_back(c.omega_pd);
  }
  return py::dict(
      py::arg("branches") = branch_columns(o.e, o.points),
      py::arg("bifurcations") = bifurcation_columns(o.e, o.bifurcations),
      py::arg("start_omega") = o.start_omega,
      py::arg("omega_sn_closed_form") = o.closed_form.omega_sn,
      py::arg("omega_pd_closed_form") = o.closed_form.omega_pd,
      py::arg("end_high") = std::string(analysis::to_string(o.end_high)),
      py::arg("end_low") = std::string(analysis::to_string(o.end_low)),
      py::arg("end_high_message") = o.end_high_message,
      py::arg("end_low_message") = o.end_low_message,
      py::arg("cascade") =
          py::dict(py::arg("impacts") = array(c_impacts), py::arg("periods") = array(c_periods),
                   py::arg("omega_pd") = array(c_omega)),
      py::arg("files") = files.empty() ? py::dict()
                                       : py::dict(py::arg("branches") = files[0].path.string(),
                                                  py::arg("bifurcations") = files[1].path.string(),
                                                  py::arg("summary") = files[2].path.string()));
}

}  // namespace

namespace {

analysis::SweepOptions sweep_options(double omega_from, double omega_to, int n,
                                     double transient_periods, double record_periods,
                                     bool continuation, int threads) {
  analysis::SweepOptions sw;
  sw.omega_from = omega_from;
  sw.omega_to = omega_to;
  sw.n = n;
  sw.transient_periods = transient_periods;
  sw.record_periods = record_periods;
  sw.continuation = continuation;
  sw.threads = threads;
  return sw;
}

}  // namespace

namespace {

// `clatter painleve` (app/painleve.hpp): the runs as columns, the values used, the files
py::dict painleve(const py::dict& given, const std::string& out, bool plot) {
  app::PainleveRequest r;
  for (const auto& [key, v] : given) {
    const auto k = key.cast<std::string>();
    if (k == "preset")
      r.preset = v.cast<std::string>();
    else if (k == "theta")
      r.theta = v.cast<double>();
    else if (k == "phi")
      r.phi = v.cast<double>();
    else if (k == "belt_velocity")
      r.belt_velocity = v.cast<double>();
    else if (k == "e")
      r.e = v.cast<double>();
    else if (k == "mu0")
      r.mu0 = v.cast<double>();
    else if (k == "mu_p")
      r.mu_p = v.cast<std::vector<double>>();
    else if (k == "torque")
      r.torque = v.cast<double>();
    else if (k == "t_jump")
      r.t_jump = v.cast<double>();
    else if (k == "t_end")
      r.t_end = v.cast<double>();
    else
      throw InvalidArgument(k, "is not an option of painleve");
  }
  app::Painleve p;
  std::vector<app::OutputFile> files;
  {
    const py::gil_scoped_release release;
    p = app::run_painleve(r);
    if (!out.empty()) files = app::painleve_files(r, p, out, plot);
  }
  if (!files.empty()) write_outputs(files, out);
  py::list runs;
  for (const app::PainleveRun& run : p.runs) {
    const analysis::BeltRunResult& res = run.result;
    std::vector<double> t, th, ph, thd, phd, gap, gap_rate, slip, lambda_N;
    std::vector<std::string> phase;
    for (const analysis::BeltSample& x : res.samples) {
      t.push_back(x.t);
      th.push_back(x.q.x());
      ph.push_back(x.q.y());
      thd.push_back(x.qd.x());
      phd.push_back(x.qd.y());
      gap.push_back(x.gap);
      gap_rate.push_back(x.gap_rate);
      slip.push_back(x.slip);
      lambda_N.push_back(x.lambda_N);
      phase.emplace_back(analysis::to_string(x.phase));
    }
    py::dict samples;
    samples["t"] = array(t);
    samples["theta"] = array(th);
    samples["phi"] = array(ph);
    samples["theta_dot"] = array(thd);
    samples["phi_dot"] = array(phd);
    samples["gap"] = array(gap);
    samples["gap_rate"] = array(gap_rate);
    samples["slip"] = array(slip);
    samples["lambda_N"] = array(lambda_N);
    samples["phase"] = phase;
    std::vector<double> et, v_T_pre, v_N_pre, v_T_post, v_N_post, L_T, L_N, dE;
    std::vector<std::string> kind;
    std::vector<std::int32_t> region;
    for (const hybrid::EventRecord& e : res.events) {
      et.push_back(e.t);
      kind.emplace_back(hybrid::to_string(e.kind));
      region.push_back(e.region);
      v_T_pre.push_back(e.v_pre.x());
      v_N_pre.push_back(e.v_pre.y());
      v_T_post.push_back(e.v_post.x());
      v_N_post.push_back(e.v_post.y());
      L_T.push_back(e.Lambda.x());
      L_N.push_back(e.Lambda.y());
      dE.push_back(e.delta_energy);
    }
    py::dict events;
    events["t"] = array(et);
    events["kind"] = kind;
    events["region"] = array(region);
    events["v_T_pre"] = array(v_T_pre);
    events["v_N_pre"] = array(v_N_pre);
    events["v_T_post"] = array(v_T_post);
    events["v_N_post"] = array(v_N_post);
    events["Lambda_T"] = array(L_T);
    events["Lambda_N"] = array(L_N);
    events["delta_energy"] = array(dE);
    runs.append(
        py::dict(py::arg("mu_p") = run.mu_p, py::arg("torque") = run.torque,
                 py::arg("reason") = std::string(hybrid::to_string(res.result.reason)),
                 py::arg("message") = res.result.message, py::arg("t_stop") = res.result.t,
                 py::arg("energy_balance") = res.result.energy.balance(),
                 py::arg("samples") = samples, py::arg("events") = events,
                 py::arg("W") = std::vector<double>{res.W_jump.A, res.W_jump.B, res.W_jump.C},
                 py::arg("mu_critical") = res.mu_critical));
  }
  py::dict d;
  d["preset"] = r.preset;
  d["theta"] = p.theta;
  d["phi"] = p.phi;
  d["belt_velocity"] = p.belt_velocity;
  d["e"] = p.e;
  d["mu0"] = p.mu0;
  d["mu_p"] = p.mu_p;
  d["t_jump"] = r.t_jump;
  d["t_end"] = r.t_end;
  d["runs"] = runs;
  d["title"] = app::painleve_title(r, p);
  for (const app::OutputFile& f : files)
    d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
  return d;
}

}  // namespace

void bind_analysis(py::module_& m) {
  m.def("_painleve", &painleve, py::arg("given"), py::arg("out") = "", py::arg("plot") = false,
        "`clatter painleve` (app/painleve.hpp): the values used, the runs, the files written");
  m.def(
      "_sweep_omega",
      [](const std::shared_ptr<model::System>& model, double t0, const Array& q, const Array& qd,
         const py::dict& options, double omega_from, double omega_to, int n,
         double transient_periods, double record_periods, bool continuation, int threads) {
        require_model(model);
        return sweep(model, t0, q, qd, to_options(options),
                     sweep_options(omega_from, omega_to, n, transient_periods, record_periods,
                                   continuation, threads));
      },
      py::arg("model"), py::arg("t0"), py::arg("q"), py::arg("qd"), py::arg("options"),
      py::arg("omega_from"), py::arg("omega_to"), py::arg("n"), py::arg("transient_periods"),
      py::arg("record_periods"), py::arg("continuation"), py::arg("threads"));
  m.def(
      "_orbit_branch",
      [](double e, double amplitude, double gravity, int periods, double omega_min,
         double omega_max, int cascade, const std::string& out, bool plot) {
        app::BallOrbitsRequest r;
        r.e = {e};
        r.amplitude = amplitude;
        r.gravity = gravity;
        r.periods = periods;
        r.omega_min = omega_min;
        r.omega_max = omega_max;
        r.cascade = cascade;
        return orbit_branch(r, out, plot);
      },
      py::arg("e"), py::arg("amplitude"), py::arg("gravity"), py::arg("periods"),
      py::arg("omega_min"), py::arg("omega_max"), py::arg("cascade") = 0, py::arg("out") = "",
      py::arg("plot") = false);
  m.def(
      "find_orbit",
      [](double amplitude, double omega, double gravity, double e, int impacts, int periods,
         std::optional<std::pair<double, double>> guess) {
        require(e > 0.0 && e < 1.0, "e", "must lie in (0, 1)", e);
        model::Surface s;
        s.amplitude = amplitude;
        s.omega = omega;
        const analysis::ImpactOscillator osc(
            model::make_ball(1.0, 0.0, gravity, s, {LawKind::kNewton, {0.0, e}}));
        const analysis::ImpactState z0 =
            guess ? analysis::ImpactState{guess->first, guess->second}
                  : analysis::closed_form_orbit(amplitude, omega, gravity, e, periods).stable;
        analysis::PeriodicOrbit o;
        {
          const py::gil_scoped_release release;
          o = analysis::find_periodic_orbit(osc, z0, impacts, periods);
        }
        return py::dict(py::arg("phase") = o.z.phase, py::arg("velocity") = o.z.velocity,
                        py::arg("impacts") = o.impacts, py::arg("periods") = o.periods,
                        py::arg("converged") = o.converged, py::arg("iterations") = o.iterations,
                        py::arg("residual") = o.residual, py::arg("DP") = Eigen::Matrix2d(o.DP),
                        py::arg("multipliers") = std::vector<std::complex<double>>(
                            o.multipliers.begin(), o.multipliers.end()),
                        py::arg("stable") = o.stable);
      },
      py::arg("amplitude"), py::arg("omega"), py::arg("gravity"), py::arg("e"),
      py::arg("impacts") = 1, py::arg("periods") = 1, py::arg("guess") = std::nullopt,
      "Newton shooting for a periodic orbit of the ball on A sin(wt) (Newton restitution e) with "
      "m impacts in n periods, from `guess` = (phase, velocity) after an impact or the "
      "closed-form stable orbit; Floquet multipliers of D(P^m).");
  m.def(
      "closed_form_orbit",
      [](double amplitude, double omega, double gravity, double e, int periods) {
        const analysis::ClosedFormOrbit c =
            analysis::closed_form_orbit(amplitude, omega, gravity, e, periods);
        return py::dict(py::arg("exists") = c.exists, py::arg("stable_phase") = c.stable.phase,
                        py::arg("stable_velocity") = c.stable.velocity,
                        py::arg("unstable_phase") = c.unstable.phase,
                        py::arg("unstable_velocity") = c.unstable.velocity,
                        py::arg("trace_stable") = c.trace_stable,
                        py::arg("determinant") = c.determinant, py::arg("omega_sn") = c.omega_sn,
                        py::arg("omega_pd") = c.omega_pd);
      },
      py::arg("amplitude"), py::arg("omega"), py::arg("gravity"), py::arg("e"),
      py::arg("periods") = 1,
      "The closed form of the period-n orbits of the ball on A sin(wt) (Newton restitution).");
}

}  // namespace clatter::python
