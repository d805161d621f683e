#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"

namespace dlpack_usm {
namespace {

std::string named(const std::filesystem::path& path, std::string_view option) {
  return option.empty() ? path.string() : fmt::format("{} {}", option, path.string());
}

[[noreturn]] void fail_write(const std::filesystem::path& path, std::string_view option,
                             const char* step, int error) {
  fail_environment(fmt::format("cannot write {}: {} failed: {}", named(path, option), step,
                               std::strerror(error)),
                   "check that the directory exists and is writable and that the disk has room; "
                   "a file that was there is left as it was");
}

// Writes all of `content`; false with errno set on a write error.
bool write_all(int fd, std::string_view content) {
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

void write_in_place(const OutputTarget& target, std::string_view content, std::string_view option) {
  // O_NONBLOCK: a FIFO that nobody reads is refused at once instead of hanging.
  int fd = open(target.path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENXIO) {
    fail_usage(fmt::format("{}: no process reads this FIFO", named(target.path, option)),
               "start its reader first, or write to a regular file");
  }
  if (fd < 0) fail_write(target.path, option, "opening", errno);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (!write_all(fd, content)) {
    int error = errno;
    close(fd);
    fail_write(target.path, option, "write", error);
  }
  if (close(fd) != 0) fail_write(target.path, option, "closing", errno);
}

void replace_atomically(const OutputTarget& target, std::string_view content,
                        std::string_view option) {
  const std::filesystem::path& path = target.path;
  std::filesystem::path directory = path.parent_path().empty() ? "." : path.parent_path();
  std::string temporary =
      (directory / fmt::format(".{}.tmp.{}", path.filename().string(), static_cast<long>(getpid())))
          .string();
  // O_EXCL: never write through something another process put there.
  unlink(temporary.c_str());
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail_write(path, option, "creating a temporary file", errno);
  if (!write_all(fd, content)) {
    int error = errno;
    close(fd);
    unlink(temporary.c_str());
    fail_write(path, option, "write", error);
  }
  // fsync so that a crash after rename cannot leave an empty report behind.
  if (fsync(fd) != 0 || close(fd) != 0) {
    int error = errno;
    unlink(temporary.c_str());
    fail_write(path, option, "flushing", error);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    unlink(temporary.c_str());
    fail_write(path, option, "rename", error);
  }
}

// The folders a new output's path names that do not exist yet are made, as
// pytest's --junitxml makes them: `--report out/report.json` works in a
// fresh clone. A component that exists but is no folder is refused.
void create_missing_parents(const std::filesystem::path& path,
                            const std::filesystem::path& resolved, std::string_view option) {
  std::filesystem::path parent = resolved.parent_path();
  std::error_code error;
  if (std::filesystem::is_directory(parent, error)) return;
  std::filesystem::create_directories(parent, error);
  if (!error) return;
  fail_environment(fmt::format("{}: cannot make the directory {}: {}", named(path, option),
                               printable(parent.string()), error.message()),
                   "name a path whose folders exist or can be made");
}

void require_writable_directory(const std::filesystem::path& path,
                                const std::filesystem::path& resolved, std::string_view option,
                                const char* hint) {
  std::filesystem::path parent = resolved.parent_path();
  if (access(parent.c_str(), W_OK) != 0) {
    fail_environment(
        fmt::format("{}: the directory {} is not writable", named(path, option), parent.string()),
        hint);
  }
}

// The kernel's protected_symlinks rule (fs.protected_symlinks=1): in a
// directory that is sticky and world-writable (/tmp), a link is followed
// only by its owner or when the directory's owner owns it. Anyone can plant
// a link to /etc/shadow in /tmp; a run as root must not write through it.
// Applied whatever the sysctl says, since this process resolves the link
// itself and then renames over its target.
void require_followable(const std::filesystem::path& link, const struct stat& link_status,
                        const std::filesystem::path& path, std::string_view option) {
  std::filesystem::path directory = link.parent_path();
  struct stat dir {};
  if (stat(directory.c_str(), &dir) != 0) fail_write(path, option, "stat", errno);
  bool shared = (dir.st_mode & S_ISVTX) != 0 && (dir.st_mode & S_IWOTH) != 0;
  if (!shared || link_status.st_uid == geteuid() || link_status.st_uid == dir.st_uid) return;
  fail_usage(fmt::format("{}: {} is a symbolic link of user {} in the sticky, world-writable "
                         "directory {} (owned by user {}); it is not followed, as the kernel's "
                         "protected_symlinks rule would not follow it for user {}",
                         named(path, option), printable(link.string()), link_status.st_uid,
                         printable(directory.string()), dir.st_uid, geteuid()),
             "write to a path of your own, or remove the link if you did not make it");
}

std::string read_link(const std::filesystem::path& link, const std::filesystem::path& path,
                      std::string_view option) {
  std::string target(PATH_MAX, '\0');
  ssize_t length = readlink(link.c_str(), target.data(), target.size());
  if (length < 0) fail_write(path, option, "readlink", errno);
  target.resize(static_cast<std::size_t>(length));
  return target;
}

// `path` made absolute with every symbolic link resolved, component by
// component as the kernel does; what does not exist is kept as written.
std::filesystem::path resolve_links(const std::filesystem::path& path, std::string_view option) {
  constexpr int kMaxLinks = 40;  // the kernel's MAXSYMLINKS
  std::deque<std::string> rest;
  for (const auto& part : std::filesystem::absolute(path).relative_path()) {
    rest.push_back(part.string());
  }
  std::filesystem::path resolved = "/";
  int links = 0;
  while (!rest.empty()) {
    std::string part = std::move(rest.front());
    rest.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      resolved = resolved.parent_path();
      continue;
    }
    std::filesystem::path next = resolved / part;
    struct stat status {};
    if (lstat(next.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) {
      resolved = std::move(next);
      continue;
    }
    require_followable(next, status, path, option);
    if (++links > kMaxLinks) fail_write(path, option, "resolving symbolic links", ELOOP);
    std::filesystem::path target = read_link(next, path, option);
    if (target.is_absolute()) resolved = "/";
    std::vector<std::string> parts;
    for (const auto& element : target.relative_path()) parts.push_back(element.string());
    rest.insert(rest.begin(), parts.begin(), parts.end());
  }
  return resolved;
}

}  // namespace

OutputTarget resolve_output(const std::filesystem::path& path, std::string_view option) {
  if (path == "-") return {OutputTarget::Kind::standard_output, {}};
  if (path.empty()) fail_usage(fmt::format("{}: the path is empty", option), "name a file");
  // Links are followed to what they name (also a dangling one: that file is
  // created), so that replacing a file never replaces a link; a link the
  // kernel would not follow is refused.
  std::filesystem::path resolved = resolve_links(path, option);
  struct stat status {};
  if (lstat(resolved.c_str(), &status) != 0 && stat(path.c_str(), &status) == 0) {
    // A link of /proc (/dev/stdout to a pipe) names no path: open what the
    // kernel resolves.
    resolved = std::filesystem::absolute(path);
  }
  if (stat(resolved.c_str(), &status) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) fail_write(path, option, "stat", errno);
    create_missing_parents(path, resolved, option);
    require_writable_directory(path, resolved, option, "create it or choose another path");
    return {OutputTarget::Kind::replace_atomically, resolved};
  }
  if (S_ISREG(status.st_mode)) {
    require_writable_directory(
        path, resolved, option,
        "the file is replaced by a new one written beside it; choose another path");
    return {OutputTarget::Kind::replace_atomically, resolved};
  }
  if (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode)) {
    return {OutputTarget::Kind::write_in_place, resolved};
  }
  const char* what = S_ISDIR(status.st_mode)    ? "a directory"
                     : S_ISSOCK(status.st_mode) ? "a socket"
                     : S_ISBLK(status.st_mode)  ? "a block device"
                                                : "not a regular file";
  fail_usage(fmt::format("{}: {} is {}", named(path, option), resolved.string(), what),
             "name a regular file (it is replaced), a new path, a character device or a FIFO");
}

