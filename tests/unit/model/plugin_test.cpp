// Plugins (model/plugin.hpp): the example plugin (examples/user_model/spring_box.cpp) loaded at
// run time gives the closed-form motion of its system; every kind of bad plugin is refused with
// one message naming the file, and a plugin whose registration fails leaves nothing registered.

#include "clatter/model/plugin.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/registry.hpp"

namespace clatter::model {
namespace {

const std::filesystem::path kExample = CLATTER_EXAMPLE_PLUGIN;
const std::filesystem::path kBad = CLATTER_TEST_PLUGIN_DIR;

bool registered(const std::string& kind) {
  const auto& all = registered_models();
  return std::any_of(all.begin(), all.end(), [&](const auto& m) { return m.kind == kind; });
}

// the message of the InvalidArgument `f` throws, with its field
template <typename F>
std::pair<std::string, std::string> refusal(F&& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return {e.field(), e.what()};
  }
  return {"", "(nothing thrown)"};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The closed form of examples/user_model/user_model.toml: x(t) = (u0/w) sin(w t) until the first
// impact at t1 = asin(w L/u0)/w, where the speed is sqrt(u0² − w² L²), w = sqrt(k_x/m).
TEST(Plugin, TheExamplePluginGivesTheClosedFormFirstImpact) {
  const LoadedPlugin& p = load_plugin(kExample);
  EXPECT_EQ(p.name, "spring_box");
  ASSERT_EQ(p.kinds, std::vector<std::string>{"spring_box"});
  const auto& all = registered_models();
  const auto it = std::find_if(all.begin(), all.end(),
                               [](const RegisteredModel& m) { return m.kind == "spring_box"; });
  ASSERT_NE(it, all.end());
  EXPECT_EQ(it->source, "plugin " + std::filesystem::canonical(kExample).string());

  // loading the same file again (or the scenario naming it) is not a second registration
  EXPECT_EQ(&load_plugin(kExample), &load_plugin(std::filesystem::canonical(kExample)));
  const io::Scenario sc =
      io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / "user_model/user_model.toml");
  ASSERT_EQ(sc.kind, "spring_box");

