#include "suite/runner/result_channel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr std::size_t kNonceBytes = 16;
// The runner writes the nonce before the child starts: the wait only
// guards against a socket on descriptor 3 that is not the runner's.
constexpr int kNonceWaitMs = 10000;
// Channel descriptors are picked at random from here up to the descriptor
// limit, away from the low numbers a library opens or guesses.
constexpr int kLowestChannelFd = 100;

bool is_socket(int fd) {
  struct stat status {};
  return fstat(fd, &status) == 0 && S_ISSOCK(status.st_mode);
}

bool is_nonce(std::string_view text) {
  return text.size() == 2 * kNonceBytes &&
         text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The nonce line the runner wrote on `fd`, or "" when none came.
std::string read_nonce(int fd) {
  std::string line;
  while (line.size() <= 2 * kNonceBytes) {
    pollfd ready{fd, POLLIN, 0};
    int polled = poll(&ready, 1, kNonceWaitMs);
    if (polled < 0 && errno == EINTR) continue;
    char byte = 0;
    if (polled <= 0 || read(fd, &byte, 1) != 1) return {};
    if (byte == '\n') return is_nonce(line) ? line : std::string();
    line += byte;
  }
  return {};
}

// A random number in [low, high).
int random_between(int low, int high) {
  unsigned value = 0;
  if (getrandom(&value, sizeof value, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof value)) {
    value = static_cast<unsigned>(getpid()) * 2654435761u;
  }
  return low + static_cast<int>(value % static_cast<unsigned>(high - low));
}

// `fd` duplicated to a free, close-on-exec descriptor picked at random above
// kLowestChannelFd (the lowest free one above 10 where the limit leaves no
// room); `fd` itself then names /dev/null, so that a stray write there
// vanishes instead of landing in whatever file would take the number next.
int move_out_of_the_way(int fd) {
  rlimit limit{};
  int top = getrlimit(RLIMIT_NOFILE, &limit) == 0
                ? static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 16))
                : 1024;
  int moved = -1;
  for (int attempt = 0; moved < 0 && top > 2 * kLowestChannelFd && attempt < 32; ++attempt) {
    int wanted = random_between(kLowestChannelFd, top);
    if (fcntl(wanted, F_GETFD) == -1 && errno == EBADF) moved = dup3(fd, wanted, O_CLOEXEC);
  }
  if (moved < 0) moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  UniqueFd null(open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!null || dup3(null.get(), fd, O_CLOEXEC) < 0) close(fd);
  return moved;
}

}  // namespace

std::string make_channel_nonce() {
  unsigned char bytes[kNonceBytes];
  std::size_t filled = 0;
  while (filled < sizeof bytes) {
    ssize_t n = getrandom(bytes + filled, sizeof bytes - filled, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw Error(ExitCode::internal, fmt::format("getrandom failed: {}", std::strerror(errno)));
    }
    filled += static_cast<std::size_t>(n);
  }
  std::string nonce;
  for (unsigned char byte : bytes) nonce += fmt::format("{:02x}", byte);
  return nonce;
}

std::optional<std::string_view> unframe_line(std::string_view line, std::string_view nonce) {
  if (nonce.empty() || line.size() <= nonce.size() || !line.starts_with(nonce) ||
      line[nonce.size()] != ' ') {
    return std::nullopt;
  }
  return line.substr(nonce.size() + 1);
}

ResultChannel ResultChannel::take_inherited(Direction direction) {
  ResultChannel channel;
  channel.owner_ = getpid();
  if (!is_socket(kResultFd)) return channel;
  channel.nonce_ = read_nonce(kResultFd);
  if (channel.nonce_.empty()) {
    throw Error(ExitCode::internal,
                "descriptor 3 is a socket, but no result channel of dlpack-usm check",
                "the worker options are internal: run 'dlpack-usm check' instead");
  }
  if (direction == Direction::send_only) shutdown(kResultFd, SHUT_RD);
  channel.fd_.reset(move_out_of_the_way(kResultFd));
  if (!channel.fd_) {
    throw Error(ExitCode::internal,
                fmt::format("cannot move the result channel: {}", std::strerror(errno)));
  }
  return channel;
}

bool ResultChannel::send(std::string_view payload) {
  if (getpid() != owner_) _exit(0);
  if (!fd_) {
    std::fflush(stdout);
    fmt::print("\n{}{}\n", kResultMarker, payload);
    std::fflush(stdout);
    return true;
  }
  std::string line = fmt::format("{} {}\n", nonce_, payload);
  for (std::size_t sent = 0; sent < line.size();) {
    ssize_t n = ::send(fd_.get(), line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::fprintf(stderr, "dlpack-usm: error: the result channel is gone (%s)\n",
                   std::strerror(errno));
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> ResultChannel::receive_line() {
  if (!fd_) return std::nullopt;
  while (received_.find('\n') == std::string::npos) {
    char buffer[4096];
    ssize_t n = read(fd_.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    received_.append(buffer, static_cast<std::size_t>(n));
  }
  std::size_t end = received_.find('\n');
  std::string line = received_.substr(0, end);
  received_.erase(0, end + 1);
  return line;
}

}  // namespace dlpack_usm::suite
