// `clatter regions --fix B|mu VALUE [--r R] [--n N] [--out DIR]` and `clatter regions --panels`:
// the region maps of Stronge's law in the scaled variables of [NDC] §3.2 (A = C = 1, v_N⁻ = −1;
// spec/003_dib.md §3.2–3.6): [NDC] Fig. 4(b)–(d), the region (0–10) of every pre-impact v_T on a
// section of fixed B (axes μ ∈ [0, 3], v_T ∈ [−3, 3]) or of fixed μ (axes B ∈ (−1, 1), v_T), and
// Fig. 2, the parameter panels (a)–(e) of the (B, μ) plane (spec §3.3). Writes, atomically:
// regions.csv (x,v_T,region,ends_in_stick or B,mu,panel), summary.json (the points per region or
// panel; also on stdout), regions.png.

#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/laws/stronge.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct RegionsCliOptions {
  std::vector<std::string> fix;  // {"B"|"mu", value}
  bool panels{false};
  double r{0.9};
  int n{301};
  std::string out{"out/regions"};
  bool plot{true};
};

// [NDC] Fig. 2 / spec §3.3 (scaled, |B| < 1): the sign pattern of the rate constants
char panel(double B, double mu) {
  if (B > mu) return 'd';                    // k_T⁺ > 0: no impulsive stick, + side
  if (B < -mu) return 'e';                   // k_T⁻ < 0
  if (B > 0.0 && mu * B > 1.0) return 'b';   // k_N⁺ < 0: jam for positive slip
  if (B < 0.0 && -mu * B > 1.0) return 'c';  // k_N⁻ < 0
  return 'a';
}

int run_regions(const RegionsCliOptions& o) {
  require(o.n >= 11 && o.n <= 4001, "n", "must lie in [11, 4001]");
  require(std::isfinite(o.r) && o.r >= 0.0 && o.r <= 1.0, "r", "must lie in [0, 1]", o.r);
  require(o.panels != !o.fix.empty(), "fix", "give either --fix B|mu VALUE or --panels");
  std::ostringstream csv;
  csv.precision(10);
  std::map<std::string, int> counts;
  std::string xname = "B", title;
  if (o.panels) {
    csv << "B,mu,panel\n";
    for (int i = 0; i < o.n; ++i) {
      const double B = -0.999 + 1.998 * i / (o.n - 1);
      for (int j = 0; j < o.n; ++j) {
        const double mu = 3.0 * j / (o.n - 1);
        const char c = panel(B, mu);
        csv << B << ',' << mu << ',' << c << '\n';
        ++counts[std::string(1, c)];
      }
    }
    title = "parameter panels (a)-(e)";
  } else {
    require(o.fix.size() == 2 && (o.fix[0] == "B" || o.fix[0] == "mu"), "fix",
            "give B VALUE or mu VALUE");
    double value = 0.0;
    std::size_t used = 0;
    try {
      value = std::stod(o.fix[1], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // the whole word: "1.2.3" is not 1.2
    require(used > 0 && used == o.fix[1].size() && std::isfinite(value), "fix",
            "'" + o.fix[1] + "' is not a finite number");
    const bool fixB = o.fix[0] == "B";
    if (fixB) {
      require(std::abs(value) < 1.0, "fix", "the scaled B must lie in (-1, 1)", value);
    } else {
      require(value >= 0.0 && std::isfinite(value), "fix", "mu must be >= 0", value);
    }
    xname = fixB ? "mu" : "B";
    csv << xname << ",v_T,region,ends_in_stick\n";
    for (int i = 0; i < o.n; ++i) {
      const double x = fixB ? 3.0 * i / (o.n - 1) : -0.999 + 1.998 * i / (o.n - 1);
      const double B = fixB ? value : x, mu = fixB ? x : value;
      const ContactMatrix W{1.0, B, 1.0};
      for (int j = 0; j < o.n; ++j) {
        const double vT = -3.0 + 6.0 * (j + 0.5) / o.n;
        const ImpactOutcome out = stronge_closed_form({{vT, -1.0}, W}, {mu, o.r});
        csv << x << ',' << vT << ',' << out.region << ',' << (out.ends_in_stick ? 1 : 0) << '\n';
        ++counts[std::to_string(out.region)];
      }
    }
    title = std::string("section ") + o.fix[0] + " = " + o.fix[1] + ", r = " + std::to_string(o.r);
  }
  const std::filesystem::path dir = o.out;
  const auto data = dir / "regions.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "regions.png";
  nlohmann::json summary = {{"title", title},
                            {"points", counts},
                            {"files",
                             {{"regions", data.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, csv.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    files.draw(png, js, [&] {
      run_plot_script("regions.py",
                      {"--regions", files.temporary(data).string(), "--title", title, "--out",
                       files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  return 0;
}

}  // namespace

Run add_regions(CLI::App& app) {
  auto o = std::make_shared<RegionsCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "regions", "Region maps of Stronge's law in scaled variables ([NDC] Figs 2 and 4)");
  sub->add_option("--fix", o->fix, "B VALUE or mu VALUE: the section")->expected(2);
  sub->add_flag("--panels", o->panels, "the (B, mu) parameter panels (a)-(e) of Fig. 2");
  sub->add_option("--r", o->r, "e* (the paper's r)")->capture_default_str();
  sub->add_option("--n", o->n, "grid points per axis")->capture_default_str();
  sub->add_option("--out", o->out, "output directory")->capture_default_str();
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_regions(*o); };
}

}  // namespace clatter::cli
