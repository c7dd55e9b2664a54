// Impact laws from Python (laws/impact_law.hpp): one impact, or N impacts over numpy arrays.
//
//   impact(law, v_pre (2,), W (2, 2), e, mu)              -> dict of scalars and 2-vectors
//   impacts(law, v_pre (N, 2), W (2, 2) | (N, 2, 2), e, mu (scalars or (N,)))
//                                                          -> dict of arrays (N, 2) / (N,)
//   _regions(fix, value, panels, r, n, out, plot)          -> `clatter regions` (app/regions.hpp)
//
// Every impact is apply_law's, the function `clatter impact` calls: the same validation (an
// InvalidArgument naming v_T, v_N, W, mu or e becomes a ValueError naming the Python argument and
// the element) and the same numbers; the vectorised loop resolves the law once per call rather
// than per impact. It runs with the GIL released and allocates nothing per element.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "clatter/app/regions.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "clatter/laws/brach.hpp"
#include "clatter/laws/impact_law.hpp"
#include "clatter/laws/impulse_marcher.hpp"
#include "clatter/laws/newton.hpp"
#include "clatter/laws/rank_one_impact.hpp"
#include "clatter/laws/stronge.hpp"

namespace py = pybind11;

namespace clatter::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// W as a ContactMatrix: a symmetric 2×2 (the CLI's --W A B C is W = [[A, B], [B, C]])
ContactMatrix contact_matrix(const double* w, const char* name) {
  if (w[1] != w[2] && !(std::isnan(w[1]) && std::isnan(w[2])))
    throw InvalidArgument(name, "must be symmetric, got W[0, 1] = " + format_number(w[1]) +
                                    " and W[1, 0] = " + format_number(w[2]));
  return {w[0], w[1], w[3]};
}

// the Python argument an InvalidArgument of apply_law is about (element i when batched)
std::string argument_name(const std::string& field, std::optional<py::ssize_t> i, bool w_batched,
                          bool e_batched, bool mu_batched) {
  const std::string at = i ? "[" + std::to_string(*i) : "";
  const auto elem = [&](bool batched) { return batched ? at + "]" : std::string(); };
  if (field == "v_T") return "v_pre" + (i ? at + ", 0]" : "[0]") + " (v_T)";
  if (field == "v_N") return "v_pre" + (i ? at + ", 1]" : "[1]") + " (v_N)";
  if (field == "v_pre") return "v_pre" + (i ? at + "]" : "");
  if (field == "W") return "W" + elem(w_batched);
  if (field == "e") return "e" + elem(e_batched);
  if (field == "mu") return "mu" + elem(mu_batched);
  return field;
}

std::string what_after_field(const InvalidArgument& err) {
  const std::string w = err.what();
  const std::string prefix = err.field() + ": ";
  return w.rfind(prefix, 0) == 0 ? w.substr(prefix.size()) : w;
}

py::dict outcome_dict(const ImpactOutcome& o) {
  py::dict d;
  d["v_post"] = py::make_tuple(o.v_post.x(), o.v_post.y());
  d["Lambda"] = py::make_tuple(o.Lambda.x(), o.Lambda.y());
  d["region"] = o.region;
  d["brach_case"] = o.brach_case;
  d["delta_energy"] = o.delta_energy;
  d["p_N_compression"] = o.p_N_compression;
  d["status"] = std::string(to_string(o.status));
  d["ends_in_stick"] = o.ends_in_stick;
  return d;
}

py::dict impact_one(const std::string& law_name, const Array& v_pre, const Array& W, double e,
                    double mu) {
  const LawKind law = parse_law(law_name);
  if (v_pre.ndim() != 1 || v_pre.shape(0) != 2)
    throw InvalidArgument("v_pre", "must have shape (2,): (v_T, v_N), got " + shape_text(v_pre));
  if (W.ndim() != 2 || W.shape(0) != 2 || W.shape(1) != 2)
    throw InvalidArgument("W", "must have shape (2, 2), got " + shape_text(W));
  const ImpactInput in{{v_pre.data()[0], v_pre.data()[1]}, contact_matrix(W.data(), "W")};
  try {
    return outcome_dict(apply_law(law, in, {mu, e}));
  } catch (const InvalidArgument& err) {
    throw InvalidArgument(argument_name(err.field(), std::nullopt, false, false, false),
                          what_after_field(err));
  }
}

