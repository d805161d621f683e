#include "runtime/sycl/dpctl_location.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "runtime/sycl/dpctl_cache.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

namespace fs = std::filesystem;

// setup.sh installs its tools (dpctl included) under DLPACK_USM_TOOLS_PREFIX,
// /opt/dlpack-usm/venv unless told otherwise; the tool follows the same rule.
std::string tools_interpreter() {
  const char* prefix = std::getenv("DLPACK_USM_TOOLS_PREFIX");
  return fmt::format("{}/bin/python",
                     prefix != nullptr && *prefix ? prefix : DLPACK_USM_DEFAULT_TOOLS_PREFIX);
}

// How long the interpreter may take to say where dpctl is: a Python start
// and two metadata look-ups, well under a second on a quiet machine.
constexpr std::chrono::seconds kInterpreterDeadline{15};

// Whether `path` names a file; a path this user may not look at (the venv
// links into another user's home) is no file, with a note in `tried`.
bool file_exists(const std::string& path, const std::string& what,
                 std::vector<std::string>* tried) {
  std::error_code error;
  bool exists = fs::exists(path, error);
  if (error) {
    tried->push_back(fmt::format("{} {}: cannot be looked at ({})", what, path, error.message()));
    return false;
  }
  return exists;
}

// The folders after the first two lines of an interpreter's answer.
std::vector<std::string> searched_folders(const std::string& output, std::size_t after) {
  std::vector<std::string> folders;
  std::size_t begin = output.find('\n', after);
  while (begin != std::string::npos && begin + 1 < output.size()) {
    std::size_t end = output.find('\n', begin + 1);
    std::string folder = output.substr(begin + 1, end - begin - 1);
    if (!folder.empty()) folders.push_back(std::move(folder));
    begin = end;
  }
  return folders;
}

// Runs `python` (no shell, with a deadline: an interpreter that hangs is an
// answer, not the tool's hang) with a short program printing the package
// directory and the version, and where there is none the folders it
// searched (`searched`, for the cache of that answer); find_spec and
// importlib.metadata do not import dpctl itself.
std::optional<DpctlCandidate> ask_interpreter(const std::string& python,
                                              const std::string& found_by,
                                              std::vector<std::string>* tried,
                                              std::vector<std::string>& searched) {
  ContainedAnswer answer =
      run_program({python, "-I", "-c",
                   "import os, sys, importlib.util as u, importlib.metadata as m; "
                   "s = u.find_spec('dpctl'); "
                   "print(s.submodule_search_locations[0] if s else ''); "
                   "print(m.version('dpctl') if s else ''); "
                   "s or print('\\n'.join(p for p in sys.path if os.path.isdir(p)))"},
                  probe_deadline(kInterpreterDeadline), 16384);
  if (!answer.ok()) {
    tried->push_back(fmt::format("{} ({}) {}", python, found_by, answer.how));
    return std::nullopt;
  }
  const std::string& output = answer.text;
  std::size_t newline = output.find('\n');
  std::string package = output.substr(0, newline);
  if (package.empty()) {
    tried->push_back(fmt::format("{} ({}): no dpctl package", python, found_by));
    if (newline != std::string::npos) searched = searched_folders(output, newline + 1);
    return std::nullopt;
  }
  std::string version =
      newline == std::string::npos
          ? ""
          : output.substr(newline + 1, output.find('\n', newline + 1) - newline - 1);
  fs::path library = fs::path(package) / kDpctlLibraryName;
  if (!file_exists(library.string(), "dpctl's library", tried)) {
    tried->push_back(
        fmt::format("{} ({}): dpctl {} has no {}", python, found_by, version, kDpctlLibraryName));
    return std::nullopt;
  }
  return DpctlCandidate{library.string(), fmt::format("{} ({})", found_by, python), version};
}

// Where `program` lies on PATH, as execvp would find it; empty if nowhere.
std::string on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string_view directories = path != nullptr ? path : "";
  while (!directories.empty()) {
    std::size_t colon = directories.find(':');
    std::string_view directory = directories.substr(0, colon);
    directories = colon == std::string_view::npos ? "" : directories.substr(colon + 1);
    fs::path candidate = fs::path(directory.empty() ? "." : directory) / program;
    if (access(candidate.c_str(), X_OK) == 0) return fs::absolute(candidate).string();
  }
  return {};
}

// What `python` (run as named; `file` is the interpreter it resolves to,
// empty where unknown) says, or said last time while nothing it rests on
// has changed (dpctl_cache.hpp).
std::optional<DpctlCandidate> ask_or_recall(const std::string& python, const std::string& file,
                                            const std::string& found_by,
                                            std::vector<std::string>* tried) {
  if (!file.empty()) {
    if (auto remembered = recall_dpctl(file, found_by)) return remembered;
    if (recall_no_dpctl(file)) {
      tried->push_back(fmt::format("{} ({}): no dpctl package, remembered in {}", python, found_by,
                                   dpctl_absent_path()));
      return std::nullopt;
    }
  }
  std::vector<std::string> searched;
  std::optional<DpctlCandidate> found = ask_interpreter(python, found_by, tried, searched);
  if (found && !file.empty()) remember_dpctl(file, *found);
  if (!found && !file.empty() && !searched.empty()) remember_no_dpctl(file, searched);
  return found;
}

}  // namespace

std::string version_beside(const std::string& library) {
  std::error_code error;
  fs::path site = fs::path(library).parent_path().parent_path();
  // No version from a folder this user may not read: the caller says so.
  if (!fs::is_directory(site, error) || access(site.c_str(), R_OK | X_OK) != 0) return {};
  for (const auto& entry : fs::directory_iterator(site, error)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("dpctl-") || !name.ends_with(".dist-info")) continue;
    std::ifstream metadata(entry.path() / "METADATA");
    std::string line;
    while (std::getline(metadata, line)) {
      if (line.starts_with("Version: ")) return line.substr(9);
    }
  }
  return {};
}

std::optional<DpctlCandidate> locate_dpctl(std::vector<std::string>* tried) {
  if (const char* named = std::getenv("DLPACK_USM_DPCTL"); named != nullptr && *named) {
    if (!file_exists(named, "DLPACK_USM_DPCTL", tried)) {
      tried->push_back(fmt::format("DLPACK_USM_DPCTL={}: no such file", named));
      return std::nullopt;
    }
    return DpctlCandidate{named, "DLPACK_USM_DPCTL", version_beside(named)};
  }
  std::string tools = tools_interpreter();
  if (file_exists(tools, "the tools interpreter", tried)) {
    if (auto found =
            ask_or_recall(tools, tools, "the interpreter scripts/setup.sh prepared", tried)) {
      return found;
    }
  } else {
    tried->push_back(fmt::format("{}: no such interpreter (scripts/setup.sh makes it)", tools));
  }
  return ask_or_recall("python3", on_path("python3"), "python3 on PATH", tried);
}

}  // namespace dlpack_usm::runtime::sycl
