// Parameter names have one spelling, accepted wherever they are shown (issue 25 item 9): every
// name that System::parameters() lists for a scenario's model (`clatter models --scenario F`) is
// also a key of the scenario's [model] table, which sets that parameter after the kind's factory
// (model::make_model). Before, `clatter models --scenario examples/cradle3.toml` listed A.mass
// and [model] rejected it (it wanted masses = [...]).

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "clatter/core/error.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::io {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// the scenario's text with `line` added at the top of its [model] table
std::string with_model_line(const std::string& text, const std::string& line) {
  const std::size_t at = text.find("[model]\n");
  EXPECT_NE(at, std::string::npos);
  std::string out = text;
  out.insert(at + 8, line + "\n");
  return out;
}

// a value in the parameter's allowed range, different from its current one where possible
double nudged(const std::string& name, double v) {
  if (name.find(".e") != std::string::npos || name == "e") return v > 0.5 ? v - 0.01 : v + 0.01;
  if (v == 0.0) return 0.0;  // amplitudes, frequencies and offsets that may need to stay zero
  return v * 1.01;
}

TEST(ParameterNames, EveryShownNameIsAcceptedInTheModelTable) {
  const std::filesystem::path dir(CLATTER_EXAMPLES_DIR);
  int files = 0, names = 0;
  for (const char* file :
       {"cradle3.toml", "cradle5.toml", "ball_zeno.toml", "rod_fig5.toml", "rocking_block.toml",
        "ball_corner.toml", "physical_pendulum.toml", "ndc_case_5_9.toml",
        "double_pendulum_stick_slip.toml", "stick_slip_oscillator.toml"}) {
    SCOPED_TRACE(file);
    const std::string text = read(dir / file);
    const Scenario base = parse_scenario(text, file, dir);
    ++files;
    const model::ParameterSet shown = base.model->parameters();
    for (const model::Parameter& p : shown.list()) {
      SCOPED_TRACE(p.name);
      const double v = nudged(p.name, p.value);
      std::ostringstream line;
      line.precision(17);
      line << '"' << p.name << "\" = " << v;
      Scenario changed;
      try {
        changed = parse_scenario(with_model_line(text, line.str()), file, dir);
      } catch (const InvalidArgument& e) {
        // a nudged value may leave the model's range (a cradle's pivots closer than the balls'
        // radii): refused for that, never as an unknown key
        EXPECT_EQ(std::string(e.what()).find("unknown"), std::string::npos) << e.what();
        continue;
      }
      EXPECT_EQ(changed.model->parameter(p.name), v);
      ++names;
    }
  }
  EXPECT_EQ(files, 10);
  EXPECT_GT(names, 100);
}

TEST(ParameterNames, DottedKeysAndSubtablesReachTheNamedParameter) {
  const std::filesystem::path dir(CLATTER_EXAMPLES_DIR);
  const std::string text = read(dir / "cradle3.toml");
  // TOML's dotted key A.mass is the table A with the key mass: both spellings work
  const Scenario a = parse_scenario(with_model_line(text, "A.mass = 0.2"), "a", dir);
  EXPECT_EQ(a.model->parameter("A.mass"), 0.2);
  EXPECT_EQ(a.model->parameter("B.mass"), 0.166);  // the others keep mass = 0.166
  const Scenario b = parse_scenario(with_model_line(text, "\"B.mass\" = 0.3"), "b", dir);
  EXPECT_EQ(b.model->parameter("B.mass"), 0.3);
}

TEST(ParameterNames, AnUnknownNameIsRefusedNamingTheKeyAndTheParameters) {
  const std::filesystem::path dir(CLATTER_EXAMPLES_DIR);
  const std::string text = read(dir / "cradle3.toml");
  for (const char* line : {"A.bogus = 1.0", "bogus = 1.0", "A = { mass = 0.2, colour = 3 }"}) {
    SCOPED_TRACE(line);
    try {
      (void)parse_scenario(with_model_line(text, line), "bad", dir);
      FAIL() << "accepted";
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("model."), std::string::npos) << what;
      EXPECT_NE(what.find("A.mass"), std::string::npos) << what;  // lists the parameters
    }
  }
  // a string under a parameter's table is not silently dropped
  try {
    (void)parse_scenario(with_model_line(text, "A = { mass = 0.2, colour = \"red\" }"), "bad", dir);
    FAIL() << "accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("model.A.colour"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace clatter::io
