#include "commands/sweep_hdf5.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "clatter/io/schema.hpp"

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

struct SweepHdf5::File {};

SweepHdf5::SweepHdf5(const std::filesystem::path& /*path*/, const SweepTable& /*t*/) {
  throw std::runtime_error("this clatter was built without HDF5 (install libhdf5-dev and rebuild)");
}
SweepHdf5::~SweepHdf5() = default;
void SweepHdf5::add(const analysis::SweepRecord& /*r*/) {}
void SweepHdf5::finish() {}

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

  // an empty dataset of `dims`, chunked, its last dimension growing (set_extent), filled with NaN
  hid_t growing(const std::string& name, const std::vector<hsize_t>& dims,
                const std::vector<hsize_t>& chunk) {
    std::vector<hsize_t> max = dims;
    max.back() = H5S_UNLIMITED;
    const Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max.data()),
                   H5Sclose, name.c_str());
    const Id dcpl(H5Pcopy(dcpl_), H5Pclose, "a property list");
    check(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), name);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    check(H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &nan), name);
    const hid_t d =
        H5Dcreate2(file_, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0) throw std::runtime_error("HDF5: cannot create " + name);
    open_.push_back(d);
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

// rows [first, first + count) of axis 0, all of the other dimensions up to `last` (the last one)
void write_rows(hid_t d, hid_t type, std::vector<hsize_t> dims, hsize_t first, hsize_t count,
                hsize_t last, const void* data, const std::string& name) {
  std::vector<hsize_t> start(dims.size(), 0);
  start[0] = first;
  dims[0] = count;
  dims.back() = last;
  const Id file_space(H5Dget_space(d), H5Sclose, name.c_str());
  check(
      H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, dims.data(), nullptr),
      name);
  const Id memory(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
                  name.c_str());
  check(H5Dwrite(d, type, memory, file_space, H5P_DEFAULT, data), name);
}

}  // namespace

struct SweepHdf5::File {
  // a block: whole rows of axis 0, the per-record quantities in slot order
  struct Block {
    std::vector<std::vector<double> > values;
    std::vector<int> count, distinct, cycle, refused;
    std::vector<double> ipp;
    std::vector<signed char> reason;
    std::vector<long long> events, steps, closed_at;
    std::vector<std::string> errors;
    std::size_t value_bytes{0};
    void clear() {
      for (auto* v : {&count, &distinct, &cycle, &refused}) v->clear();
      values.clear();
      ipp.clear();
      reason.clear();
      for (auto* v : {&events, &steps, &closed_at}) v->clear();
      errors.clear();
      value_bytes = 0;
    }
  };

