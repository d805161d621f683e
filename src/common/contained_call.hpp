// Foreign code the tool must ask before it trusts it in its own process —
// a dpctl library whose constructor may crash or hang, the interpreter that
// says where dpctl is, a CUDA driver whose cuInit may do either — is asked
// in a child process with a deadline and a bound on what it may answer. A
// crash, an exit or a hang there is an answer ("died on signal 11"), never
// the tool's own end, and no child outlives the call.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dlpack_usm {

struct ContainedAnswer {
  enum class Ending { answered, exited, signalled, hung, failed };
  Ending ending = Ending::failed;
  std::string text;  // what the child wrote, at most the bound given
  std::string how;   // how it ended, in words: "died on signal 11 (Segmentation fault)"
  bool ok() const { return ending == Ending::answered; }
};

// Runs `body` in a forked child (stdout and stderr to /dev/null), which
// answers with what `body` returns; `deadline` bounds the whole call.
ContainedAnswer call_contained(const std::function<std::string()>& body,
                               std::chrono::milliseconds deadline,
                               std::size_t max_bytes = std::size_t{64} << 10);

// call_contained started now and collected later, so that the child runs
// while the caller goes on (list-devices probes the CUDA driver while the
// OpenCL drivers load); the deadline counts from the start. A call never
// collected has its child killed and reaped when it is destroyed.
class ContainedCall {
 public:
  ContainedCall(const std::function<std::string()>& body, std::chrono::milliseconds deadline,
                std::size_t max_bytes = std::size_t{64} << 10);
  ~ContainedCall();
  ContainedCall(const ContainedCall&) = delete;
  ContainedCall& operator=(const ContainedCall&) = delete;

  // The answer, waiting for it until the deadline; once.
  ContainedAnswer collect();

 private:
  int pid_ = -1;
  int read_fd_ = -1;
  std::chrono::steady_clock::time_point end_;
  std::chrono::milliseconds deadline_;
  std::size_t max_bytes_;
  ContainedAnswer failed_;  // where no child could be started
};

// Runs a program (argv[0] found on PATH where it has no '/'; no shell) with
// stdin from /dev/null, stderr to /dev/null, and its stdout as the answer;
// answered when it exits 0.
ContainedAnswer run_program(const std::vector<std::string>& argv,
                            std::chrono::milliseconds deadline,
                            std::size_t max_bytes = std::size_t{64} << 10);

// The deadline of a probe of foreign runtime code: `fallback`, or
// DLPACK_USM_PROBE_TIMEOUT_S seconds where that is set (tests shorten it).
std::chrono::milliseconds probe_deadline(std::chrono::milliseconds fallback);

}  // namespace dlpack_usm
