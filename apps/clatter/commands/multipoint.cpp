// `clatter multipoint`: a simultaneous multi-point collision (Rodriguez thesis, [R]) resolved as a
// sequence of impact events: the options of app::MultipointRequest (app/multipoint.hpp: the
// presets, the law's choices, the files summary.json and trace.csv), written atomically with
// OUT/multipoint.png; the summary also goes to stdout.
//
//   clatter multipoint --preset NAME [--e-star E [E ...]] [--mu-s MU] [--mu-d MU]
//                      [--work-def thesis|integral] [--compression latest-parabola|first-minimum]
//                      [--recipe thesis|min-norm]
//                      [--pairs chain|star] [--method analytic|ode] [--qdot Q ...]
//                      [--max-events N] [--max-steps N] [--no-plot] --out DIR
//
// Exit status 3 when the collision is not resolved (no_termination, max_events, singular_rates,
// disconnected) or its result breaks an invariant (pulling_contact, energy_gain): the files are
// written and say how far it got.

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "clatter/app/multipoint.hpp"
#include "clatter/multipoint/bodies.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct MultipointCliOptions {
  app::MultipointRequest request;
  bool plot{true};
  std::string out;
};

int run_multipoint(const MultipointCliOptions& o) {
  const app::Multipoint m = app::run_multipoint(o.request, o.out, o.plot);
  OutputSet set;
  set.also_replaces(std::filesystem::path(o.out) / "multipoint.png");
  commit_outputs(set, m.files, m.plot, m.files.back().path, "the CSV and JSON files are complete");
  std::cout << m.summary;
  if (!m.failure.empty()) {
    std::cerr << "clatter: multipoint: " << m.failure << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_multipoint(CLI::App& app) {
  auto o = std::make_shared<MultipointCliOptions>();
  app::MultipointRequest& r = o->request;
  CLI::App* sub = app.add_subcommand(
      "multipoint", "Simultaneous multi-point impact with friction (Rodriguez): JSON + CSV + PNG");
  std::string names;
  for (const std::string& k : app::multipoint_presets()) names += (names.empty() ? "" : ", ") + k;
  sub->add_option("--preset", r.preset, "model: cradle (any cradle, see --masses), " + names)
      ->required();
  sub->add_option("--e-star", r.e_star, "global e* per event in [-1, 1]; the last repeats")
      ->expected(1, 64);
  sub->add_option("--mu-s", r.mu_s, "static friction (stick test) for every contact");
  sub->add_option("--mu-d", r.mu_d, "dynamic friction (sliding) for every contact");
  sub->add_option("--work-def", r.work_def,
                  "normal work: thesis (Eq. 4.7; [R]'s tables) or integral (sum of v_N "
                  "dLambda_N; what the engine uses in simulate: on unequal masses they differ)")
      ->capture_default_str();
  sub->add_option("--compression", r.compression,
                  "end of compression: latest-parabola ([R]'s tables) or first-minimum (what the "
                  "engine uses; with --work-def integral this is simulate's collision law)")
      ->capture_default_str();
  sub->add_option("--recipe", r.recipe, "pair constraint: thesis or min-norm")
      ->capture_default_str();
  sub->add_option("--pairs", r.pairs, "pair choice: chain or star")->capture_default_str();
  sub->add_option("--method", r.method, "planar solver: analytic or ode")->capture_default_str();
  // (more values than the capacities are read, then refused by the checks naming the option)
  sub->add_option("--qdot", r.qdot, "pre-impact generalized speeds (overrides the preset)")
      ->expected(1, 1000);
  sub->add_option("--masses", r.masses,
                  "--preset cradle: ball masses A B C ... [kg] (2 to " +
                      std::to_string(multipoint::kMaxCradleBalls) + ")")
      ->expected(1, 1000);
  sub->add_option("--v-pre", r.v_pre, "--preset cradle: centre speed of ball A [m/s] (1)");
  sub->add_option("--length", r.length, "--preset cradle: string length L to the centre [m]");
  sub->add_option("--radius", r.radius, "--preset cradle: ball radius R [m]");
  sub->add_option("--max-events", r.max_events, "event cap")->capture_default_str();
  sub->add_option("--max-steps", r.max_steps,
                  "3-D: integration steps per event before it is reported as no_termination")
      ->capture_default_str();
  sub->add_flag("--no-plot{false}", o->plot, "skip the PNG");
  sub->add_option("--out", o->out, "output directory")->required();
  return [o] { return run_multipoint(*o); };
}

}  // namespace clatter::cli
