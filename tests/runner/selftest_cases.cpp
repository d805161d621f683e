#include "selftest_cases.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace dlpack_usm::suite::testing {
namespace {

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
                             "hang-silent", "noisy", "forge", "flood", "worker", "flaky"}) {
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
    } else if (behaviour == "worker") {
      // Which process ran this case, for the batching test.
      std::filesystem::path state = std::getenv("DLPACK_USM_SELFTEST_STATE");
      std::ofstream(state / "worker-pids", std::ios::app) << getpid() << "\n";
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
};

}  // namespace

CaseSources selftest_sources() {
  CaseSources sources;
  sources.push_back(std::make_unique<SelftestSource>());
  return sources;
}

}  // namespace dlpack_usm::suite::testing
