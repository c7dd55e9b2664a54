// The records clatter writes (io/schema.hpp), for Python: clatter.schema() and the column order
// of the tables that mirror the commands' CSV files.
//
//   _schemas() -> [{name, where, doc, json, fields: [{name, unit, doc, repeat, when}]}]
//   _status_words() -> [(result, [word, ...]), ...]: every result's status vocabulary
//   (core/enum_names.hpp)
//   _csv_columns(name, names) -> [(column, unit, doc), ...]: names has the keys of
//   io::SchemaNames
//   (coordinates, aux, contacts, parameters, state, solved, multipliers, observable,
//   planar_body, several_initials, both_directions, periodic_shortcut, summary_json)

#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/core/enum_names.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/data.hpp"
#include "clatter/io/schema.hpp"
#include "clatter/laws/impact.hpp"
#include "clatter/multipoint/multipoint_status.hpp"

namespace clatter::python {

namespace py = pybind11;

namespace {

py::list schemas() {
  py::list out;
  for (const io::RecordSchema& r : io::schemas()) {
    py::list fields;
    for (const io::Field& f : r.fields)
      fields.append(py::dict(py::arg("name") = std::string(f.name),
                             py::arg("unit") = std::string(f.unit),
                             py::arg("doc") = std::string(f.doc),
                             py::arg("repeat") = std::string(io::to_string(f.repeat)),
                             py::arg("when") = std::string(io::to_string(f.when))));
    out.append(py::dict(
        py::arg("name") = std::string(r.name), py::arg("where") = std::string(r.where),
        py::arg("doc") = std::string(r.doc), py::arg("json") = r.json, py::arg("fields") = fields));
  }
  return out;
}

py::list csv_columns(const std::string& name, const py::dict& given) {
  io::SchemaNames n;
  for (const auto& item : given) {
    const auto k = py::cast<std::string>(item.first);
    const py::handle v = item.second;
    if (k == "coordinates")
      n.coordinates = v.cast<std::vector<std::string>>();
    else if (k == "aux")
      n.aux = v.cast<std::vector<std::string>>();
    else if (k == "contacts")
      n.contacts = v.cast<std::vector<std::string>>();
    else if (k == "parameters")
      n.parameters = v.cast<std::vector<std::string>>();
    else if (k == "state")
      n.state = v.cast<std::vector<std::string>>();
    else if (k == "solved")
      n.solved = v.cast<std::vector<std::string>>();
    else if (k == "multipliers")
      n.multipliers = v.cast<int>();
    else if (k == "observable")
      n.observable = v.cast<std::string>();
    else if (k == "planar_body")
      n.planar_body = v.cast<bool>();
    else if (k == "several_initials")
      n.several_initials = v.cast<bool>();
    else if (k == "both_directions")
      n.both_directions = v.cast<bool>();
    else if (k == "periodic_shortcut")
      n.periodic_shortcut = v.cast<bool>();
    else if (k == "summary_json")
      n.summary_json = v.cast<bool>();
    else
      throw InvalidArgument(k, "is not a name list of a record (io/schema.hpp)");
  }
  py::list out;
  for (const io::Column& c : io::csv_fields(io::schema(name), n))
    out.append(py::make_tuple(c.name, std::string(c.unit), std::string(c.doc)));
  return out;
}

template <class E>
py::tuple words(const char* result) {
  py::list w;
  for (std::size_t i = 0; i < name_count<E>(); ++i) w.append(name_of(static_cast<E>(i)));
  return py::make_tuple(result, w);
}

py::list status_words() {
  py::list out;
  out.append(words<hybrid::StopReason>("engine stop reason (simulate, sweep; reason)"));
  out.append(words<Status>("impact law status (events.csv, impact; status)"));
  out.append(words<multipoint::Status>("multi-point collision status (multipoint; status)"));
  out.append(words<compliant::SolveStatus>("compliant impact status (compliant; status)"));
  out.append(words<compliant::Outcome>("compliant impact outcome (compliant; outcome)"));
  out.append(words<analysis::OrbitBranchEnd>(
      "end of an orbit branch (continue; end, orbits --e; end_high, end_low)"));
  return out;
}

}  // namespace

void bind_schema(py::module_& m) {
  m.def("_schemas", &schemas, "the records clatter writes (io/schema.hpp)");
  m.def("_status_words", &status_words, "every result's status vocabulary (core/enum_names.hpp)");
  m.def("_csv_columns", &csv_columns, py::arg("name"), py::arg("names"),
        "a record's columns with its repeated fields expanded (io::csv_columns)");
}

}  // namespace clatter::python
