// The result channel between the runner and a child process (a worker, or
// the plugin probe), kept out of the way of the library under test, which
// shares the child's process.
//
// The runner hands the child one end of a socket pair as descriptor
// kResultFd and sends a nonce through it: not in argv or the environment,
// which a library reads easily. Before any library is loaded the child
// reads the nonce, moves the descriptor to a high number picked at random
// (close-on-exec, so no program a library starts inherits it) and points
// kResultFd at /dev/null: a library writing on descriptor 3, where the
// channel used to be, reaches nothing. Every line the child sends starts with the nonce, so
// a line a library writes on the channel anyway is no result: the runner
// charges it to the running case. A forked copy of the child never reports.
//
// A worker that takes more cases (worker_protocol.hpp) keeps reading the
// channel after the nonce: the runner sends it case ids there, the only
// other thing it ever sends.
//
// This stops accidents and one-line forgeries, not an attacker: a library
// shares the child's memory and can read the nonce (dlpack-usm-plugin(7)).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "common/unique_fd.hpp"

namespace dlpack_usm::suite {

// The descriptor a child receives its end of the channel on.
inline constexpr int kResultFd = 3;

// A child run by hand (no channel) writes its lines to stdout behind this
// marker instead, for people to read.
inline constexpr const char* kResultMarker = "DLPACK-USM-RESULT ";

// A fresh nonce: 32 hex digits from the kernel's random source.
std::string make_channel_nonce();

// The payload of `line` when it starts with `nonce` and a space; nullopt
// for a line the child did not write (a library's).
std::optional<std::string_view> unframe_line(std::string_view line, std::string_view nonce);

// The child's end.
class ResultChannel {
 public:
  // Takes the channel handed over on kResultFd: reads its nonce and moves
  // the descriptor out of the way. Without one (kResultFd is no socket: a
  // child run by hand) lines go to stdout behind kResultMarker. Throws
  // Error(internal) when kResultFd is a socket that sends no nonce.
  // With Direction::both the runner's side stays open after the nonce: a
  // worker that takes more cases reads their ids there (receive_line).
  enum class Direction { send_only, both };
  static ResultChannel take_inherited(Direction direction = Direction::send_only);

  ResultChannel(ResultChannel&& other) noexcept = default;
  ResultChannel& operator=(ResultChannel&&) = delete;
  ResultChannel(const ResultChannel&) = delete;

  bool connected() const { return static_cast<bool>(fd_); }
  // Sends `payload` as one framed line; false when the runner is gone. A
  // copy of the process that took the channel (a library forked, and both
  // returned) ends here without a word: only the child the runner started
  // reports.
  bool send(std::string_view payload);
  // The next line the runner sent, without its newline; nullopt once the
  // runner closed its side (or was never connected, or is gone). Blocks.
  std::optional<std::string> receive_line();

 private:
  ResultChannel() = default;

  UniqueFd fd_;
  std::string nonce_;
  std::string received_;  // bytes read past the last line taken
  pid_t owner_ = 0;
};

}  // namespace dlpack_usm::suite
