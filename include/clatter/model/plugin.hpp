#pragma once
/// @file
/// Plugins: models compiled into a shared library of their own and loaded at run time, so that
/// a user's system reaches every command of `clatter` and the Python module without rebuilding
/// either (docs/models.md, "Your model as a plugin").
///
/// A plugin is one or more files that implement model::System, plus one entry point:
/// @verbatim
///   void register_my_models() {
///     clatter::model::register_model("my_walker", "a compass-gait walker", make_walker);
///   }
///   CLATTER_PLUGIN("my_walker", register_my_models)
/// @endverbatim
/// built as a MODULE library linked to clatter::clatter (find_package(clatter CONFIG)). A scenario
/// names it in its [model] table (`plugin = "my_walker"` or a path), the command line with
/// `--plugin PATH`, Python with `clatter.load_plugin(path)`.
///
/// Loading checks, before running any of the plugin's code beyond its info function, that it was
/// built against this version of clatter, the same plugin ABI and the same Eigen: a mismatch is
/// refused with one line naming the file and both versions. The version covers the capacities
/// (model::kMaxDof, kMaxContacts, kMaxAux), which set the layout of VecQ and the other types a
/// model exchanges with the engine: 0.3.0 raised them to 32, 32 and 8. Plugins are never
/// unloaded (the models they made may live as long as the process).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/core/eigen.hpp"
#include "clatter/version.hpp"

namespace clatter::model {

/// The layout of PluginInfo and the meaning of its fields; raised when either changes.
inline constexpr int kPluginAbi = 1;

/// Eigen's version as one number, 30401 for 3.4.1: a plugin must use the library's.
inline constexpr int kEigenVersion =
    EIGEN_WORLD_VERSION * 10000 + EIGEN_MAJOR_VERSION * 100 + EIGEN_MINOR_VERSION;

/// What a plugin says about itself (CLATTER_PLUGIN fills it from the headers it was built with).
struct PluginInfo {
  int abi;                      ///< kPluginAbi of its headers
  const char* clatter_version;  ///< CLATTER_VERSION_STRING of its headers
  int eigen_version;            ///< kEigenVersion of its headers
  const char* name;             ///< the plugin's name, for messages and `clatter models`
  void (*register_models)();    ///< registers its kinds (model/registry.hpp register_model)
};

/// The name of the entry point a plugin exports (extern "C").
inline constexpr const char* kPluginEntryPoint = "clatter_plugin_info";

/// A plugin loaded into this process.
struct LoadedPlugin {
  std::filesystem::path path;      ///< canonical
  std::string name;                ///< PluginInfo::name
  std::vector<std::string> kinds;  ///< the kinds it registered
};

/// Loads the plugin at `path` (once: loading the same file again returns the same record) and
/// registers its kinds. Throws InvalidArgument(field, …), one line naming the file, when the
/// file is missing, is not a shared library or not a clatter plugin, was built against another
/// clatter, plugin ABI or Eigen, or when its registration fails (a kind registered already);
/// nothing of a plugin whose registration failed stays registered.
const LoadedPlugin& load_plugin(const std::filesystem::path& path, const char* field = "plugin");

/// The plugins loaded so far, in loading order.
[[nodiscard]] std::vector<LoadedPlugin> loaded_plugins();

/// The file a plugin reference names. A reference with a '/' or ending in ".so" is a path,
/// relative to `base` (a scenario's folder, or the working directory for --plugin). A bare name
/// N is looked up as libN.so or N.so in `base`, in each folder of the environment variable
/// CLATTER_PLUGIN_PATH (':'-separated), then in plugin_directory(). Throws
/// InvalidArgument(field, …) listing the places looked in when nothing is found.
[[nodiscard]] std::filesystem::path find_plugin(std::string_view reference,
                                                const std::filesystem::path& base,
                                                const char* field = "plugin");

/// <libdir>/clatter/plugins next to the running libclatter.so, where `cmake --install` puts the
/// plugins built with the project (and a build tree keeps them, under build/lib).
[[nodiscard]] std::filesystem::path plugin_directory();

}  // namespace clatter::model

/// The entry point of a plugin: NAME (a string) and REGISTER (a function `void()` that calls
/// clatter::model::register_model for each kind). Use once per plugin, at namespace scope.
#define CLATTER_PLUGIN(NAME, REGISTER)                                                         \
  extern "C" __attribute__((visibility("default"))) const ::clatter::model::PluginInfo*        \
  clatter_plugin_info() {                                                                      \
    static const ::clatter::model::PluginInfo info{                                            \
        ::clatter::model::kPluginAbi, CLATTER_VERSION_STRING, ::clatter::model::kEigenVersion, \
        NAME, &REGISTER};                                                                      \
    return &info;                                                                              \
  }
