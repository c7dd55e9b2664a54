// The operations of the application layer whose result is a report (JSON text) with CSV files:
// impact, impact-sweep, compliant, compliant-sweep and multipoint (app/impact.hpp,
// impact_sweep.hpp, compliant.hpp, compliant_sweep.hpp, multipoint.hpp). Each binding fills the
// request from a dict of the keywords the user gave (the others keep the request's defaults, the
// CLI's), runs it with the GIL released, writes the files atomically when given a place, and
// returns the report's text, the files' texts and paths, and the figure's script and arguments
// for clatter/__init__.py to draw after the files are in place.
//
//   _impact_report(given, out)                 -> `clatter impact [--out FILE]`
//   _impact_sweep(given, out, plot)            -> `clatter impact-sweep --out DIR`
//   _compliant(given, history)                 -> `clatter compliant [--history FILE]`
//   _compliant_sweep(given, out, plot)         -> `clatter compliant-sweep --out DIR`
//   _multipoint(given, out, plot)              -> `clatter multipoint --out DIR`

#include <pybind11/stl.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "clatter/app/compliant.hpp"
#include "clatter/app/compliant_sweep.hpp"
#include "clatter/app/impact.hpp"
#include "clatter/app/impact_sweep.hpp"
#include "clatter/app/multipoint.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"

