#include "runtime/sycl/dpctl_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/unique_fd.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

namespace fs = std::filesystem;

// The first line of the file: a file of another format (a later version of
// the tool) is not read.
constexpr std::string_view kHeader = "dlpack-usm dpctl-location 1";
// More than any entry takes: a larger file is not one the tool wrote.
constexpr std::size_t kMostBytes = 16 * 1024;

// A file as stat() sees it through links: what changes when pip replaces it.
struct Stamp {
  long long size = 0;
  long long mtime_ns = 0;
  friend bool operator==(const Stamp&, const Stamp&) = default;
};

// Of a regular file, or with `folder` of a directory.
std::optional<Stamp> stamp_of(const std::string& path, bool folder = false) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !(folder ? S_ISDIR(info.st_mode) : S_ISREG(info.st_mode))) {
    return std::nullopt;
  }
  return Stamp{folder ? 0 : static_cast<long long>(info.st_size),
               static_cast<long long>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec};
}

struct Entry {
  std::string interpreter;
  Stamp interpreter_stamp;
  std::string library;
  Stamp library_stamp;
  std::string version;
};

std::string entry_text(const Entry& entry) {
  return fmt::format(
      "{}\ninterpreter {}\ninterpreter-stamp {} {}\nlibrary {}\nlibrary-stamp {} {}\nversion {}\n",
      kHeader, entry.interpreter, entry.interpreter_stamp.size, entry.interpreter_stamp.mtime_ns,
      entry.library, entry.library_stamp.size, entry.library_stamp.mtime_ns, entry.version);
}

// The value of the line "NAME value"; false where the line is another.
bool value_of(std::istream& in, std::string_view name, std::string& value) {
  std::string line;
  if (!std::getline(in, line) || !line.starts_with(name) || line.size() <= name.size() ||
      line[name.size()] != ' ') {
    return false;
  }
  value = line.substr(name.size() + 1);
  return true;
}

bool stamp_of_line(std::istream& in, std::string_view name, Stamp& stamp) {
  std::string value;
  if (!value_of(in, name, value)) return false;
  std::istringstream numbers(value);
  return static_cast<bool>(numbers >> stamp.size >> stamp.mtime_ns) && numbers.eof();
}

std::optional<Entry> parse_entry(const std::string& text) {
  std::istringstream in(text);
  std::string header;
  Entry entry;
  if (!std::getline(in, header) || header != kHeader ||
      !value_of(in, "interpreter", entry.interpreter) ||
      !stamp_of_line(in, "interpreter-stamp", entry.interpreter_stamp) ||
      !value_of(in, "library", entry.library) ||
      !stamp_of_line(in, "library-stamp", entry.library_stamp)) {
    return std::nullopt;
  }
  // A version may be empty (a dpctl built from source has no dist-info).
  std::string line;
  if (!std::getline(in, line) || !line.starts_with("version")) return std::nullopt;
  entry.version = line.size() > 8 ? line.substr(8) : "";
  return entry;
}

constexpr std::string_view kAbsentHeader = "dlpack-usm dpctl-absent 1";

// An interpreter's "no dpctl": it, its stamp, and each folder it searched.
struct AbsentEntry {
  std::string interpreter;
  Stamp interpreter_stamp;
  std::vector<std::pair<std::string, Stamp>> searched;
};

std::string absent_text(const AbsentEntry& entry) {
  std::string text =
      fmt::format("{}\ninterpreter {}\ninterpreter-stamp {} {}\n", kAbsentHeader, entry.interpreter,
                  entry.interpreter_stamp.size, entry.interpreter_stamp.mtime_ns);
  for (const auto& [folder, stamp] : entry.searched) {
    text += fmt::format("searched {} {}\n", stamp.mtime_ns, folder);
  }
  return text;
}

std::optional<AbsentEntry> parse_absent(const std::string& text) {
  std::istringstream in(text);
  std::string header;
  AbsentEntry entry;
  if (!std::getline(in, header) || header != kAbsentHeader ||
      !value_of(in, "interpreter", entry.interpreter) ||
      !stamp_of_line(in, "interpreter-stamp", entry.interpreter_stamp)) {
    return std::nullopt;
  }
  std::string value;
  while (value_of(in, "searched", value)) {
    std::size_t space = value.find(' ');
    Stamp stamp;
    std::istringstream number(value.substr(0, space));
    if (space == std::string::npos || !(number >> stamp.mtime_ns) || !number.eof()) {
      return std::nullopt;
    }
    entry.searched.emplace_back(value.substr(space + 1), stamp);
  }
  // Every line read, and at least one folder: anything else is no entry.
  if (entry.searched.empty() || !in.eof()) return std::nullopt;
  return entry;
}

