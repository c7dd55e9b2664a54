// clatter: event-driven simulation and analysis of rigid bodies with impacts and Coulomb friction.
// Command-line entry point: dispatches to the subcommands in commands/.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "commands/commands.hpp"

namespace {

// Builds the parser with every subcommand and runs the one named in args (args[0] is the program
// name). `reproduce` re-enters here with the command line of each reproduction.
int run_cli(std::vector<std::string> args) {
  CLI::App app{"clatter: rigid bodies with impacts and Coulomb friction"};
  app.require_subcommand(1);
  std::map<CLI::App*, clatter::cli::Run> runs;
  const auto add = [&](auto&& adder) {
    const std::size_t before = app.get_subcommands({}).size();
    clatter::cli::Run run = adder(app);
    runs[app.get_subcommands({}).at(before)] = std::move(run);
  };
  add(&clatter::cli::add_impact);
  add(&clatter::cli::add_impact_sweep);
  add(&clatter::cli::add_simulate);
  add(&clatter::cli::add_compliant);
  add(&clatter::cli::add_compliant_sweep);
  add(&clatter::cli::add_multipoint);
  add(&clatter::cli::add_sweep);
  add(&clatter::cli::add_orbits);
  add(&clatter::cli::add_painleve);
  add(&clatter::cli::add_models);
  add([](CLI::App& a) {
    return clatter::cli::add_reproduce(a, [](const std::vector<std::string>& sub) {
      std::vector<std::string> full{"clatter"};
      full.insert(full.end(), sub.begin(), sub.end());
      return run_cli(full);
    });
  });

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& [sub, run] : runs) {
      if (sub->parsed()) return run();
    }
  } catch (const clatter::InvalidArgument& e) {
    std::cerr << "clatter: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clatter: error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) { return run_cli(std::vector<std::string>(argv, argv + argc)); }
