// `clatter reproduce NAME|all [--out DIR] [--list]`: one command per reproduced figure or table of
// the seeds. Each entry runs the subcommand that draws it (impact-sweep, simulate, compliant-sweep,
// multipoint) into DIR/NAME, and names the test that asserts its numbers.

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/data_dir.hpp"

namespace clatter::cli {

namespace {

struct Reproduction {
  const char* name;
  const char* source;             ///< the seed and its figure or table
  const char* test;               ///< the test that asserts its numbers
  std::vector<std::string> args;  ///< the subcommand; "{out}" is replaced by DIR/NAME
};

std::string example(const char* file) {
  return data_dir("examples", CLATTER_EXAMPLES_DIR) + "/" + file;
}

const std::vector<Reproduction>& table() {
  static const std::vector<Reproduction> t = [] {
    std::vector<Reproduction> r = {
        // [B] ch. 3: impact laws
        {"fig3.3",
         "[B] Fig 3.3: Brach energy loss, case 6",
         "BrachTable.*",
         {"impact-sweep", "--preset", "fig3.3", "--out", "{out}"}},
        {"fig3.4",
         "[B] Fig 3.4: Brach energy loss, cases 3 and 7",
         "BrachTable.*",
         {"impact-sweep", "--preset", "fig3.4", "--out", "{out}"}},
        {"fig3.5",
         "[B] Fig 3.5: Brach energy loss, case 3",
         "BrachTable.*",
         {"impact-sweep", "--preset", "fig3.5", "--out", "{out}"}},
        {"fig3.8",
         "[B] Fig 3.8: Brach and energetic maps, stick at -0.12344 / +0.00989",
         "ThesisEnergeticMaps.Fig38*, BrachFig38.*",
         {"impact-sweep", "--preset", "fig3.8", "--out", "{out}"}},
        {"fig3.10",
         "[B] Fig 3.10: maps, stick transition",
         "ThesisEnergeticMaps.Fig310*",
         {"impact-sweep", "--preset", "fig3.10", "--out", "{out}"}},
        {"fig3.11",
         "[B] Fig 3.11: maps, the mu jump at 0.6421",
         "ThesisEnergeticMaps.Fig311*, BrachFig311.*",
         {"impact-sweep", "--preset", "fig3.11", "--out", "{out}"}},
        // [BP] / [B] ch. 4-5: the hybrid engine
        {"bp-fig5",
         "[BP] Fig 5 / [B] Fig 5.4: the chaotic rod; whether and when it turns symmetric depends "
         "on round-off (summary.json first_symmetric_t)",
         "RodOnFloor.Fig5*, RodOnFloor.EscapeFromAsymmetry*",
         {"simulate", example("rod_fig5.toml"), "--out", "{out}"}},
        {"bp-fig6",
         "[BP] Fig 6 / [B] Fig 5.5: asymmetric at t = 790",
         "RodOnFloor.EscapeFromAsymmetry*",
         {"simulate", example("rod_fig6.toml"), "--out", "{out}"}},
        {"bp-fig8a",
         "[BP] Fig 8a / [B] Fig 5.7a: brute-force diagram, e* = 0.9 (101 omegas, ~1 s)",
         "BpFig8.RodAtE09* (the rod from a tilted start against the located PD points), "
         "BifurcationSweep.*",
         {"sweep", example("bp_fig8a.toml"), "--omega", "3", "5", "101", "--continuation",
          "--transient-periods", "600", "--record-periods", "100", "--out", "{out}"}},
        {"bp-fig8b",
         "[BP] Fig 8b / [B] Fig 5.7b: brute-force diagram, e* = 0.8 (101 omegas, ~1 s)",
         "BpFig8.*",
         {"sweep", example("bp_fig8b.toml"), "--omega", "3", "5", "101", "--continuation",
          "--transient-periods", "600", "--record-periods", "100", "--out", "{out}"}},
        {"bp-fig9a",
         "[BP] Fig 9a: the period-3 orbit (3 impacts in 3 periods) at omega = 3, e* = 0.9, stable",
         "BpFig9.PeriodThree*",
         {"orbits", example("bp_fig9a.toml"), "--solve", "y,ydot", "--periods", "3", "--out",
          "{out}"}},
        {"bp-fig9b",
         "[BP] Fig 9b: the period-2 orbit (2 impacts in 4 periods) at omega = 3.55085, e* = 0.8, "
         "stable",
         "BpFig9.PeriodTwo*",
         {"orbits", example("bp_fig9b.toml"), "--solve", "y,ydot", "--periods", "4", "--out",
          "{out}"}},
        {"ndc-fig2",
         "[NDC] Fig 2: the parameter panels (a)-(e) of the scaled (B, mu) plane",
         "orbits_cli_tests (region maps)",
         {"regions", "--panels", "--out", "{out}"}},
        {"ndc-fig4b",
         "[NDC] Fig 4b: regions of the law, section B = 0.5, r = 0.9",
         "orbits_cli_tests (region maps), StrongeBoundaries.*",
         {"regions", "--fix", "B", "0.5", "--out", "{out}"}},
        {"ndc-fig4c",
         "[NDC] Fig 4c: regions of the law, section mu = 0.5 (all 15 boundaries), r = 0.9",
         "orbits_cli_tests (region maps), StrongeBoundaries.*",
         {"regions", "--fix", "mu", "0.5", "--out", "{out}"}},
        {"ndc-fig4d",
         "[NDC] Fig 4d: regions of the law, section mu = 2, r = 0.9",
         "StrongeBoundaries.*",
         {"regions", "--fix", "mu", "2", "--out", "{out}"}},
        {"ndc-fig6a",
         "[NDC] Fig 6a: case 1-3, the nonsmooth fold (regions 1 and 3 from mu*)",
         "NdcOrbits.*",
         {"dib", example("ndc_case_1_3.toml"), "--anchor", "x", "--drift", "v_dr", "--period",
          "3.8598", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu", "--regions", "1,3",
          "--span", "0.02", "--forced", "--out", "{out}"}},
        {"ndc-fig6b",
         "[NDC] Fig 6b: case 5-9, persistence (regions 5 and 9)",
         "NdcOrbits.*",
         {"dib", example("ndc_case_5_9.toml"), "--anchor", "x", "--drift", "v_dr", "--period",
          "5.92187", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu", "--regions", "5,9",
          "--span", "0.02", "--forced", "--out", "{out}"}},
        {"ndc-fig7a",
         "[NDC] Fig 7a,b: case 4-6 (theta0 = 0.75 pi), C1 persistence",
         "NdcOrbits.*",
         {"dib", example("ndc_case_4_6.toml"), "--anchor", "x", "--drift", "v_dr", "--period",
          "5.73246", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu", "--regions", "4,6",
          "--span", "0.02", "--forced", "--out", "{out}"}},
        {"ndc-fig7c",
         "[NDC] Fig 7c: case 5-6 in v_dr, C1 persistence",
         "NdcOrbits.*",
         {"dib", example("ndc_case_5_6.toml"), "--anchor", "x", "--drift", "v_dr", "--period",
          "5.53726", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "v_dr", "--regions", "5,6",
          "--span", "0.02", "--forced", "--out", "{out}"}},
        {"ndc-fig7d",
         "[NDC] Fig 7d: case 1-10, C0 persistence (regions 1 and 10)",
         "NdcOrbits.*",
         {"dib", example("ndc_case_1_10.toml"), "--anchor", "x", "--drift", "v_dr", "--period",
          "5.54703", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu", "--regions", "1,10",
          "--span", "0.02", "--forced", "--out", "{out}"}},
        {"bp-fig10",
         "[BP] Fig 10 / [B] Fig 5.10: period-1 continuation, SN/PD/G; the PD cascade",
         "BallOrbits.*, Continuation.*, ImpactOscillator.*",
         {"orbits", "--cascade", "6", "--out", "{out}"}},
        {"ball-zeno",
         "[B] 4.2.6: ball on a fixed floor, rest at 2.5586 s",
         "BouncingBall.FixedFloor*, BouncingBall.Cutoff*",
         {"simulate", example("ball_zeno.toml"), "--out", "{out}"}},
        {"ball-period1",
         "[B] 6.3: ball on the table, period-1 orbit (apex 6.3626)",
         "BouncingBall.ConvergesToThePeriodOneOrbitOfTheTable",
         {"simulate", example("ball_table_period1.toml"), "--out", "{out}"}},
        {"ball-chatter",
         "ball chatters onto the table and rides it",
         "BouncingBall.ChatterOntoTheTable*",
         {"simulate", example("ball_table_chatter.toml"), "--out", "{out}"}},
        {"rod-sliding-stop",
         "flat rod slides to rest at v0/(mu g) (beyond the seeds)",
         "RodOnFloor.SustainedSliding*",
         {"simulate", example("rod_sliding_stop.toml"), "--out", "{out}"}},
        {"rod-painleve",
         "Painleve in sustained sliding: impact without collision (beyond the seeds)",
         "RodPainleve.*, EngineProperty.PainleveResolvedByImpactsWithoutCollision",
         {"simulate", example("rod_painleve.toml"), "--out", "{out}"}},
        {"ndc-case-1-3",
         "[NDC] Tables 3-4, row 1-3: the rod on a belt from Table 4's state (first impact, period)",
         "NdcRodOnBelt.*",
         {"simulate", example("ndc_case_1_3.toml"), "--out", "{out}"}},
        {"physical-pendulum",
         "[Bi] 4.2: rigid pendulum rebounding with e*sqrt((tan t - mu)/(tan t + mu))",
         "PhysicalPendulum.*, RankOneImpact.*",
         {"simulate", example("physical_pendulum.toml"), "--out", "{out}"}},
        {"double-pendulum-stick-slip",
         "double pendulum on a belt: slide, stick, slip again, lift off (beyond [B] Ch. 6)",
         "DoublePendulumBelt.*",
         {"simulate", example("double_pendulum_stick_slip.toml"), "--out", "{out}"}},
        {"belt-stick-slip",
         "stick, slip onset and reversal on a belt (beyond the seeds)",
         "BallOnBelt.*",
         {"simulate", example("ball_belt_stick_slip.toml"), "--out", "{out}"}},
        // [R] over time through the engine (docs/multibody.md)
        {"cradle3-engine",
         "[R] Table 6.4: three-ball cradle released from rest, e* = 0.85",
         "CradleEngine.*",
         {"simulate", example("cradle3.toml"), "--out", "{out}"}},
        {"cradle5-engine",
         "[R] App. D Case 2: five-ball cradle released from rest, e* = 0.8",
         "CradleEngine.*",
         {"simulate", example("cradle5.toml"), "--out", "{out}"}},
        {"rocking-block-engine",
         "Housner's rocking block, h/b = 2: 0.7 per impact (sequential rule)",
         "RockingBlockEngine.*",
         {"simulate", example("rocking_block.toml"), "--out", "{out}"}},
        {"ball-corner-engine",
         "[R] Table 6.1: ball thrown into a corner (not reproduced: engine settings)",
         "BallCornerEngine.*",
         {"simulate", example("ball_corner.toml"), "--out", "{out}"}},
    };
    // [B] ch. 6: Painlevé on a belt, impact without collision
    for (const char* p : {"fig6.7a", "fig6.7b", "fig6.8a", "fig6.8b"}) {
      r.push_back({nullptr,
                   "[B] Figs 6.7-6.10: double pendulum on a belt, friction jump (docs/painleve.md)",
                   "PainleveBelt.*, ImpactWithoutCollision.*",
                   {"painleve", "--preset", p, "--out", "{out}"}});
      r.back().name = p;
    }
    // [Bi]: compliant contact
    for (const char* p :
         {"sphere-fig3.4", "sphere-fig3.5", "sphere-fig3.6", "rod-fig3.8", "rod-fig3.9",
          "flow-fig4.2", "pendulum-fig4.5", "pendulum-fig4.6", "pendulum-fig4.7", "pendulum-fig4.8",
          "pendulum-fig4.11", "pendulum-fig4.12", "pendulum-fig4.13", "pendulum-fig4.14",
          "pendulum-fig4.15", "pendulum-fig4.16", "pendulum-fig4.17", "pendulum-theta",
          "rigid-limit"}) {
      r.push_back({nullptr,
                   "[Bi] compliant contact (docs/compliant.md)",
                   "BirlikRegression.*",
                   {"compliant-sweep", "--preset", p, "--out", "{out}"}});
      r.back().name = p;
    }
    // [R]: multi-point impacts
    for (const char* p : {"ball-corner", "rocking-block", "rocking-block-friction", "cradle3",
                          "cradle3-case2", "cradle5", "cradle5-case2", "cradle5-case3",
                          "sphere-corner", "block3d-3", "block3d-4", "block3d-centered"}) {
      r.push_back({nullptr,
                   "[R] multi-point impact (docs/multipoint.md)",
                   "RodriguezTables.*",
                   {"multipoint", "--preset", p, "--out", "{out}"}});
      r.back().name = p;
    }
    return r;
  }();
  return t;
}

struct ReproduceOptions {
  std::string name;
  std::string out{"out"};
  bool list{false};
};

int run_reproduce(const ReproduceOptions& o, const Dispatch& dispatch) {
  if (o.list || o.name.empty()) {
    for (const Reproduction& r : table()) {
      std::cout << r.name << "\t" << r.source << "\t(test: " << r.test << ")\n";
    }
    return 0;
  }
  std::vector<const Reproduction*> chosen;
  for (const Reproduction& r : table()) {
    if (o.name == "all" || o.name == r.name) chosen.push_back(&r);
  }
  if (chosen.empty()) {
    std::string names;
    for (const Reproduction& r : table())
      names += (names.empty() ? "" : ", ") + std::string(r.name);
    throw InvalidArgument(
        "name", "unknown reproduction '" + o.name + "' (allowed: all, " + names + "; see --list)");
  }
  int worst = 0;
  for (const Reproduction* r : chosen) {
    std::vector<std::string> args;
    for (const std::string& a : r->args) {
      args.push_back(a == "{out}" ? (std::filesystem::path(o.out) / r->name).string() : a);
    }
    std::cerr << "clatter reproduce: " << r->name << " (" << r->source << ")\n";
    const int rc = dispatch(args);
    if (rc != 0) {
      std::cerr << "clatter reproduce: " << r->name << " exited with " << rc << "\n";
      worst = std::max(worst, rc);
    }
  }
  return worst;
}

}  // namespace

Run add_reproduce(CLI::App& app, Dispatch dispatch) {
  auto o = std::make_shared<ReproduceOptions>();
  CLI::App* sub = app.add_subcommand(
      "reproduce", "Reproduce a figure or table of the seeds (CSV + PNG) by name, or all of them");
  sub->add_option("name", o->name, "reproduction name, or all (see --list)");
  sub->add_option("--out", o->out, "output root: each reproduction writes OUT/NAME")
      ->capture_default_str();
  sub->add_flag("--list", o->list, "list the reproductions, their sources and their tests");
  return [o, dispatch] { return run_reproduce(*o, dispatch); };
}

}  // namespace clatter::cli
