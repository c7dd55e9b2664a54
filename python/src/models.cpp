// Models and scenarios from Python (model/registry.hpp, io/scenario.hpp):
//
//   models()                          the registered kinds: kind, doc, parameters (if the kind
//                                     can be built with its defaults)
//   Model(kind, law=, e=, mu=, **p)   a registered model with its parameters by name; a nested
//                                     dict names a sub-table (surface={"omega": 4.405} is the
//                                     scenario key surface.omega)
//   load_scenario(path)               a TOML scenario file, the same files as `clatter simulate`

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/conformance.hpp"
#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"

namespace py = pybind11;

namespace clatter::python {

const model::System& require_model(const std::shared_ptr<model::System>& m) {
  if (!m) throw py::type_error("model: expected a clatter.Model, got None");
  return *m;
}

namespace {

// keyword arguments → the flat (dotted name, number) list of a NumberSpec
void flatten(const py::dict& d, const std::string& prefix,
             std::vector<std::pair<std::string, double>>& out) {
  for (const auto& [k, v] : d) {
    const std::string name = prefix + py::str(k).cast<std::string>();
    if (py::isinstance<py::dict>(v)) {
      flatten(v.cast<py::dict>(), name + ".", out);
    } else if ((py::isinstance<py::sequence>(v) && !py::isinstance<py::str>(v)) ||
               py::isinstance<py::array>(v)) {
      // a list (a cradle's masses = [...]): its entries, as NumberSpec reads them
      std::size_t i = 0;
      for (const py::handle x : v) {
        const std::string entry = name + "[" + std::to_string(i++) + "]";
        try {
          out.emplace_back(entry, x.cast<double>());
        } catch (const py::cast_error&) {
          throw InvalidArgument("model." + entry,
                                "must be a number, got " + py::repr(x).cast<std::string>());
        }
      }
    } else {
      try {
        out.emplace_back(name, v.cast<double>());
      } catch (const py::cast_error&) {
        throw InvalidArgument("model." + name,
                              "must be a number (or a list or a dict of numbers), got " +
                                  py::repr(v).cast<std::string>());
      }
    }
  }
}

std::shared_ptr<model::System> make(const std::string& kind, const std::string& law, double e,
                                    double mu, const py::kwargs& params) {
  std::vector<std::pair<std::string, double>> values;
  flatten(params, "", values);
  model::NumberSpec spec(std::move(values));
  LawChoice choice;
  choice.kind = parse_law(law);
  choice.params = {mu, e};
  spec.set_law(choice);
  return model::make_model(kind, spec);
}

py::dict parameters_dict(const model::System& m) {
  py::dict d;
  const model::ParameterSet ps = m.parameters();
  for (const model::Parameter& p : ps.list()) d[py::str(p.name)] = p.value;
  return d;
}

py::list parameter_table(const model::System& m) {
  py::list out;
  const model::ParameterSet ps = m.parameters();
  for (const model::Parameter& p : ps.list())
    out.append(py::dict(py::arg("name") = p.name, py::arg("value") = p.value,
                        py::arg("unit") = p.unit, py::arg("doc") = p.doc));
  return out;
}

py::list contacts_table(const model::System& m) {
  py::list out;
  for (int c = 0; c < m.num_contacts(); ++c) {
    const model::Contact& k = m.contact(c);
    out.append(py::dict(py::arg("name") = k.name,
                        py::arg("law") = std::string(to_string(k.law.kind)),
                        py::arg("e") = k.law.params.e, py::arg("mu") = k.law.params.mu,
                        py::arg("mu_s") = k.mu_s, py::arg("mu_d") = k.mu_d));
  }
  return out;
}

py::list models_list() {
  py::list out;
  for (const model::RegisteredModel& r : model::registered_models()) {
    py::dict d(py::arg("kind") = r.kind, py::arg("doc") = r.doc, py::arg("source") = r.source);
    try {
      model::NumberSpec spec({});
      d["parameters"] = parameter_table(*model::make_model(r.kind, spec));
      d["requires"] = py::none();
    } catch (const InvalidArgument& e) {
      d["parameters"] = py::none();  // the kind needs parameters without defaults
      d["requires"] = std::string(e.what());
    }
    out.append(d);
  }
  return out;
}

// model/conformance.hpp at one state: {"pass": bool, "checks": [{name, error, tolerance, pass}]}
py::dict conformance(const model::System& m, double t, const std::vector<double>& q,
                     const std::vector<double>& qd) {
  const auto vec = [&](const std::vector<double>& v, const char* name) {
    require(static_cast<int>(v.size()) == m.nq(), name,
            "must have " + std::to_string(m.nq()) + " entries (the model's)");
    model::VecQ out(m.nq());
    for (int i = 0; i < m.nq(); ++i) out(i) = v[static_cast<std::size_t>(i)];
    return out;
  };
  const model::ConformanceReport r = model::check_conformance(m, t, vec(q, "q"), vec(qd, "qd"));
  py::list checks;
  for (const model::ConformanceCheck& c : r.checks)
    checks.append(py::dict(py::arg("name") = c.name, py::arg("error") = c.error,
                           py::arg("tolerance") = c.tolerance, py::arg("pass") = c.pass));
  return py::dict(py::arg("pass") = r.pass(), py::arg("checks") = checks,
                  py::arg("message") = r.message());
}

py::dict initial_dict(const hybrid::InitialState& x) {
  return py::dict(py::arg("t") = x.t, py::arg("q") = Eigen::VectorXd(x.q),
                  py::arg("qd") = Eigen::VectorXd(x.qd), py::arg("aux") = Eigen::VectorXd(x.aux));
}

}  // namespace

py::dict options_dict(const hybrid::SimulationOptions& o) {
  py::dict d;
  d["t_end"] = o.t_end;
  d["output_dt"] = o.output_dt;
  d["max_events"] = o.max_events;
  d["max_steps"] = o.max_steps;
  d["max_wall_time"] = o.max_wall_time;
  d["exact_flight"] = o.exact_flight;
  d["exact_contact"] = o.exact_contact;
  d["broad_phase"] = o.broad_phase;
  d["abs_tol"] = o.abs_tol;
  d["rel_tol"] = o.rel_tol;
  d["max_dt"] = o.max_dt;
  d["event_samples"] = o.event_samples;
  d["integrator"] = std::string(to_string(o.integrator));
  d["chatter"] = std::string(to_string(o.chatter));
  d["v_tol"] = o.v_tol;
  d["chatter_tol"] = o.chatter_tol;
  d["chatter_horizon"] = o.chatter_horizon;
  d["two_contact"] = std::string(to_string(o.two_contact));
  d["theta_crit"] = o.theta_crit;
  d["painleve"] = std::string(to_string(o.painleve));
  d["stabilization_omega"] = o.stabilization.omega;
  d["stabilization_zeta"] = o.stabilization.zeta;
  d["zeno_events"] = o.zeno_events;
  d["zeno_window"] = o.zeno_window;
  return d;
}

void bind_models(py::module_& m) {
  m.def("models", &models_list,
        "The registered model kinds: a list of dicts (kind, doc, source: 'built-in' or the plugin, "
        "parameters or None when the kind has required parameters, requires: the message naming "
        "them).");
  m.def(
      "load_plugin",
      [](const std::string& path) {
        // a path as given, or a bare name searched as a scenario's plugin = "NAME" is
        const model::LoadedPlugin& p =
            model::load_plugin(model::find_plugin(path, std::filesystem::current_path()));
        return py::dict(py::arg("name") = p.name, py::arg("path") = p.path.string(),
                        py::arg("kinds") = p.kinds);
      },
      py::arg("path"),
      "Loads a model plugin (a shared library built against clatter, model/plugin.hpp) and "
      "registers its kinds, usable by Model(kind, ...) at C++ speed. A bare name is searched in "
      "the working directory, CLATTER_PLUGIN_PATH and the installed plugins. Returns {name, "
      "path, kinds}; loading the same file again returns the same. ValueError naming the file "
      "if it is missing, not a clatter plugin, or built against another clatter.");
  m.attr("__version__") = std::string(clatter::version());

  py::class_<model::System, std::shared_ptr<model::System>>(
      m, "Model",
      "A mechanical system (model::System): Model(kind, law='stronge', e=0.0, mu=0.0, **params). "
      "Parameters by name as in a scenario's [model] table; a dict names a sub-table "
      "(surface={'amplitude': 1.0, 'omega': 4.405}).")
      .def(py::init(&make), py::arg("kind"), py::arg("law") = "stronge", py::arg("e") = 0.0,
           py::arg("mu") = 0.0)
      .def_property_readonly("kind", [](const model::System& s) { return std::string(s.kind()); })
      .def_property_readonly("nq", &model::System::nq)
      .def_property_readonly("num_aux", &model::System::num_aux)
      .def_property_readonly("num_contacts", &model::System::num_contacts)
      .def_property_readonly("coordinate_names", &model::System::coordinate_names)
      .def_property_readonly("aux_names", &model::System::aux_names)
      .def_property_readonly("contact_names",
                             [](const model::System& s) {
                               std::vector<std::string> n;
                               for (int c = 0; c < s.num_contacts(); ++c)
                                 n.push_back(s.contact(c).name);
                               return n;
                             })
      .def_property_readonly("contacts", &contacts_table,
                             "per contact: name, law, e, mu (at impact), mu_s, mu_d")
      .def_property_readonly("parameters", &parameters_dict, "{name: value} of every parameter")
      .def("parameter_table", &parameter_table, "every parameter with value, unit and doc")
      .def("parameter", &model::System::parameter, py::arg("name"))
      .def("check_conformance", &conformance, py::arg("t"), py::arg("q"), py::arg("qd"),
           "The interface's equations at one state (model/conformance.hpp): M symmetric "
           "positive definite, T, per contact v = J qd - w, J_N and gamma against finite "
           "differences, W, and the energy of a short free run. Returns pass, checks, message.")
      .def(
          "with_parameter",
          [](const model::System& s, const std::string& name, double value) {
            return std::shared_ptr<model::System>(s.with_parameter(name, value));
          },
          py::arg("name"), py::arg("value"), "the same model with one parameter changed")
      .def("__repr__", [](const model::System& s) {
        return "<clatter.Model kind='" + std::string(s.kind()) + "' nq=" + std::to_string(s.nq()) +
               " contacts=" + std::to_string(s.num_contacts()) + ">";
      });

  py::class_<io::Scenario>(m, "Scenario", "A scenario file (io/scenario.hpp): load_scenario(path)")
      .def_readonly("source", &io::Scenario::source, "the file it was read from, as given")
      .def_readonly("name", &io::Scenario::name)
      .def_readonly("description", &io::Scenario::description)
      .def_readonly("kind", &io::Scenario::kind)
      .def_readonly("plot", &io::Scenario::plot)
      .def_readonly("chatter_horizon_given", &io::Scenario::chatter_horizon_given)
      .def_property_readonly(
          "model",
          [](const io::Scenario& s) { return std::const_pointer_cast<model::System>(s.model); })
      .def_property_readonly("initial",
                             [](const io::Scenario& s) { return initial_dict(s.initial); })
      .def_property_readonly("options",
                             [](const io::Scenario& s) { return options_dict(s.options); })
      .def("__repr__", [](const io::Scenario& s) {
        return "<clatter.Scenario '" + s.name + "' kind='" + s.kind + "'>";
      });

  m.def(
      "load_scenario", [](const std::filesystem::path& path) { return io::load_scenario(path); },
      py::arg("path"), "Reads a TOML scenario file (the files of `clatter simulate`).");
}

}  // namespace clatter::python
