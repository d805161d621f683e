// One isolated child process of the runner: its own process group (so a
// watchdog kill takes its helpers too), stdout and stderr captured through
// pipes, a result channel of its own (result_channel.hpp: handed over as its
// fd 3 with a nonce of its own), and a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.hpp"
#include "suite/runner/result_channel.hpp"

namespace dlpack_usm::suite {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // What the runner may still say to the child after its start.
  enum class Channel {
    results_only,  // the nonce, then the runner's side is closed
    takes_more,    // the runner's side stays open for send_more()
  };

  // Starts argv[0] with `arguments`, `input` on its stdin (a memory file,
  // so that the runner never blocks on a child that reads slowly;
  // /dev/null where empty). Throws Error(internal) if it cannot.
  ChildProcess(const std::vector<std::string>& argv, Clock::duration timeout,
               const std::string& input = {}, Channel channel = Channel::results_only);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ChildProcess(ChildProcess&& other) noexcept;
  ~ChildProcess();

  // The pipe ends still open, for poll().
  std::vector<int> open_fds() const;
  // Reads what is available on `fd`; closes it at end of file.
  void read_from(int fd);
  bool output_closed() const { return !out_fd_ && !err_fd_ && !result_fd_; }
  Clock::time_point deadline() const { return deadline_; }
  bool past_deadline() const { return Clock::now() >= deadline_; }
  // A worker that reported a case gets the full timeout for the next one.
  void restart_deadline(Clock::duration timeout) { deadline_ = Clock::now() + timeout; }
  // The complete lines received on the result channel since the last call,
  // as sent: each framed with nonce() by the child (unframe_line).
  std::vector<std::string> take_result_lines();
  const std::string& nonce() const { return nonce_; }
  // Channel::takes_more: whether the runner's side is still open.
  bool takes_more() const { return takes_more_ && result_fd_; }
  // Sends `text` (whole lines) on the channel without blocking; false when
  // the child cannot take it now (gone, its side closed, the socket full)
  // or there is nothing to send: nothing of it reached the child then, or
  // the channel is closed.
  bool send_more(std::string_view text);
  // Closes the runner's side: the child reads the end, and ends.
  void end_more();

  // Kills the whole process group, and the child itself, which a library
  // may have moved to another group (the watchdog, or an interrupted run).
  void kill_group();
  // Reaps the child, waiting at most `limit`: one stuck in the kernel after
  // SIGKILL must not hold the run. True once reaped.
  bool wait(Clock::duration limit = std::chrono::seconds(2));
  // Reaps it if it has ended; true once reaped. A child that closed its
  // output may still run, so the runner polls this until the deadline.
  bool reap();

  bool timed_out() const { return timed_out_; }
  bool exited() const { return exited_; }
  int exit_code() const { return exit_code_; }
  int signal() const { return signal_; }
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }
  double elapsed_ms() const;

 private:
  pid_t pid_ = -1;
  UniqueFd out_fd_;
  UniqueFd err_fd_;
  UniqueFd result_fd_;
  Clock::time_point started_;
  Clock::time_point deadline_;
  Clock::time_point ended_;
  bool takes_more_ = false;
  bool timed_out_ = false;
  bool reaped_ = false;
  bool exited_ = false;
  int exit_code_ = 0;
  int signal_ = 0;
  std::string out_;
  std::string err_;
  std::string results_;  // result-channel bytes not yet split into lines
  std::string nonce_;
};

}  // namespace dlpack_usm::suite
