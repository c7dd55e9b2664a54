#include "commands/sweep_hdf5.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef CLATTER_HAVE_HDF5
#include <hdf5.h>
#include <hdf5_hl.h>
// HDF5's constants (H5S_ALL, H5T_VARIABLE, H5T_NATIVE_*) are macros with C casts
#pragma GCC diagnostic ignored "-Wold-style-cast"
#endif

namespace clatter::cli {

bool hdf5_available() {
#ifdef CLATTER_HAVE_HDF5
  return true;
#else
  return false;
#endif
}

#ifndef CLATTER_HAVE_HDF5

void write_sweep_hdf5(const std::filesystem::path& /*path*/, const SweepTable& /*t*/) {
  throw std::runtime_error("this clatter was built without HDF5 (install libhdf5-dev and rebuild)");
}

#else

namespace {

// an HDF5 identifier closed at scope end
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) {
    if (id_ < 0) throw std::runtime_error(std::string("HDF5: cannot create ") + what);
  }
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id_; }  // NOLINT: used as the handle it is

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t e, const std::string& what) {
  if (e < 0) throw std::runtime_error("HDF5: cannot write " + what);
}

class Writer {
 public:
  explicit Writer(const std::filesystem::path& path)
      : fcpl_(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "a property list"),
        dcpl_(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "a property list"),
        file_(create(path), H5Fclose, "the file") {
    check(H5Pset_obj_track_times(dcpl_, 0), "properties");
  }

  // a dataset of `dims` with data; returns its id (kept open for attaching scales)
  template <class T>
  hid_t dataset(const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                const std::vector<T>& data) {
    const Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
                   name.c_str());
    const hid_t d = H5Dcreate2(file_, name.c_str(), type, space, H5P_DEFAULT, dcpl_, H5P_DEFAULT);
    if (d < 0) throw std::runtime_error("HDF5: cannot create " + name);
    open_.push_back(d);
    if (!data.empty()) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), name);
    return d;
  }

  void attribute(hid_t obj, const std::string& name, const std::string& value) {
    const Id type(H5Tcopy(H5T_C_S1), H5Tclose, "a string type");
    check(H5Tset_size(type, std::max<std::size_t>(value.size(), 1)), name);
    check(H5Tset_strpad(type, H5T_STR_NULLTERM), name);
    const Id space(H5Screate(H5S_SCALAR), H5Sclose, name.c_str());
    const Id a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
               name.c_str());
    std::string v = value;
    v.resize(std::max<std::size_t>(value.size(), 1), '\0');
    check(H5Awrite(a, type, v.data()), name);
  }

  template <class T>
  void attribute(hid_t obj, const std::string& name, hid_t type, const std::vector<T>& values) {
    const hsize_t n = values.size();
    const Id space(H5Screate_simple(1, &n, nullptr), H5Sclose, name.c_str());
    const Id a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
               name.c_str());
    check(H5Awrite(a, type, values.data()), name);
  }

  [[nodiscard]] hid_t file() const { return file_; }

  ~Writer() {
    for (const hid_t d : open_) H5Dclose(d);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

 private:
  hid_t create(const std::filesystem::path& path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl_, H5P_DEFAULT);
  }
  Id fcpl_;
  Id dcpl_;
  Id file_;
  std::vector<hid_t> open_;
};

}  // namespace

