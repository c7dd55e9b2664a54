// The extension module clatter._clatter; the package clatter (python/clatter/__init__.py) wraps
// it. The library's InvalidArgument (a std::invalid_argument) arrives as ValueError, other
// std::exceptions as RuntimeError (pybind11's translation).

#include "bindings.hpp"

PYBIND11_MODULE(_clatter, m) {
  m.doc() = "clatter: event-driven simulation of rigid bodies with impacts and Coulomb friction";
  clatter::python::bind_laws(m);
  clatter::python::bind_models(m);
  clatter::python::bind_simulate(m);
  clatter::python::bind_python_model(m);
  clatter::python::bind_analysis(m);
  clatter::python::bind_orbits(m);
  clatter::python::bind_parameter_sweep(m);
  clatter::python::bind_reports(m);
  clatter::python::bind_schema(m);
}
