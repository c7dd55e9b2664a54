#pragma once
/// @file
/// The parts of the Python module clatter._clatter, each bound by its own file of python/src/,
/// and the conversions they share.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/model/system.hpp"

namespace clatter::python {

void bind_laws(pybind11::module_& m);             ///< laws.cpp: impact, impacts
void bind_models(pybind11::module_& m);           ///< models.cpp: models, Model, Scenario
void bind_simulate(pybind11::module_& m);         ///< simulate.cpp: _simulate
void bind_python_model(pybind11::module_& m);     ///< python_model.cpp: _python_model
void bind_analysis(pybind11::module_& m);         ///< analysis.cpp: sweeps and orbits
void bind_orbits(pybind11::module_& m);           ///< orbits.cpp: orbits, sections of any model
void bind_parameter_sweep(pybind11::module_& m);  ///< parameter_sweep.cpp: _run_sweep
void bind_reports(pybind11::module_& m);          ///< reports.cpp: impact, compliant, multipoint
void bind_schema(pybind11::module_& m);           ///< schema.cpp: the records' field lists

/// Writes an operation's files into `folder` as Python's out= does (outputs.cpp): the folder
/// checked and created, locked for the call (io::FolderLock: another run writing there is a
/// ValueError naming "out"), the temporaries a killed run left removed, each file atomically.
void write_outputs(const std::vector<app::OutputFile>& files, const std::filesystem::path& folder);

/// The model a binding was given: a TypeError naming `model` if it is None (pybind11 passes None
/// to a shared_ptr argument as a null pointer).
const model::System& require_model(const std::shared_ptr<model::System>& m);

/// Simulation options from a dict with the keys of a scenario's [simulation] table (and
/// max_wall_time) over `base`; an unknown key is a ValueError naming it.
[[nodiscard]] hybrid::SimulationOptions to_options(const pybind11::dict& d,
                                                   const hybrid::SimulationOptions& base = {});
/// The options as such a dict.
[[nodiscard]] pybind11::dict options_dict(const hybrid::SimulationOptions& o);

/// A coordinate-crossing section written "crossing:NAME:VALUE[:DIR]" (DIR up, down, both or +1,
/// −1, 0; default both), as `clatter section --section crossing:...`.
struct CrossingSpec {
  std::string name;
  double value{0.0};
  int direction{0};
};
/// Throws InvalidArgument naming `field` for a malformed text.
[[nodiscard]] CrossingSpec parse_crossing(const std::string& text, const char* field);

/// An array's shape for messages: "(3,)", "(1, 1)".
inline std::string shape_text(const pybind11::array& a) {
  std::string s = "(";
  for (pybind11::ssize_t i = 0; i < a.ndim(); ++i)
    s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

}  // namespace clatter::python