// a scalar or an (N,) array of parameters
struct Column {
  const double* data{nullptr};
  bool batched{false};
  [[nodiscard]] double at(py::ssize_t i) const { return batched ? data[i] : data[0]; }
};

Column column(const Array& a, py::ssize_t n, const char* name) {
  if (a.ndim() == 0 || (a.ndim() == 1 && a.shape(0) == 1 && n != 1)) return {a.data(), false};
  if (a.ndim() == 1 && a.shape(0) == n) return {a.data(), true};
  throw InvalidArgument(name, "must be a number or have shape (" + std::to_string(n) +
                                  ",) like v_pre's first axis, got " + shape_text(a));
}

// the arrays of one vectorised call (inputs, then outputs)
struct Batch {
  py::ssize_t n;
  const double* v;
  const double* w;
  bool w_batched;
  Column e, mu;
  double *v_post, *Lambda, *delta_energy, *p_N_compression;
  std::int32_t *region, *brach_case;
  std::int8_t* status;
  bool* ends_in_stick;
};

// apply_law (laws/impact_law.cpp) on every row, with the law chosen once per call instead of once
// per impact: rank-one contacts through apply_law itself; else validate, the law, and a
// non-finite result reported as singular. test_vectorised_equals_one_at_a_time checks that every
// law gives apply_law's numbers. Returns the first row that fails validation (its field and
// message), or −1. The batch is taken by value: its pointers stay in registers.
template <typename LawFunction>
py::ssize_t run_batch(LawFunction law_function, LawKind law, const Batch b, std::string& field,
                      std::string& message) {
  for (py::ssize_t i = 0; i < b.n; ++i) {
    try {
      const double* wi = b.w + (b.w_batched ? 4 * i : 0);
      const ImpactInput in{{b.v[2 * i], b.v[2 * i + 1]}, contact_matrix(wi, "W")};
      const ImpactParams params{b.mu.at(i), b.e.at(i)};
      ImpactOutcome o = is_rank_one(in.W) ? apply_law(law, in, params)
                                          : (validate(in, params), law_function(in, params));
      const bool finite =
          o.v_post.allFinite() && o.Lambda.allFinite() && std::isfinite(o.delta_energy);
      if (!finite && o.status != Status::kNoTermination) o.status = Status::kSingular;
      b.v_post[2 * i] = o.v_post.x();
      b.v_post[2 * i + 1] = o.v_post.y();
      b.Lambda[2 * i] = o.Lambda.x();
      b.Lambda[2 * i + 1] = o.Lambda.y();
      b.delta_energy[i] = o.delta_energy;
      b.p_N_compression[i] = o.p_N_compression;
      b.region[i] = o.region;
      b.brach_case[i] = o.brach_case;
      b.status[i] = static_cast<std::int8_t>(o.status);
      b.ends_in_stick[i] = o.ends_in_stick;
    } catch (const InvalidArgument& err) {
      field = err.field();
      message = what_after_field(err);
      return i;
    }
  }
  return -1;
}