  struct First final : hybrid::Recorder {
    double t{NAN}, v{NAN};
    void on_event(const hybrid::EventRecord& e) override {
      if (e.kind == hybrid::EventKind::kImpact && std::isnan(t)) {
        t = e.t;
        v = -e.v_pre.y();
      }
    }
  } first;
  hybrid::SimulationOptions o = sc.options;
  o.t_end = 1.0;
  (void)hybrid::simulate(*sc.model, sc.initial, o, &first);
  const double m = 2.0, k_x = 8.0, L = 0.5, u0 = 3.0;  // user_model.toml
  const double w = std::sqrt(k_x / m);
  EXPECT_NEAR(first.t, std::asin(w * L / u0) / w, 1e-10);
  EXPECT_NEAR(first.v, std::sqrt(u0 * u0 - w * w * L * L), 1e-10);
}

TEST(Plugin, ABareNameIsFoundInTheInstalledPluginFolder) {
  // the build tree mirrors the installed layout: <libdir>/clatter/plugins beside libclatter.so
  EXPECT_EQ(plugin_directory(),
            std::filesystem::canonical(CLATTER_LIBRARY_FILE).parent_path() / "clatter/plugins");
  EXPECT_EQ(std::filesystem::canonical(find_plugin("spring_box", "/nonexistent")),
            std::filesystem::canonical(kExample));
  // a path is taken as given, relative to the base
  EXPECT_EQ(find_plugin("sub/libx.so", "/base"), std::filesystem::path("/base/sub/libx.so"));
  EXPECT_EQ(find_plugin("libx.so", "/base"), std::filesystem::path("/base/libx.so"));
  const auto [field, what] = refusal([] { (void)find_plugin("no_such_plugin", "/tmp", "x.y"); });
  EXPECT_EQ(field, "x.y");
  EXPECT_TRUE(contains(what, "libno_such_plugin.so")) << what;
  EXPECT_TRUE(contains(what, plugin_directory().string())) << what;
}

TEST(Plugin, BadFilesAreRefusedNamingTheFile) {
  const auto missing = refusal([] { (void)load_plugin("/nonexistent/libnothing.so"); });
  EXPECT_EQ(missing.first, "plugin");
  EXPECT_TRUE(contains(missing.second, "/nonexistent/libnothing.so: no such file"))
      << missing.second;

  // a text file is not a shared library; libclatter.so is one, but not a plugin
  const std::filesystem::path text =
      std::filesystem::path(CLATTER_EXAMPLES_DIR) / "user_model/user_model.toml";
  const auto not_library = refusal([&] { (void)load_plugin(text); });
  EXPECT_TRUE(contains(not_library.second, "cannot be loaded as a shared library"))
      << not_library.second;
  const auto not_plugin = refusal([] { (void)load_plugin(CLATTER_LIBRARY_FILE); });
  EXPECT_TRUE(contains(not_plugin.second, "is not a clatter plugin")) << not_plugin.second;

  const auto version = refusal([] { (void)load_plugin(kBad / "wrong_version.so"); });
  EXPECT_TRUE(contains(version.second,
                       "wrong_version.so: was built against clatter 0.0.0, "
                       "this is clatter " +
                           std::string(clatter::version())))
      << version.second;
  const auto abi = refusal([] { (void)load_plugin(kBad / "wrong_abi.so"); });
  EXPECT_TRUE(contains(abi.second, "plugin ABI 999")) << abi.second;
  const std::vector<LoadedPlugin> loaded = loaded_plugins();
  EXPECT_TRUE(std::none_of(loaded.begin(), loaded.end(),
                           [](const LoadedPlugin& p) { return p.name == "bad"; }));
}

TEST(Plugin, AFailedRegistrationLeavesNothingRegistered) {
  const auto duplicate = refusal([] { (void)load_plugin(kBad / "duplicate_kind.so"); });
  EXPECT_TRUE(contains(duplicate.second, "duplicate_kind.so: its registration failed"))
      << duplicate.second;
  EXPECT_TRUE(contains(duplicate.second, "kind 'ball' is registered already (by built-in)"))
      << duplicate.second;
  EXPECT_FALSE(registered("partial_kind"));
  EXPECT_TRUE(registered("ball"));

  const auto thrown = refusal([] { (void)load_plugin(kBad / "throwing_register.so"); });
  EXPECT_TRUE(contains(thrown.second, "the test registration always fails")) << thrown.second;
}

TEST(Plugin, AFactoryThatThrowsIsAnInvalidArgumentNamingTheKindAndThePlugin) {
  (void)load_plugin(kBad / "throwing_factory.so");
  ASSERT_TRUE(registered("throwing_model"));
  NumberSpec spec({});
  const auto [field, what] = refusal([&] { (void)make_model("throwing_model", spec); });
  EXPECT_EQ(field, "model.kind");
  EXPECT_TRUE(contains(what, "the factory of kind 'throwing_model' (plugin "));
  EXPECT_TRUE(contains(what, "throwing_factory.so) failed: the test factory always fails")) << what;
}

TEST(Plugin, AScenarioNamesItsPluginUnderModelPlugin) {
  const std::string text = R"(
[model]
plugin = "no_such_plugin"
kind = "spring_box"
[initial]
q = [0.0, 0.0]
qdot = [0.0, 0.0]
[simulation]
t_end = 1.0
)";
  const auto [field, what] = refusal([&] { (void)io::parse_scenario(text, "test", "/tmp"); });
  EXPECT_EQ(field, "model.plugin");
  EXPECT_TRUE(contains(what, "no plugin 'no_such_plugin'")) << what;
}

}  // namespace
}  // namespace clatter::model