void require_distinct_outputs(
    const std::vector<std::pair<std::string, std::string>>& option_paths) {
  std::vector<std::pair<std::string, std::filesystem::path>> seen;
  for (const auto& [option, path] : option_paths) {
    if (path.empty()) continue;
    std::error_code error;
    std::filesystem::path key =
        path == "-" ? std::filesystem::path("-") : std::filesystem::weakly_canonical(path, error);
    if (error) key = std::filesystem::absolute(path).lexically_normal();
    for (const auto& [other_option, other_key] : seen) {
      if (other_key != key) continue;
      if (key == "-") {
        fail_usage(fmt::format("{} and {} both write to standard output", other_option, option),
                   "give '-' to one of them and a file to the other");
      }
      fail_usage(fmt::format("{} and {} name the same file {}", other_option, option, path),
                 "give each output a path of its own");
    }
    seen.emplace_back(option, key);
  }
}

void refuse_output_among_inputs(std::string_view option, const std::string& path,
                                const std::vector<NamedInput>& inputs, std::string_view hint) {
  struct stat output {};
  if (path.empty() || path == "-" || stat(path.c_str(), &output) != 0) return;
  for (const NamedInput& input : inputs) {
    struct stat read {};
    if (input.path == "-" || stat(input.path.c_str(), &read) != 0) continue;
    if (read.st_dev != output.st_dev || read.st_ino != output.st_ino) continue;
    // A device (/dev/null) may be read and written: nothing is replaced.
    if (!S_ISREG(output.st_mode)) continue;
    fail_usage(fmt::format("{} {} is also {} ({}): writing it would replace what the command "
                           "reads",
                           option, printable(path), input.option, printable(input.path)),
               std::string(hint));
  }
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           std::string_view option) {
  OutputTarget target = resolve_output(path, option);
  switch (target.kind) {
    case OutputTarget::Kind::standard_output:
      if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
          std::fflush(stdout) != 0) {
        fail_write("standard output", option, "write", errno);
      }
      return;
    case OutputTarget::Kind::write_in_place:
      write_in_place(target, content, option);
      return;
    case OutputTarget::Kind::replace_atomically:
      replace_atomically(target, content, option);
      return;
  }
}

void append_file_atomically(const std::filesystem::path& path, std::string_view content,
                            std::string_view option) {
  OutputTarget target = resolve_output(path, option);
  std::error_code missing;
  if (target.kind != OutputTarget::Kind::replace_atomically ||
      !std::filesystem::exists(target.path, missing)) {
    write_file_atomically(path, content, option);
    return;
  }
  // O_APPEND, as the shell's >> does: the file keeps its mode, owner, links
  // and inode (a bind-mounted $GITHUB_STEP_SUMMARY), and writers that add at
  // the same time lose nothing of each other's.
  int fd = open(target.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) fail_write(path, option, "opening", errno);
  if (!write_all(fd, content)) {
    int error = errno;
    close(fd);
    fail_write(path, option, "write", error);
  }
  if (close(fd) != 0) fail_write(path, option, "closing", errno);
}

}  // namespace dlpack_usm