py::dict impact_many(const std::string& law_name, const Array& v_pre, const Array& W,
                     const Array& e, const Array& mu) {
  const LawKind law = parse_law(law_name);
  if (v_pre.ndim() != 2 || v_pre.shape(1) != 2)
    throw InvalidArgument("v_pre",
                          "must have shape (N, 2): rows (v_T, v_N), got " + shape_text(v_pre));
  const py::ssize_t n = v_pre.shape(0);
  const bool w_batched = W.ndim() == 3;
  if (!((W.ndim() == 2 && W.shape(0) == 2 && W.shape(1) == 2) ||
        (w_batched && W.shape(0) == n && W.shape(1) == 2 && W.shape(2) == 2)))
    throw InvalidArgument(
        "W", "must have shape (2, 2) or (" + std::to_string(n) + ", 2, 2), got " + shape_text(W));
  const Column ce = column(e, n, "e"), cm = column(mu, n, "mu");

  Array v_post({n, py::ssize_t{2}}), Lambda({n, py::ssize_t{2}});
  py::array_t<double> delta_energy(n), p_N_compression(n);
  py::array_t<std::int32_t> region(n), brach_case(n);
  py::array_t<std::int8_t> status(n);
  py::array_t<bool> ends_in_stick(n);
  double* vp = v_post.mutable_data();
  double* L = Lambda.mutable_data();
  double* dE = delta_energy.mutable_data();
  double* pc = p_N_compression.mutable_data();
  std::int32_t* reg = region.mutable_data();
  std::int32_t* bc = brach_case.mutable_data();
  std::int8_t* st = status.mutable_data();
  bool* stick = ends_in_stick.mutable_data();
  const double* v = v_pre.data();
  const double* w = W.data();

  const Batch b{n, v, w, w_batched, ce, cm, vp, L, dE, pc, reg, bc, st, stick};
  py::ssize_t failed = -1;
  std::string field, message;
  {
    const py::gil_scoped_release release;
    switch (law) {
      case LawKind::kStronge:
        failed = run_batch(stronge_closed_form, law, b, field, message);
        break;
      case LawKind::kStrongeMarcher:
        failed = run_batch(stronge_marcher, law, b, field, message);
        break;
      case LawKind::kNewton:
        failed = run_batch(newton_frictionless, law, b, field, message);
        break;
      case LawKind::kWhittaker:
        failed = run_batch(whittaker, law, b, field, message);
        break;
      case LawKind::kPoisson:
        failed = run_batch(poisson_coulomb, law, b, field, message);
        break;
      case LawKind::kBrach:
        failed = run_batch(brach_extended, law, b, field, message);
        break;
    }
  }
  if (failed >= 0)
    throw InvalidArgument(argument_name(field, failed, w_batched, ce.batched, cm.batched), message);

  py::dict d;
  d["v_post"] = v_post;
  d["Lambda"] = Lambda;
  d["region"] = region;
  d["brach_case"] = brach_case;
  d["delta_energy"] = delta_energy;
  d["p_N_compression"] = p_N_compression;
  d["status"] = status;
  d["ends_in_stick"] = ends_in_stick;
  return d;
}

}  // namespace

void bind_laws(py::module_& m) {
  m.def(
      "_regions",
      [](const std::string& fix, const std::string& value, bool panels, double r, int n,
         const std::string& out, bool plot) {
        app::RegionsRequest q;
        q.fix = fix;
        q.value = value;
        q.panels = panels;
        q.r = r;
        q.n = n;
        app::Regions regions;
        {
          const py::gil_scoped_release release;
          regions = app::run_regions(q);
        }
        py::dict d;
        d["csv"] = regions.csv;
        d["counts"] = regions.counts;
        d["title"] = regions.title;
        if (!out.empty()) {
          const std::vector<app::OutputFile> files = app::regions_files(regions, out, plot);
          write_outputs(files, out);
          for (const app::OutputFile& f : files)
            d[("file_" + f.path.stem().string()).c_str()] = f.path.string();
        }
        return d;
      },
      py::arg("fix"), py::arg("value"), py::arg("panels"), py::arg("r"), py::arg("n"),
      py::arg("out") = "", py::arg("plot") = false,
      "`clatter regions` (app/regions.hpp): regions.csv's text, the counts and the title");
  std::vector<std::string> laws(kLawNames.begin(), kLawNames.end());
  m.attr("LAWS") = py::tuple(py::cast(laws));
  m.attr("STATUS_NAMES") =
      py::make_tuple(to_string(Status::kOk), to_string(Status::kEnergyGain),
                     to_string(Status::kSingular), to_string(Status::kNoTermination));
  m.def("impact", &impact_one, py::arg("law"), py::arg("v_pre"), py::arg("W"), py::arg("e") = 0.0,
        py::arg("mu") = 0.0,
        "One impact: v_pre = (v_T, v_N) with v_N < 0, W = [[A, B], [B, C]] SPD, e in [0, 1], "
        "mu >= 0. Returns a dict (v_post, Lambda, region, brach_case, delta_energy, "
        "p_N_compression, status, ends_in_stick).");
  m.def("impacts", &impact_many, py::arg("law"), py::arg("v_pre"), py::arg("W"), py::arg("e") = 0.0,
        py::arg("mu") = 0.0,
        "N impacts: v_pre (N, 2), W (2, 2) or (N, 2, 2), e and mu numbers or (N,). Returns a dict "
        "of arrays; status holds indices into STATUS_NAMES. The GIL is released during the loop.");
}

}  // namespace clatter::python
