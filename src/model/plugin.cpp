#include "clatter/model/plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>

#include "clatter/core/error.hpp"
#include "clatter/model/registry.hpp"
#include "registry_source.hpp"

namespace clatter {

const char* version() { return CLATTER_VERSION_STRING; }

namespace model {

namespace {

std::mutex& plugins_mutex() {
  static std::mutex m;
  return m;
}

// the plugins loaded so far, never removed: a deque, so that the reference load_plugin returns
// stays valid when more are loaded
std::deque<LoadedPlugin>& plugins() {
  static std::deque<LoadedPlugin> list;
  return list;
}

[[noreturn]] void refuse(const char* field, const std::filesystem::path& path,
                         const std::string& why) {
  throw InvalidArgument(field, path.string() + ": " + why);
}

std::string eigen_text(int v) {
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

// the info of a plugin file, checked against this library; the handle stays open
const PluginInfo& open_plugin(const std::filesystem::path& path, const char* field) {
  // RTLD_LOCAL: a plugin's own symbols do not leak into other plugins; RTLD_NOW: a symbol it
  // lacks (built against another clatter) is an error here, not a crash in the middle of a run
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* e = ::dlerror();
    refuse(field, path,
           std::string("cannot be loaded as a shared library (") +
               (e != nullptr ? e : "unknown error") + ")");
  }
  using InfoFunction = const PluginInfo* (*)();
  void* symbol = ::dlsym(handle, kPluginEntryPoint);
  if (symbol == nullptr)
    refuse(field, path,
           std::string("is not a clatter plugin (it has no ") + kPluginEntryPoint +
               "; see CLATTER_PLUGIN in clatter/model/plugin.hpp)");
  const auto info_function = reinterpret_cast<InfoFunction>(symbol);
  const PluginInfo* info = info_function();
  if (info == nullptr) refuse(field, path, "is not a clatter plugin (its plugin info is empty)");
  if (info->abi != kPluginAbi)
    refuse(field, path,
           "was built for plugin ABI " + std::to_string(info->abi) + ", this clatter " + version() +
               " loads ABI " + std::to_string(kPluginAbi) +
               "; rebuild the plugin against this clatter");
  const std::string built_with = info->clatter_version != nullptr ? info->clatter_version : "?";
  if (built_with != version())
    refuse(field, path,
           "was built against clatter " + built_with + ", this is clatter " + version() +
               "; rebuild the plugin against this clatter");
  if (info->eigen_version != kEigenVersion)
    refuse(field, path,
           "was built with Eigen " + eigen_text(info->eigen_version) +
               ", this clatter with Eigen " + eigen_text(kEigenVersion) +
               "; rebuild the plugin with the same Eigen");
  if (info->register_models == nullptr) refuse(field, path, "has no registration function");
  return *info;
}

std::vector<std::filesystem::path> search_path(const std::filesystem::path& base) {
  std::vector<std::filesystem::path> dirs{base};
  if (const char* env = std::getenv("CLATTER_PLUGIN_PATH")) {
    const std::string text = env;
    std::size_t from = 0;
    for (;;) {
      const std::size_t colon = text.find(':', from);
      const std::string dir = text.substr(from, colon - from);
      if (!dir.empty()) dirs.emplace_back(dir);
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
  }
  const std::filesystem::path installed = plugin_directory();
  if (!installed.empty()) dirs.push_back(installed);
  return dirs;
}

}  // namespace

const LoadedPlugin& load_plugin(const std::filesystem::path& given, const char* field) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(given, ec))
    refuse(field, given, std::filesystem::exists(given, ec) ? "is not a file" : "no such file");
  const std::filesystem::path path = std::filesystem::canonical(given, ec);
  if (ec) refuse(field, given, "cannot be resolved (" + ec.message() + ")");

  const std::lock_guard<std::mutex> lock(plugins_mutex());
  for (const LoadedPlugin& p : plugins())
    if (p.path == path) return p;
  const PluginInfo& info = open_plugin(path, field);
  const std::string source = "plugin " + path.string();
  detail::set_registration_source(source);
  try {
    info.register_models();
  } catch (const std::exception& e) {
    detail::set_registration_source(kBuiltInSource);
    detail::unregister_source(source);
    refuse(field, path, std::string("its registration failed: ") + e.what());
  } catch (...) {
    detail::set_registration_source(kBuiltInSource);
    detail::unregister_source(source);
    refuse(field, path, "its registration failed with an unknown exception");
  }
  detail::set_registration_source(kBuiltInSource);
  LoadedPlugin record{path, info.name != nullptr ? info.name : path.stem().string(), {}};
  for (const RegisteredModel& m : registered_models())
    if (m.source == source) record.kinds.push_back(m.kind);
  plugins().push_back(std::move(record));
  return plugins().back();
}

std::vector<LoadedPlugin> loaded_plugins() {
  const std::lock_guard<std::mutex> lock(plugins_mutex());
  return {plugins().begin(), plugins().end()};
}

std::filesystem::path find_plugin(std::string_view reference, const std::filesystem::path& base,
                                  const char* field) {
  const std::string ref(reference);
  require(!ref.empty(), field, "must name a plugin file or a plugin name, got an empty string");
  const bool is_path = ref.find('/') != std::string::npos ||
                       (ref.size() > 3 && ref.compare(ref.size() - 3, 3, ".so") == 0);
  if (is_path) {
    const std::filesystem::path p(ref);
    return p.is_absolute() ? p : base / p;
  }
  std::string looked;
  std::error_code ec;
  for (const std::filesystem::path& dir : search_path(base)) {
    for (const std::string& file : {"lib" + ref + ".so", ref + ".so"}) {
      const std::filesystem::path candidate = dir / file;
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    }
    // the scenario's folder of a bare file name is the working directory: named, not ""
    const std::filesystem::path shown = dir.empty() ? std::filesystem::current_path(ec) : dir;
    looked += (looked.empty() ? "" : ", ") + shown.string();
  }
  throw InvalidArgument(field, "no plugin '" + ref + "' (lib" + ref + ".so or " + ref + ".so) in " +
                                   looked +
                                   " (CLATTER_PLUGIN_PATH adds folders; a path names the file)");
}

std::filesystem::path plugin_directory() {
  static const int anchor = 0;  // any object of this library: dladdr names the file it is in
  Dl_info where{};
  if (::dladdr(&anchor, &where) == 0 || where.dli_fname == nullptr) return {};
  std::error_code ec;
  const std::filesystem::path lib = std::filesystem::canonical(where.dli_fname, ec);
  if (ec) return {};
  return lib.parent_path() / "clatter" / "plugins";
}

}  // namespace model

}  // namespace clatter