namespace clatter::python {

namespace py = pybind11;

namespace {

// name → how a keyword's value is stored into the request
template <class R>
using Fields = std::map<std::string, std::function<void(R&, py::handle)>>;

template <class R, class T>
std::pair<const std::string, std::function<void(R&, py::handle)>> field(const char* name,
                                                                        T R::*member) {
  return {name, [member](R& r, py::handle v) { r.*member = v.cast<T>(); }};
}

// Stores every given keyword; one the operation does not have is a ValueError naming it. A value
// of the wrong type is a TypeError from pybind11's cast.
template <class R>
void fill(R& request, const py::dict& given, const Fields<R>& fields, const char* operation) {
  for (const auto& item : given) {
    const auto k = py::cast<std::string>(item.first);
    const py::handle value = item.second;
    const auto it = fields.find(k);
    if (it == fields.end())
      throw InvalidArgument(k, std::string("is not an option of ") + operation);
    it->second(request, value);
  }
}

// The files written into `out` (a folder, created if missing) each atomically; their paths by
// stem, and the figure's call when there is one.
py::dict written(const std::vector<app::OutputFile>& files,
                 const std::optional<app::PlotCall>& plot, const std::string& out) {
  py::dict d, texts, paths;
  for (const app::OutputFile& f : files) texts[f.path.filename().string().c_str()] = f.content;
  if (!out.empty()) {
    write_outputs(files, out);
    for (const app::OutputFile& f : files)
      paths[f.path.filename().string().c_str()] = f.path.string();
  }
  d["texts"] = texts;
  d["paths"] = paths;
  if (plot && !out.empty())
    d["plot"] = py::make_tuple(plot->script, plot->args, plot->out.string());
  else
    d["plot"] = py::none();
  return d;
}

py::dict impact_report(const py::dict& given, const std::string& out) {
  app::ImpactRequest r;
  fill(r, given,
       Fields<app::ImpactRequest>{
           field("law", &app::ImpactRequest::law), field("W", &app::ImpactRequest::W),
           field("v_pre", &app::ImpactRequest::v_pre), field("mu", &app::ImpactRequest::mu),
           field("e", &app::ImpactRequest::e), field("mass", &app::ImpactRequest::mass),
           field("inertia", &app::ImpactRequest::inertia),
           field("offset", &app::ImpactRequest::offset), field("angle", &app::ImpactRequest::angle),
           field("qdot", &app::ImpactRequest::qdot), field("end", &app::ImpactRequest::end)},
       "impact_report");
  if (!out.empty()) io::require_replaceable_file(out, "out");
  app::ImpactReport report;
  {
    const py::gil_scoped_release release;
    report = app::run_impact(r);
  }
  if (!out.empty()) io::write_file_atomic(out, report.json, "out");
  py::dict d;
  d["json"] = report.json;
  d["resolved"] = report.resolved();
  return d;
}

py::dict impact_sweep(const py::dict& given, const std::string& out, bool plot) {
  using R = app::ImpactSweepRequest;
  R r;
  fill(r, given,
       Fields<R>{field("preset", &R::preset), field("kind", &R::kind), field("angle", &R::angle),
                 field("qdot", &R::qdot), field("e", &R::e), field("mu", &R::mu),
                 field("from_", &R::from), field("to", &R::to), field("n", &R::n),
                 field("mass", &R::mass), field("inertia", &R::inertia),
                 field("offset", &R::offset), field("end", &R::end)},
       "impact_sweep");
  app::ImpactSweep s;
  {
    const py::gil_scoped_release release;
    s = app::run_impact_sweep(r, out, plot);
  }
  py::dict d = written(s.files, s.plot, out);
  d["json"] = s.summary;
  return d;
}

Fields<app::CompliantBody> body_fields() {
  using B = app::CompliantBody;
  return {field("body", &B::body),
          field("W", &B::W),
          field("v", &B::v),
          field("theta", &B::theta),
          field("theta_deg", &B::theta_deg),
          field("mass", &B::mass),
          field("radius", &B::radius),
          field("length", &B::length),
          field("V0", &B::V0),
          field("lean", &B::lean),
          field("mu", &B::mu),
          field("eta", &B::eta),
          field("k3", &B::k3)};
}

py::dict compliant(const py::dict& given, const std::string& history) {
  using R = app::CompliantRequest;
  R r;
  Fields<R> fields{field("method", &R::method), field("samples", &R::samples),
                   field("follow_lock", &R::follow_lock), field("t_max", &R::t_max)};
  for (auto& [name, set] : body_fields())
    fields[name] = [set = set](R& q, py::handle v) { set(q.body, v); };
  fill(r, given, fields, "compliant");
  if (!history.empty()) io::require_replaceable_file(history, "history");
  app::CompliantReport report;
  {
    const py::gil_scoped_release release;
    report = app::run_compliant(r, history);
  }
  if (!history.empty()) io::write_file_atomic(history, report.history, "history");
  py::dict d;
  d["json"] = report.json;
  d["history"] = report.history;
  d["resolved"] = report.resolved();
  d["message"] = report.resolved() ? std::string() : app::unresolved_message(report);
  return d;
}

py::dict compliant_sweep(const py::dict& given, const std::string& out, bool plot) {
  using R = app::CompliantSweepRequest;
  R r;
  fill(r, given,
       Fields<R>{field("preset", &R::preset), field("n", &R::n), field("theta_deg", &R::theta_deg),
                 field("mu", &R::mu), field("B", &R::B)},
       "compliant_sweep");
  app::CompliantSweep s;
  {
    const py::gil_scoped_release release;
    s = app::run_compliant_sweep(r, out, plot);
  }
  py::dict d = written(s.files, s.plot, out);
  d["json"] = s.summary;
  return d;
}

py::dict multipoint(const py::dict& given, const std::string& out, bool plot) {
  using R = app::MultipointRequest;
  R r;
  fill(r, given,
       Fields<R>{field("preset", &R::preset), field("e_star", &R::e_star), field("mu_s", &R::mu_s),
                 field("mu_d", &R::mu_d), field("work_def", &R::work_def),
                 field("compression", &R::compression), field("recipe", &R::recipe),
                 field("pairs", &R::pairs), field("method", &R::method), field("qdot", &R::qdot),
                 field("max_events", &R::max_events), field("max_steps", &R::max_steps),
                 field("masses", &R::masses), field("v_pre", &R::v_pre),
                 field("length", &R::length), field("radius", &R::radius)},
       "multipoint");
  app::Multipoint m;
  {
    const py::gil_scoped_release release;
    m = app::run_multipoint(r, out, plot);
  }
  py::dict d = written(m.files, m.plot, out);
  d["json"] = m.summary;
  d["failure"] = m.failure;
  return d;
}

}  // namespace

void bind_reports(py::module_& m) {
  m.def("_impact_report", &impact_report, py::arg("given"), py::arg("out") = "",
        "`clatter impact` (app/impact.hpp): the JSON report, whether the law resolved it");
  m.def("_impact_sweep", &impact_sweep, py::arg("given"), py::arg("out") = "",
        py::arg("plot") = false, "`clatter impact-sweep` (app/impact_sweep.hpp)");
  m.def("_compliant", &compliant, py::arg("given"), py::arg("history") = "",
        "`clatter compliant` (app/compliant.hpp): the JSON report and the history CSV");
  m.def("_compliant_sweep", &compliant_sweep, py::arg("given"), py::arg("out") = "",
        py::arg("plot") = false, "`clatter compliant-sweep` (app/compliant_sweep.hpp)");
  m.def("_multipoint", &multipoint, py::arg("given"), py::arg("out") = "", py::arg("plot") = false,
        "`clatter multipoint` (app/multipoint.hpp)");
}

}  // namespace clatter::python
