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

std::optional<Stamp> stamp_of(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return Stamp{static_cast<long long>(info.st_size),
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

void remember_dpctl(const std::string& interpreter, const DpctlCandidate& answer) {
  std::string path = dpctl_cache_path();
  std::optional<Stamp> interpreter_stamp = stamp_of(interpreter);
  std::optional<Stamp> library_stamp = stamp_of(answer.path);
  // A path with a line break could not be read back as one entry.
  bool one_line = (interpreter + answer.path + answer.version).find('\n') == std::string::npos;
  if (path.empty() || !interpreter_stamp || !library_stamp || !one_line) return;
  Entry entry{interpreter, *interpreter_stamp, answer.path, *library_stamp, answer.version};
  std::error_code ignored;
  fs::path directory = fs::path(path).parent_path();
  fs::create_directories(directory, ignored);
  try {
    write_file_atomically(path, entry_text(entry));
  } catch (const Error&) {
    // A read-only or full home: the interpreter is asked next time too.
  }
}

}  // namespace dlpack_usm::runtime::sycl
