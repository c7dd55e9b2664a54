// The extension module clatter._clatter; the package clatter (python/clatter/__init__.py) wraps
// it. The library's InvalidArgument (a std::invalid_argument) arrives as ValueError, other
// std::exceptions as RuntimeError (pybind11's translation).

#include <string>

#include "bindings.hpp"
#include "clatter/version.hpp"

PYBIND11_MODULE(_clatter, m) {
  // the extension shares model::System and its kin with the libclatter it loads: one of another
  // version (a library rebuilt or installed beside an older module) has another layout, and
  // would crash at the first call. Refused before any binding is made.
  if (std::string(clatter::version()) != CLATTER_VERSION_STRING)
    throw pybind11::import_error(std::string("clatter: this module was built against clatter ") +
                                 CLATTER_VERSION_STRING + " but loaded libclatter " +
                                 clatter::version() + ": rebuild or reinstall the module");
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