// The file's text, where it is a regular file of this user's that no one
// else may write: it names a library the tool will load.
std::optional<std::string> read_own_file(const std::string& path) {
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  struct stat info {};
  if (!fd || fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != geteuid() ||
      (info.st_mode & (S_IWGRP | S_IWOTH)) != 0 ||
      static_cast<std::size_t>(info.st_size) > kMostBytes) {
    return std::nullopt;
  }
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  ssize_t got = read(fd.get(), text.data(), text.size());
  if (got != static_cast<ssize_t>(text.size())) return std::nullopt;
  return text;
}

// Replaces the cache file `path` atomically, its folder made where missing.
void write_entry(const std::string& path, const std::string& text) {
  std::error_code ignored;
  fs::create_directories(fs::path(path).parent_path(), ignored);
  try {
    write_file_atomically(path, text);
  } catch (const Error&) {
    // A read-only or full home: the interpreter is asked next time too.
  }
}

}  // namespace

std::string dpctl_cache_path() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  // The XDG base directory rule: a relative path there is to be ignored.
  if (cache != nullptr && *cache == '/') return fmt::format("{}/dlpack-usm/dpctl-location", cache);
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home == '/')
    return fmt::format("{}/.cache/dlpack-usm/dpctl-location", home);
  return {};
}

std::string dpctl_absent_path() {
  std::string location = dpctl_cache_path();
  if (location.empty()) return {};
  return (fs::path(location).parent_path() / "dpctl-absent").string();
}

std::optional<DpctlCandidate> recall_dpctl(const std::string& interpreter,
                                           const std::string& found_by) {
  std::string path = dpctl_cache_path();
  if (path.empty()) return std::nullopt;
  std::optional<std::string> text = read_own_file(path);
  std::optional<Entry> entry = text ? parse_entry(*text) : std::nullopt;
  if (!entry || entry->interpreter != interpreter) return std::nullopt;
  if (stamp_of(interpreter) != entry->interpreter_stamp ||
      stamp_of(entry->library) != entry->library_stamp) {
    return std::nullopt;
  }
  return DpctlCandidate{entry->library,
                        fmt::format("{} ({}), remembered in {}", found_by, interpreter, path),
                        entry->version};
}

bool recall_no_dpctl(const std::string& interpreter) {
  std::string path = dpctl_absent_path();
  if (path.empty()) return false;
  std::optional<std::string> text = read_own_file(path);
  std::optional<AbsentEntry> entry = text ? parse_absent(*text) : std::nullopt;
  if (!entry || entry->interpreter != interpreter ||
      stamp_of(interpreter) != entry->interpreter_stamp) {
    return false;
  }
  for (const auto& [folder, stamp] : entry->searched) {
    if (stamp_of(folder, true) != stamp) return false;
  }
  return true;
}

void remember_no_dpctl(const std::string& interpreter, const std::vector<std::string>& searched) {
  std::string path = dpctl_absent_path();
  std::optional<Stamp> interpreter_stamp = stamp_of(interpreter);
  if (path.empty() || !interpreter_stamp || searched.empty() ||
      interpreter.find('\n') != std::string::npos) {
    return;
  }
  AbsentEntry entry{interpreter, *interpreter_stamp, {}};
  for (const std::string& folder : searched) {
    std::optional<Stamp> stamp = stamp_of(folder, true);
    // A folder that is gone, or a name that is no line, leaves nothing to
    // compare with next time.
    if (!stamp || folder.find('\n') != std::string::npos) return;
    entry.searched.emplace_back(folder, *stamp);
  }
  write_entry(path, absent_text(entry));
}

void remember_dpctl(const std::string& interpreter, const DpctlCandidate& answer) {
  std::string path = dpctl_cache_path();
  std::optional<Stamp> interpreter_stamp = stamp_of(interpreter);
  std::optional<Stamp> library_stamp = stamp_of(answer.path);
  // A path with a line break could not be read back as one entry.
  bool one_line = (interpreter + answer.path + answer.version).find('\n') == std::string::npos;
  if (path.empty() || !interpreter_stamp || !library_stamp || !one_line) return;
  Entry entry{interpreter, *interpreter_stamp, answer.path, *library_stamp, answer.version};
  write_entry(path, entry_text(entry));
}

}  // namespace dlpack_usm::runtime::sycl
