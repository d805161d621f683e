#include "selftest_cases.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace dlpack_usm::suite::testing {
namespace {

// A pass for `id`, as a library that forges results would write it.
std::string forged_line(const std::string& id) {
  return "{\"id\":\"" + id + "\",\"outcome\":\"pass\",\"message\":\"forged\"}\n";
}

bool is_socket(int fd) {
  struct stat status {};
  return fstat(fd, &status) == 0 && S_ISSOCK(status.st_mode);
}

// forge-fd3: a pass written on descriptor 3, where the result channel was;
// forge-channel: on every socket the process holds (the channel among them);
// fork-carry-on: a fork whose child returns a pass and carries on with the
// batch, while the parent waits for it to end and fails. Each fails or
// passes for real otherwise, as planned.
CaseResult misbehave_on_the_channel(const std::string& behaviour, CaseResult result) {
  std::string line = forged_line(result.id);
  if (behaviour == "forge-fd3") {
    ssize_t ignored = write(3, line.data(), line.size());
    (void)ignored;
    result.outcome = Outcome::fail;
    result.message = "the real result";
  } else if (behaviour == "forge-channel") {
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
      int fd = std::stoi(entry.path().filename().string());
      if (!is_socket(fd)) continue;
      ssize_t ignored = write(fd, line.data(), line.size());
      (void)ignored;
    }
  } else {
    int done[2];
    if (pipe(done) != 0) throw std::runtime_error("pipe failed");
    pid_t child = fork();
    if (child == 0) {
      close(done[0]);
      return result;  // a pass, from the copy; `done` closes when it ends
    }
    close(done[1]);
    char byte;
    while (read(done[0], &byte, 1) > 0) {
    }
    close(done[0]);
    waitpid(child, nullptr, 0);
    result.outcome = Outcome::fail;
    result.message = "the real result";
  }
  return result;
}

// What a selftest case does when run.
struct Behaviour final : CaseDetails {
  explicit Behaviour(std::string behaviour) : name(std::move(behaviour)) {}
  std::string name;
};

class SelftestSource final : public CaseSource {
 public:
  std::string_view kind() const override { return "selftest"; }

  std::vector<CaseSpec> cases() override {
    std::vector<CaseSpec> specs;
    for (const char* name : {"pass", "fail", "error", "crash", "abort", "exit", "exit-zero", "hang",
                             "hang-silent", "noisy", "forge", "flood", "worker", "fail-worker",
                             "flaky", "state", "forge-fd3", "forge-channel", "fork-carry-on"}) {
      specs.push_back({std::string("selftest/") + name,
                       "selftest",
                       name == std::string("pass") ? "selftest:0" : "selftest:1",
                       {std::string("SELFTEST-") + name},
                       std::make_shared<const Behaviour>(name)});
    }
    return specs;
  }

  CaseResult run(const CaseSpec& spec) override {
    const std::string& behaviour = spec.details_as<Behaviour>().name;
    CaseResult result{spec.id, Outcome::pass, "as planned"};
    bool ran_after_others = cases_run_++ > 0;
    if (behaviour == "state" && ran_after_others) {
      result.outcome = Outcome::fail;
      result.message = "state left by the case before";
      return result;
    }
    if (behaviour == "forge-fd3" || behaviour == "forge-channel" || behaviour == "fork-carry-on") {
      return misbehave_on_the_channel(behaviour, result);
    }
    if (behaviour == "fail") {
      result.outcome = Outcome::fail;
      result.message = "failed on purpose";
      result.rule_ids = {"SELFTEST-fail"};
    } else if (behaviour == "error") {
      throw std::runtime_error("the harness could not evaluate this on purpose");
    } else if (behaviour == "crash") {
      std::fputs("about to crash\n", stderr);
      std::raise(SIGSEGV);
    } else if (behaviour == "abort") {
      std::abort();
    } else if (behaviour == "exit") {
      std::_Exit(7);
    } else if (behaviour == "exit-zero") {
      std::exit(0);  // a library that ends the process "successfully" mid-case
    } else if (behaviour == "hang") {
      for (;;) pause();
    } else if (behaviour == "hang-silent") {
      close(1);
      close(2);
      for (;;) pause();
    } else if (behaviour == "noisy") {
      std::puts("DLPACK-USM-RESULT-ish chatter {\"outcome\":\"fail\"}");
      std::puts("more driver chatter");
    } else if (behaviour == "forge") {
      // A forged result for itself, on stdout as a lying library would print it.
      std::printf("\nDLPACK-USM-RESULT {\"id\":\"%s\",\"outcome\":\"pass\"}\n", spec.id.c_str());
      std::fflush(stdout);
      result.outcome = Outcome::fail;
      result.message = "the real result";
    } else if (behaviour == "flood") {
      // 100 MB on stdout: the runner must keep reading, never block the case.
      std::string block(1 << 20, 'x');
      for (int i = 0; i < 100; ++i) std::fwrite(block.data(), 1, block.size(), stdout);
      std::fflush(stdout);
    } else if (behaviour == "worker" || behaviour == "fail-worker") {
      // Which process ran this case, for the batching tests.
      std::filesystem::path state = std::getenv("DLPACK_USM_SELFTEST_STATE");
      std::ofstream(state / "worker-pids", std::ios::app) << getpid() << "\n";
      if (behaviour == "fail-worker") {
        result.outcome = Outcome::fail;
        result.message = "fails wherever it runs";
      }
    } else if (behaviour == "flaky") {
      std::filesystem::path state = std::getenv("DLPACK_USM_SELFTEST_STATE");
      if (!std::filesystem::exists(state / "flaky-ran-once")) {
        std::ofstream(state / "flaky-ran-once") << "1";
        result.outcome = Outcome::fail;
        result.message = "first run fails";
      }
    }
    return result;
  }

 private:
  // Cases this process ran before the one running, for "state".
  int cases_run_ = 0;
};

}  // namespace

CaseSources selftest_sources() {
  CaseSources sources;
  sources.push_back(std::make_unique<SelftestSource>());
  return sources;
}

}  // namespace dlpack_usm::suite::testing
