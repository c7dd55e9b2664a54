// clatter: event-driven simulation and analysis of rigid bodies with impacts and Coulomb friction.
// Command-line entry point: dispatches to the subcommands in commands/.

#include <CLI/CLI.hpp>
#include <cctype>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/model/plugin.hpp"
#include "commands/commands.hpp"
#include "commands/interrupt.hpp"
#include "commands/scenario_input.hpp"

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The argument parser (CLI11) reads "-inf" as a short option: a leading space keeps it a value
// (strtod skips it). An empty argument would be read as 0 for a number, and NaN as a number:
// both refused here, naming the option they were given to. Throws clatter::InvalidArgument.
void prepare_arguments(std::vector<std::string>& args) {
  std::string option = "argument";
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string& a = args[i];
    const std::string l = lower(a);
    // NaN is no option's value: read as a number it would pass for "not given" where a command
    // uses NaN as that sentinel (--phase, --max-time)
    if (l == "nan" || l == "-nan" || l == "+nan")
      throw clatter::InvalidArgument(option, "NaN is not a value any option takes");
    if (l == "-inf" || l == "-infinity") {
      a.insert(0, " ");
      continue;
    }
    if (a.empty()) throw clatter::InvalidArgument(option, "an empty value is not allowed");
    if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1])) &&
        a[1] != '.') {
      option = a.substr(0, a.find('='));
      if (a.find('=') != std::string::npos && a.find('=') + 1 == a.size())
        throw clatter::InvalidArgument(option, "an empty value is not allowed");
    }
  }
}

// A library check names its own field ("mu", "W", "t_end"); when the command has an option of
// that name (--mu, --W, --t-end) the message names that option, if the user gave it or if the
// command reads no scenario (all its fields are options: a field required and not given is the
// option's). A command that reads a scenario names a field the user did not give as the file's.
std::string option_message(CLI::App* sub, const clatter::InvalidArgument& e) {
  const std::string& field = e.field();
  if (sub == nullptr || field.empty() || field[0] == '-' || field.find('.') != std::string::npos)
    return e.what();
  std::string option = "--" + field;
  for (char& c : option)
    if (c == '_') c = '-';
  const CLI::Option* given = sub->get_option_no_throw(option);
  const bool options_only = sub->get_option_no_throw("scenario") == nullptr;
  if (given == nullptr || (given->count() == 0 && !options_only)) return e.what();
  return option + std::string(e.what()).substr(field.size());
}

// Builds the parser with every subcommand and runs the one named in args (args[0] is the program
// name). `reproduce` re-enters here with the command line of each reproduction.
int run_cli(std::vector<std::string> args) {
  CLI::App app{"clatter: rigid bodies with impacts and Coulomb friction"};
  app.require_subcommand(1);
  app.set_version_flag("--version", clatter::version());
  // --plugin is taken before or after the command's name (the commands pass it up)
  app.fallthrough();
  std::vector<std::string> plugins;
  app.add_option("--plugin", plugins,
                 "load a model plugin (a shared library built against clatter; model/plugin.hpp) "
                 "before running the command; repeatable. A bare name is searched in the working "
                 "directory, CLATTER_PLUGIN_PATH and the installed plugins")
      ->type_name("PATH")
      ->expected(1)
      ->allow_extra_args(false)  // `simulate --plugin P scenario`: P only, not the scenario too
      ->take_all();
  bool strict = false;
  app.add_flag("--strict", strict,
               "refuse a plugin's model that fails its conformance check at the initial state "
               "(default: a warning on stderr)");
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
  add(&clatter::cli::add_continue);
  add(&clatter::cli::add_section);
  add(&clatter::cli::add_dib);
  add(&clatter::cli::add_regions);
  add(&clatter::cli::add_painleve);
  add(&clatter::cli::add_models);
  add([](CLI::App& a) {
    return clatter::cli::add_reproduce(a, [](const std::vector<std::string>& sub) {
      std::vector<std::string> full{"clatter"};
      full.insert(full.end(), sub.begin(), sub.end());
      return run_cli(full);
    });
  });

  // bad input of any kind: one line on stderr and exit status 2 (help and version: 0)
  try {
    prepare_arguments(args);
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || (args.size() > 1 && sub->get_name() == args[1]);
    }
    if (args.size() > 1 && !args[1].empty() && args[1][0] != '-' && !known) {
      std::cerr << "clatter: error: unknown command '" << args[1] << "' (allowed: " << names
                << ")\n";
      return 2;
    }
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && args.size() > 1 && known) {
      // name the first argument the command does not take, in the order typed (CLI11 lists
      // the leftovers in reverse)
      const CLI::App* sub = app.get_subcommand(args[1]);
      for (std::size_t i = 2; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 2 || a[0] != '-' || std::isdigit(static_cast<unsigned char>(a[1])) ||
            a[1] == '.' || a[1] == ' ')
          continue;
        const std::string name = a.substr(0, a.find('='));
        if (sub->get_option_no_throw(name) == nullptr) {
          std::cerr << "clatter: error: unknown option '" << name << "' for " << args[1]
                    << " (see clatter " << args[1] << " --help)\n";
          return 2;
        }
      }
    }
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';
    std::cerr << "clatter: error: " << what << " (see clatter --help)\n";
    return 2;
  } catch (const clatter::InvalidArgument& e) {
    std::cerr << "clatter: error: " << e.what() << "\n";
    return 2;
  }
  CLI::App* parsed = nullptr;
  try {
    clatter::cli::set_strict_models(strict);
    for (const std::string& p : plugins)
      (void)clatter::model::load_plugin(
          clatter::model::find_plugin(p, std::filesystem::current_path(), "--plugin"), "--plugin");
    for (auto& [sub, run] : runs) {
      if (sub->parsed()) {
        parsed = sub;
        return run();
      }
    }
  } catch (const clatter::InvalidArgument& e) {
    std::cerr << "clatter: error: " << option_message(parsed, e) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clatter: error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  clatter::cli::install_interrupt_handlers();
  return run_cli(std::vector<std::string>(argv, argv + argc));
}
