// Plugins that must be refused or must fail cleanly (tests/unit/model/plugin_test.cpp,
// tests/cli/test_plugin_cli.py). One source, built several times with PLUGIN_CASE set to:
//   1 wrong_version   says it was built against clatter 0.0.0
//   2 wrong_abi       says it uses plugin ABI 999
//   3 throwing_factory registers "throwing_model", whose factory throws std::runtime_error
//   4 duplicate_kind  registers "partial_kind" and then "ball" (a built-in kind): the
//                     registration fails and "partial_kind" must not stay registered
//   5 throwing_register its registration function throws std::runtime_error
//   6 broken_model    registers "broken_model", a point mass above a floor whose normal Jacobian
//                     row has the wrong sign (J_N = −∂g_N/∂q): it fails the conformance check

#include <memory>
#include <stdexcept>

#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"
#include "clatter/model/system.hpp"

namespace {

using clatter::model::VecQ;

// q = (x, y), M = I, f = (0, −1), g_N = y; the wrong row: J_N = (0, −1) instead of (0, 1)
class Broken final : public clatter::model::System {
 public:
  explicit Broken(const clatter::LawChoice& law) {
    set_contacts({clatter::model::Contact::with_law("floor", law)});
  }
  [[nodiscard]] std::string_view kind() const override { return "broken_model"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override { return {"x", "y"}; }
  [[nodiscard]] clatter::model::MatQ mass_matrix(double, const VecQ&) const override {
    return clatter::model::MatQ::Identity(2, 2);
  }
  [[nodiscard]] VecQ applied_forces(double, const VecQ&, const VecQ&,
                                    const clatter::model::VecA&) const override {
    VecQ f(2);
    f << 0.0, -1.0;
    return f;
  }
  void contact_geometry(int, double, const VecQ& q, const VecQ& qd,
                        clatter::model::ContactGeometry& out) const override {
    out.g_N = q(1);
    out.J = clatter::model::Rows2::Zero(2, 2);
    out.J(0, 0) = 1.0;
    out.J(1, 1) = -1.0;  // the wrong sign
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma.setZero();
    out.scale = 1.0;
  }
  [[nodiscard]] double potential_energy(double, const VecQ& q) const override { return q(1); }
  [[nodiscard]] double force_scale() const override { return 1.0; }
  [[nodiscard]] double mass_scale() const override { return 1.0; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<Broken>(*this);
  }
  [[nodiscard]] clatter::model::ParameterSet own_parameters() const override { return {}; }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double) const override {
    (void)parameters().get(name);
    return clone();
  }
};

[[maybe_unused]] std::unique_ptr<clatter::model::System> broken(clatter::model::ModelSpec& s) {
  return std::make_unique<Broken>(s.law());
}

[[maybe_unused]] std::unique_ptr<clatter::model::System> refuse(clatter::model::ModelSpec&) {
  throw std::runtime_error("the test factory always fails");
}

[[maybe_unused]] std::unique_ptr<clatter::model::System> never_called(clatter::model::ModelSpec&) {
  return nullptr;
}

void register_models() {
#if PLUGIN_CASE == 3
  clatter::model::register_model("throwing_model", "a factory that throws", refuse);
#elif PLUGIN_CASE == 4
  clatter::model::register_model("partial_kind", "registered before the failure", never_called);
  clatter::model::register_model("ball", "a kind that exists already", never_called);
#elif PLUGIN_CASE == 5
  throw std::runtime_error("the test registration always fails");
#elif PLUGIN_CASE == 6
  clatter::model::register_model("broken_model", "a model that fails conformance", broken);
#endif
}

}  // namespace

#if PLUGIN_CASE == 1 || PLUGIN_CASE == 2
extern "C" __attribute__((visibility("default"))) const clatter::model::PluginInfo*
clatter_plugin_info() {
  static const clatter::model::PluginInfo info{PLUGIN_CASE == 2 ? 999 : clatter::model::kPluginAbi,
                                               PLUGIN_CASE == 1 ? "0.0.0" : CLATTER_VERSION_STRING,
                                               clatter::model::kEigenVersion, "bad",
                                               &register_models};
  return &info;
}
#else
CLATTER_PLUGIN("bad", register_models)
#endif