  File(const std::filesystem::path& path, const SweepTable& t)
      : w(path),
        periodic(t.sweep.periodic.tol > 0.0),
        observable(analysis::column_name(t.sweep.observe)) {
    const analysis::SweepPlan plan = t.plan();
    const analysis::SweepGrid& grid = t.sweep.grid;
    const auto R = static_cast<hsize_t>(plan.runs());
    for (int k = 0; k < grid.dimension(); ++k) dims.push_back(static_cast<hsize_t>(grid.extent(k)));
    dims.push_back(R);
    row = 1;
    for (std::size_t k = 1; k < dims.size(); ++k) row *= static_cast<std::size_t>(dims[k]);

    // coordinates (dimension scales)
    for (int k = 0; k < grid.dimension(); ++k) {
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
    const hid_t ri = w.dataset("run_initial", H5T_NATIVE_INT, {R}, run_initial);
    check(H5DSattach_scale(ri, run, 0), "run_initial");
    const hid_t rd = w.dataset("run_direction", H5T_NATIVE_INT, {R}, run_direction);
    check(H5DSattach_scale(rd, run, 0), "run_direction");
    w.attribute(rd, "description", "+1: carry-over up, -1: down, 0: independent runs");

    // the values: (n_0[, n_1], R, S), S growing; chunks of about 32 K doubles
    std::vector<hsize_t> dims_s = dims;
    dims_s.push_back(0);
    std::vector<hsize_t> chunk(dims_s.size(), 1);
    chunk.back() = 256;
    hsize_t room = 128;  // records per chunk
    for (std::size_t k = dims.size(); k-- > 0;) {
      chunk[k] = std::max<hsize_t>(1, std::min(dims[k], room));
      room = std::max<hsize_t>(1, room / chunk[k]);
    }
    values = w.growing(observable, dims_s, chunk);
    attach(values);
    w.attribute(values, "description",
                "the observable on the " +
                    std::string(analysis::to_string(t.sweep.observe.section)) +
                    " section after the transient, NaN-padded");
    samples = per_point("samples", H5T_NATIVE_INT);
    distinct = per_point("distinct", H5T_NATIVE_INT);
    ipp = per_point("impacts_per_period", H5T_NATIVE_DOUBLE);
    reason = per_point("reason", H5T_NATIVE_SCHAR);
    std::vector<signed char> flags;
    std::string meanings = "error";
    flags.push_back(-1);
    for (int k = 0; k < hybrid::kNumStopReasons; ++k) {
      flags.push_back(static_cast<signed char>(k));
      meanings += std::string(" ") + hybrid::to_string(static_cast<hybrid::StopReason>(k));
    }
    w.attribute(reason, "flag_values", H5T_NATIVE_SCHAR, flags);
    w.attribute(reason, "flag_meanings", meanings);
    events = per_point("events", H5T_NATIVE_LLONG);
    steps = per_point("rk_steps", H5T_NATIVE_LLONG);
    if (periodic) {
      cycle = per_point("cycle", H5T_NATIVE_INT);
      closed_at = per_point("closed_at", H5T_NATIVE_LLONG);
      refused = per_point("refused", H5T_NATIVE_INT);
    }
    string_type = H5Tcopy(H5T_C_S1);
    if (string_type < 0) throw std::runtime_error("HDF5: cannot create a string type");
    check(H5Tset_size(string_type, H5T_VARIABLE), "error");
    error = w.dataset("error", string_type, dims, std::vector<const char*>{});
    attach(error);

    const hid_t f = w.file();
    w.attribute(f, "scenario", t.scenario);
    w.attribute(f, "observable", observable);
    w.attribute(f, "carry_over", analysis::to_string(t.sweep.carry));
    w.attribute(f, "transient_periods", H5T_NATIVE_DOUBLE,
                std::vector<double>{t.sweep.transient_periods});
    w.attribute(f, "record_periods", H5T_NATIVE_DOUBLE,
                std::vector<double>{t.sweep.record_periods});
    w.attribute(f, "periodic_tol", H5T_NATIVE_DOUBLE, std::vector<double>{t.sweep.periodic.tol});
  }
  ~File() {
    if (string_type >= 0) H5Tclose(string_type);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // a dataset of one number per (point, run), written later by blocks; its scales attached
  // a per-point dataset, described as its field of the sweep's records (io/schema.hpp)
  hid_t per_point(const std::string& name, hid_t type) {
    const hid_t d = w.dataset(name, type, dims, std::vector<int>{});
    attach(d);
    for (const io::Field& f : io::schema(io::RecordKind::kSweepPoint).fields)
      if (f.name == name) w.attribute(d, "description", std::string(f.doc));
    return d;
  }

  void attach(hid_t ds) {
    for (std::size_t k = 0; k < scales.size(); ++k)
      check(H5DSattach_scale(ds, scales[k], static_cast<unsigned>(k)), "a dimension scale");
  }

  void add(const analysis::SweepRecord& r) {
    b.values.push_back(r.values);
    b.value_bytes += r.values.size() * sizeof(double);
    b.count.push_back(static_cast<int>(r.values.size()));
    b.distinct.push_back(r.distinct);
    b.ipp.push_back(r.impacts_per_period);
    b.reason.push_back(r.error.empty() ? static_cast<signed char>(r.reason)
                                       : static_cast<signed char>(-1));
    b.events.push_back(r.events);
    b.steps.push_back(r.rk_steps);
    b.cycle.push_back(r.cycle);
    b.closed_at.push_back(r.closed_at);
    b.refused.push_back(r.refused);
    b.errors.push_back(r.error);
    // a block ends with a row of axis 0, once it holds 1 024 records or 4 MB of values
    if (b.count.size() % row == 0 &&
        (b.count.size() >= 1024 || b.value_bytes >= (std::size_t{4} << 20)))
      flush();
  }

  void flush() {
    if (b.count.empty()) return;
    const hsize_t rows = b.count.size() / row;
    std::size_t s_block = 0;
    for (const std::vector<double>& v : b.values) s_block = std::max(s_block, v.size());
    if (s_block > S) {
      S = s_block;
      std::vector<hsize_t> extent = dims;
      extent.push_back(S);
      check(H5Dset_extent(values, extent.data()), observable);
    }
    if (s_block > 0) {
      std::vector<double> padded(b.values.size() * s_block,
                                 std::numeric_limits<double>::quiet_NaN());
      for (std::size_t i = 0; i < b.values.size(); ++i)
        std::copy(b.values[i].begin(), b.values[i].end(), padded.begin() + i * s_block);
      std::vector<hsize_t> dims_s = dims;
      dims_s.push_back(S);
      write_rows(values, H5T_NATIVE_DOUBLE, dims_s, first_row, rows, s_block, padded.data(),
                 observable);
    }
    const hsize_t last = dims.back();
    write_rows(samples, H5T_NATIVE_INT, dims, first_row, rows, last, b.count.data(), "samples");
    write_rows(distinct, H5T_NATIVE_INT, dims, first_row, rows, last, b.distinct.data(),
               "distinct");
    write_rows(ipp, H5T_NATIVE_DOUBLE, dims, first_row, rows, last, b.ipp.data(),
               "impacts_per_period");
    write_rows(reason, H5T_NATIVE_SCHAR, dims, first_row, rows, last, b.reason.data(), "reason");
    write_rows(events, H5T_NATIVE_LLONG, dims, first_row, rows, last, b.events.data(), "events");
    write_rows(steps, H5T_NATIVE_LLONG, dims, first_row, rows, last, b.steps.data(), "rk_steps");
    if (periodic) {
      write_rows(cycle, H5T_NATIVE_INT, dims, first_row, rows, last, b.cycle.data(), "cycle");
      write_rows(closed_at, H5T_NATIVE_LLONG, dims, first_row, rows, last, b.closed_at.data(),
                 "closed_at");
      write_rows(refused, H5T_NATIVE_INT, dims, first_row, rows, last, b.refused.data(), "refused");
    }
    std::vector<const char*> text(b.errors.size());
    for (std::size_t i = 0; i < text.size(); ++i) text[i] = b.errors[i].c_str();
    write_rows(error, string_type, dims, first_row, rows, last, text.data(), "error");
    first_row += rows;
    b.clear();
  }

  void finish() {
    flush();
    std::vector<int> index(S);
    for (std::size_t i = 0; i < S; ++i) index[i] = static_cast<int>(i);
    const hid_t sample = w.dataset("sample", H5T_NATIVE_INT, {static_cast<hsize_t>(S)}, index);
    check(H5DSset_scale(sample, "sample"), "sample");
    check(H5DSattach_scale(values, sample, static_cast<unsigned>(scales.size())), "sample");
  }

  Writer w;
  bool periodic;
  std::string observable;
  std::vector<hsize_t> dims;  // (n_0[, n_1], R)
  std::size_t row{1};         // records per row of axis 0
  std::vector<hid_t> scales;
  hid_t values{-1}, samples{-1}, distinct{-1}, ipp{-1}, reason{-1}, events{-1}, steps{-1};
  hid_t cycle{-1}, closed_at{-1}, refused{-1}, error{-1};
  hid_t string_type{-1};
  std::size_t S{0};  // the values' extent along the samples
  hsize_t first_row{0};
  Block b;
};

SweepHdf5::SweepHdf5(const std::filesystem::path& path, const SweepTable& t)
    : f_(std::make_unique<File>(path, t)) {}

SweepHdf5::~SweepHdf5() = default;

void SweepHdf5::add(const analysis::SweepRecord& r) { f_->add(r); }

void SweepHdf5::finish() {
  f_->finish();
  f_.reset();  // closes the file
}

#endif

}  // namespace clatter::cli
