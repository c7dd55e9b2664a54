// Plugins that must be refused or must fail cleanly (tests/unit/model/plugin_test.cpp,
// tests/cli/test_plugin_cli.py). One source, built several times with PLUGIN_CASE set to:
//   1 wrong_version   says it was built against clatter 0.0.0
//   2 wrong_abi       says it uses plugin ABI 999
//   3 throwing_factory registers "throwing_model", whose factory throws std::runtime_error
//   4 duplicate_kind  registers "partial_kind" and then "ball" (a built-in kind): the
//                     registration fails and "partial_kind" must not stay registered
//   5 throwing_register its registration function throws std::runtime_error

#include <memory>
#include <stdexcept>

#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"

namespace {

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