void write_sweep_hdf5(const std::filesystem::path& path, const SweepTable& t) {
  const analysis::SweepPlan plan = t.plan();
  const analysis::SweepGrid& grid = t.sweep.grid;
  const int d = grid.dimension();
  const auto R = static_cast<hsize_t>(plan.runs());
  std::size_t S = 0;
  for (const analysis::SweepRecord& r : t.records) S = std::max(S, r.values.size());
  std::vector<hsize_t> dims;
  for (int k = 0; k < d; ++k) dims.push_back(static_cast<hsize_t>(grid.extent(k)));
  dims.push_back(R);
  std::vector<hsize_t> dims_s = dims;
  dims_s.push_back(static_cast<hsize_t>(S));
  const std::size_t n = t.records.size();

  Writer w(path);
  // coordinates (dimension scales)
  std::vector<hid_t> scales;
  for (int k = 0; k < d; ++k) {
    const analysis::GridAxis& a = grid.axes()[static_cast<std::size_t>(k)];
    std::vector<double> v(static_cast<std::size_t>(a.n));
    for (int i = 0; i < a.n; ++i) v[static_cast<std::size_t>(i)] = a.value(i);
    const hid_t s = w.dataset(a.name, H5T_NATIVE_DOUBLE, {static_cast<hsize_t>(a.n)}, v);
    check(H5DSset_scale(s, a.name.c_str()), a.name);
    scales.push_back(s);
  }
  std::vector<int> runs(R), run_initial(R), run_direction(R);
  for (hsize_t r = 0; r < R; ++r) {
    runs[r] = static_cast<int>(r);
    run_initial[r] = plan.initial_of(static_cast<int>(r));
    run_direction[r] = t.sweep.carry == analysis::CarryOver::kNone
                           ? 0
                           : (plan.descending(static_cast<int>(r)) ? -1 : 1);
  }
  const hid_t run = w.dataset("run", H5T_NATIVE_INT, {R}, runs);
  check(H5DSset_scale(run, "run"), "run");
  scales.push_back(run);
  std::vector<int> samples_index(S);
  for (std::size_t i = 0; i < S; ++i) samples_index[i] = static_cast<int>(i);
  const hid_t sample =
      w.dataset("sample", H5T_NATIVE_INT, {static_cast<hsize_t>(S)}, samples_index);
  check(H5DSset_scale(sample, "sample"), "sample");
  const hid_t ri = w.dataset("run_initial", H5T_NATIVE_INT, {R}, run_initial);
  check(H5DSattach_scale(ri, run, 0), "run_initial");
  const hid_t rd = w.dataset("run_direction", H5T_NATIVE_INT, {R}, run_direction);
  check(H5DSattach_scale(rd, run, 0), "run_direction");
  w.attribute(rd, "description", "+1: carry-over up, -1: down, 0: independent runs");

  const auto attach = [&](hid_t ds, bool with_samples) {
    for (std::size_t k = 0; k < scales.size(); ++k)
      check(H5DSattach_scale(ds, scales[k], static_cast<unsigned>(k)), "a dimension scale");
    if (with_samples)
      check(H5DSattach_scale(ds, sample, static_cast<unsigned>(scales.size())), "sample");
  };

  std::vector<double> values(n * S, std::numeric_limits<double>::quiet_NaN());
  std::vector<int> count(n), distinct(n);
  std::vector<double> ipp(n);
  std::vector<signed char> reason(n);
  std::vector<long long> events(n), steps(n), closed_at(n);
  std::vector<int> cycle(n), refused(n);
  std::vector<std::string> errors(n);
  for (std::size_t i = 0; i < n; ++i) {
    const analysis::SweepRecord& r = t.records[i];
    for (std::size_t j = 0; j < r.values.size(); ++j) values[i * S + j] = r.values[j];
    count[i] = static_cast<int>(r.values.size());
    distinct[i] = r.distinct;
    ipp[i] = r.impacts_per_period;
    reason[i] = r.error.empty() ? static_cast<signed char>(r.reason) : static_cast<signed char>(-1);
    events[i] = r.events;
    steps[i] = r.rk_steps;
    cycle[i] = r.cycle;
    closed_at[i] = r.closed_at;
    refused[i] = r.refused;
    errors[i] = r.error;
  }
  const std::string obs = analysis::column_name(t.sweep.observe);
  const hid_t v = w.dataset(obs, H5T_NATIVE_DOUBLE, dims_s, values);
  attach(v, true);
  w.attribute(v, "description",
              "the observable on the " + std::string(analysis::to_string(t.sweep.observe.section)) +
                  " section after the transient, NaN-padded");
  const hid_t c = w.dataset("samples", H5T_NATIVE_INT, dims, count);
  attach(c, false);
  const hid_t di = w.dataset("distinct", H5T_NATIVE_INT, dims, distinct);
  attach(di, false);
  w.attribute(di, "description", "distinct section values (1e-6 relative), -1: more than 64");
  const hid_t ip = w.dataset("impacts_per_period", H5T_NATIVE_DOUBLE, dims, ipp);
  attach(ip, false);
  const hid_t re = w.dataset("reason", H5T_NATIVE_SCHAR, dims, reason);
  attach(re, false);
  std::vector<signed char> flags;
  std::string meanings = "error";
  flags.push_back(-1);
  for (int k = 0; k <= static_cast<int>(hybrid::StopReason::kCancelled); ++k) {
    flags.push_back(static_cast<signed char>(k));
    meanings += std::string(" ") + hybrid::to_string(static_cast<hybrid::StopReason>(k));
  }
  w.attribute(re, "flag_values", H5T_NATIVE_SCHAR, flags);
  w.attribute(re, "flag_meanings", meanings);
  const hid_t ev = w.dataset("events", H5T_NATIVE_LLONG, dims, events);
  attach(ev, false);
  const hid_t st = w.dataset("rk_steps", H5T_NATIVE_LLONG, dims, steps);
  attach(st, false);
  if (t.sweep.periodic.tol > 0.0) {
    const hid_t cy = w.dataset("cycle", H5T_NATIVE_INT, dims, cycle);
    attach(cy, false);
    w.attribute(cy, "description",
                "forcing periods of the cycle the periodic shortcut closed (0: run in full)");
    const hid_t ca = w.dataset("closed_at", H5T_NATIVE_LLONG, dims, closed_at);
    attach(ca, false);
    w.attribute(ca, "description", "the forcing period at which the cycle closed");
    const hid_t rf = w.dataset("refused", H5T_NATIVE_INT, dims, refused);
    attach(rf, false);
    w.attribute(rf, "description", "cycles the stability check refused (not shown stable)");
  }
  {
    const Id type(H5Tcopy(H5T_C_S1), H5Tclose, "a string type");
    check(H5Tset_size(type, H5T_VARIABLE), "error");
    std::vector<const char*> ptrs(n);
    for (std::size_t i = 0; i < n; ++i) ptrs[i] = errors[i].c_str();
    const hid_t er = w.dataset("error", type, dims, ptrs);
    attach(er, false);
  }
  const hid_t f = w.file();
  w.attribute(f, "scenario", t.scenario);
  w.attribute(f, "observable", obs);
  w.attribute(f, "carry_over", analysis::to_string(t.sweep.carry));
  w.attribute(f, "transient_periods", H5T_NATIVE_DOUBLE,
              std::vector<double>{t.sweep.transient_periods});
  w.attribute(f, "record_periods", H5T_NATIVE_DOUBLE, std::vector<double>{t.sweep.record_periods});
  w.attribute(f, "periodic_tol", H5T_NATIVE_DOUBLE, std::vector<double>{t.sweep.periodic.tol});
}

#endif

}  // namespace clatter::cli
