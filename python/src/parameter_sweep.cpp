// Sweeps of any named parameter(s) from Python: a thin translation over analysis::run_sweep
// (parameter_sweep.hpp), the computation of `clatter sweep --param ...` (threads, carry-over,
// several initial states, apex, impact, stroboscopic or crossing section
// "crossing:NAME:VALUE[:DIR]", periodic shortcut), with the GIL released and Ctrl-C polled.
//
//   _run_sweep(model, initials, options, axes, carry, section, quantity, contact, transient,
//              record, period_parameter, threads, periodic_tol, periodic_check, clock,
//              max_time, progress) -> dict of per-record columns
//   progress: None, or a callable given (done, total) after each finished record
//   clock: "periods", "time", "impacts[:CONTACT]" or "crossings" (what transient and record
//   count; analysis::parse_clock)
//   initials: [(t, q, qd), ...];  axes: [(name, from, to, n), ...] (1 or 2)
//   out: a folder to write the command's files into (app/sweep_files.hpp: bifurcation.csv,
//   summary.csv, summary.json last), with `scenario` (its name) and `initial_texts` (how each
//   initial state was given) for summary.json; plot: bifurcation.png is named there and the
//   figure's call returned (drawn by clatter/__init__.py), titled `title`; kind: the
//   scenario's name of the model's kind, for messages (default: the model's)

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/app/sweep.hpp"
#include "clatter/app/sweep_files.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/folder_lock.hpp"
#include "streamed_file.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

using Initial = std::tuple<double, Eigen::VectorXd, Eigen::VectorXd>;
using Axis = std::tuple<std::string, double, double, int>;

