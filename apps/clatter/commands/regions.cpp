// `clatter regions --fix B|mu VALUE [--r R] [--n N] [--out DIR]` and `clatter regions --panels`:
// the region maps of Stronge's law in [NDC]'s scaled variables: the options of
// app::RegionsRequest (app/regions.hpp: the maps and the files regions.csv, summary.json, also
// on stdout), written atomically with regions.png.

#include <iostream>

#include "clatter/app/regions.hpp"
#include "clatter/core/error.hpp"
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

int run_regions(const RegionsCliOptions& o) {
  app::RegionsRequest r;
  r.panels = o.panels;
  r.r = o.r;
  r.n = o.n;
  if (!o.fix.empty()) {
    require(o.fix.size() == 2, "fix", "give B VALUE or mu VALUE");
    r.fix = o.fix[0];
    r.value = o.fix[1];
  }
  const app::Regions regions = app::run_regions(r);
  const std::filesystem::path dir = o.out;
  const std::vector<app::OutputFile> outputs = app::regions_files(regions, dir, o.plot);
  const auto png = dir / "regions.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (o.plot) {
    files.draw(png, outputs[1].path, [&] {
      run_plot_script("regions.py",
                      {"--regions", files.temporary(outputs[0].path).string(), "--title",
                       regions.title, "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(outputs[1].path);
  std::cout << outputs[1].content;
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