py::dict run_sweep(const std::shared_ptr<model::System>& m, const std::vector<Initial>& initials,
                   const py::dict& options, const std::vector<Axis>& axes, const std::string& carry,
                   const std::string& section, const std::string& quantity, int contact,
                   double transient, double record, const std::string& period_parameter,
                   int threads, std::optional<double> periodic_tol, bool periodic_check,
                   const std::string& clock, std::optional<double> max_time,
                   const py::object& progress, const std::string& out, const std::string& scenario,
                   const std::vector<std::string>& initial_texts, bool plot,
                   const std::string& title, const std::string& kind) {
  require_model(m);
  app::SweepRequest q;
  for (const auto& [name, from, to, n] : axes) q.axes.push_back({name, from, to, n});
  q.carry_over = carry;
  if (section.rfind("crossing", 0) == 0) {
    const CrossingSpec c = parse_crossing(section, "section");
    q.section = "crossing";
    q.crossing = app::CrossingRequest{c.name, c.value, c.direction};
  } else {
    q.section = section;
  }
  q.observe = quantity;
  q.contact = contact;
  q.transient_periods = transient;
  q.record_periods = record;
  q.period_parameter = period_parameter;
  q.clock = clock;
  q.max_time = max_time;
  q.periodic_tol = periodic_tol;
  q.periodic_check = periodic_check;
  q.threads = threads;
  for (const auto& [t, q0, qd0] : initials) {
    require(q0.size() == m->nq() && qd0.size() == m->nq(), "initial",
            "each initial state needs q and qd with the model's nq entries");
    q.initials.emplace_back(t, model::VecQ(q0), model::VecQ(qd0));
    q.initials.back().aux = model::VecA::Zero(m->num_aux());
  }
  require(!q.initials.empty(), "initial", "give at least one initial state (t0, q, qd)");
  q.initial_texts = initial_texts;
  const hybrid::SimulationOptions o = to_options(options);
  // the command's checks and sweep (app/sweep.hpp)
  const app::SweepSetup setup =
      app::make_sweep(*m, kind.empty() ? std::string(m->kind()) : kind, q.initials.front(), o, q);
  const analysis::ParameterSweep& sw = setup.sweep;
  const std::vector<hybrid::InitialState>& init = setup.initials;
  std::vector<analysis::GridAxis> grid = q.axes;
  analysis::SweepControl control;
  control.threads = threads;
  if (!progress.is_none())  // one call at a time (SweepControl), from a worker thread
    control.on_record = [&progress](const analysis::SweepRecord&, std::size_t done,
                                    std::size_t total) {
      const py::gil_scoped_acquire gil;
      progress(done, total);
    };
  require(out.empty() || initial_texts.size() == init.size(), "initial",
          "one text per initial state");
  std::optional<io::FolderLock> lock;  // held for the call (io/folder_lock.hpp)
  std::optional<StreamedFile> data_file, summary_file, json_file;
  const std::filesystem::path dir = out;
  app::SweepPaths paths{dir / "bifurcation.csv", dir / "summary.csv", {}, {}};
  if (plot) paths.plot = dir / "bifurcation.png";
  if (!out.empty()) {  // every place checked before the run (require_replaceable_file)
    io::require_output_folder(dir, "out");
    lock.emplace(dir, "out");
    data_file.emplace(paths.data);
    summary_file.emplace(paths.summary);
    json_file.emplace(dir / "summary.json");
  }
  analysis::SweepOutcome outcome;
  {
    const py::gil_scoped_release release;
    outcome = analysis::run_sweep(*m, init, o, sw, control);
    if (!out.empty() && outcome.complete) {
      app::SweepWriter writer({scenario, sw, init, setup.initial_texts}, paths,
                              {&data_file->stream, &summary_file->stream, &json_file->stream});
      for (const analysis::SweepRecord& rec : outcome.records) writer.add(rec);
      writer.finish();
    }
  }
  if (!out.empty() && outcome.complete) {
    data_file->commit();
    summary_file->commit();
    json_file->commit();
  }
  const analysis::SweepOutcome& out_records = outcome;
  std::vector<std::size_t> point;
  std::vector<int> run, distinct, cycle;
  std::vector<long> closed_at;
  std::vector<int> refused;
  std::vector<bool> full;
  std::vector<double> ipp;
  std::vector<std::string> reason, error;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<double>> coords(grid.size());
  for (const analysis::SweepRecord& r : out_records.records) {
    point.push_back(r.point);
    run.push_back(r.run);
    distinct.push_back(r.distinct);
    cycle.push_back(r.cycle);
    closed_at.push_back(r.closed_at);
    refused.push_back(r.refused);
    full.push_back(r.complete);
    ipp.push_back(r.impacts_per_period);
    // as the command's summary.csv (app/sweep_files.hpp)
    reason.push_back(app::SweepTable::reason(r));
    error.push_back(app::SweepTable::message(r));
    values.push_back(r.values);
    // point = i0·n1 + i1 (sweep_grid.hpp)
    const auto n1 = static_cast<std::size_t>(sw.grid.extent(1));
    const int i0 = static_cast<int>(r.point / n1);
    const int i1 = static_cast<int>(r.point % n1);
    coords[0].push_back(grid[0].value(i0));
    if (grid.size() > 1) coords[1].push_back(grid[1].value(i1));
  }
  py::dict d;
  for (std::size_t k = 0; k < grid.size(); ++k) d[py::str(grid[k].name)] = coords[k];
  d["point"] = point;
  d["run"] = run;
  d["distinct"] = distinct;
  d["cycle"] = cycle;
  d["closed_at"] = closed_at;
  d["refused"] = refused;
  d["record_complete"] = full;
  d["impacts_per_period"] = ipp;
  d["reason"] = reason;
  d["message"] = error;
  d["values"] = values;
  d["complete"] = outcome.complete;
  if (!out.empty() && outcome.complete && plot) {
    const app::PlotCall call = app::sweep_plot(paths, false, title);
    d["plot"] = py::make_tuple(call.script, call.args, call.out.string());
  } else {
    d["plot"] = py::none();
  }
  if (!out.empty() && outcome.complete)
    d["files"] =
        py::dict(py::arg("data") = paths.data.string(), py::arg("summary") = paths.summary.string(),
                 py::arg("json") = (dir / "summary.json").string());
  d["observable"] = analysis::column_name(sw.observe);
  return d;
}

}  // namespace

void bind_parameter_sweep(py::module_& m) {
  m.def("_run_sweep", &run_sweep, py::arg("model"), py::arg("initials"), py::arg("options"),
        py::arg("axes"), py::arg("carry"), py::arg("section"), py::arg("quantity"),
        py::arg("contact"), py::arg("transient"), py::arg("record"), py::arg("period_parameter"),
        py::arg("threads"), py::arg("periodic_tol"), py::arg("periodic_check"), py::arg("clock"),
        py::arg("max_time"), py::arg("progress") = py::none(), py::arg("out") = "",
        py::arg("scenario") = "", py::arg("initial_texts") = std::vector<std::string>{},
        py::arg("plot") = false, py::arg("title") = "", py::arg("kind") = "");
}

}  // namespace clatter::python
