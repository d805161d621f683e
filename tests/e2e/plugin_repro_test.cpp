// The reproduction program a C plugin's crash snippet builds
// (share/plugin_repro.c; the build's copy is the target plugin_repro): what
// it answers when it cannot run the case. Wrong arguments and a library or
// call that is missing exit 2, a bridge that gives no host table, tensor or
// request exits 3, each saying why on stderr. That it runs a case as the
// tool did is plugin_snippet_test.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/shell_quote.hpp"
#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int status = -1;
  std::string err;
};

// The built program run with `arguments`, its stderr kept.
Ran run_repro(const std::vector<std::string>& arguments) {
  fs::path folder = scratch_dir("plugin_repro");
  // Appended a word at a time: GCC 12 raises a false -Wstringop-overflow
  // on `" ..." + std::string` here.
  std::string command = shell_quote(DLPACK_USM_PLUGIN_REPRO);
  for (const std::string& argument : arguments) command.append(" ").append(shell_quote(argument));
  command.append(" > /dev/null 2> ").append(shell_quote((folder / "err.txt").string()));
  int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file((folder / "err.txt").string())};
}

std::string bridge() {
  return (fs::path(DLPACK_USM_BINARY).parent_path() / "libdlpack_usm.so.1").string();
}

TEST(PluginRepro, WrongArgumentsGetTheUsageAndExitTwo) {
  std::string producer = fixture("producer").string();
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{},
        {"produce", bridge(), producer, "opencl"},
        {"inspect", bridge(), producer, "opencl", "{}"}}) {
    Ran ran = run_repro(arguments);
    EXPECT_EQ(ran.status, 2) << ran.err;
    EXPECT_NE(ran.err.find("usage: dlpack_usm_repro consume|produce BRIDGE_LIBRARY "
                           "PLUGIN_LIBRARY RUNTIME REQUEST_JSON"),
              std::string::npos)
        << ran.err;
  }
}

TEST(PluginRepro, ALibraryThatDoesNotLoadIsNamedAndExitsTwo) {
  Ran ran = run_repro({"consume", bridge(), "/no/such/plugin.so", "opencl", "{}"});
  EXPECT_EQ(ran.status, 2) << ran.err;
  EXPECT_NE(ran.err.find("/no/such/plugin.so"), std::string::npos) << ran.err;
}

TEST(PluginRepro, ARuntimeTheBridgeDoesNotKnowGivesNoHostTableAndExitsThree) {
  Ran ran = run_repro({"produce", bridge(), fixture("producer").string(), "no-such-runtime", "{}"});
  EXPECT_EQ(ran.status, 3) << ran.err;
  EXPECT_NE(ran.err.find("no host table: "), std::string::npos) << ran.err;
}

TEST(PluginRepro, ARequestTheBridgeRefusesGivesNoTensorOrRequestAndExitsThree) {
  using ModeAndLine = std::pair<std::string, std::string>;
  for (const auto& [mode, said] :
       std::vector<ModeAndLine>{{"consume", "no tensor: "}, {"produce", "no request: "}}) {
    Ran ran = run_repro({mode, bridge(), fixture("producer").string(), "opencl", "[]"});
    if (ran.err.find("no host table") != std::string::npos) {
      GTEST_SKIP() << "no OpenCL host table here: " << ran.err;
    }
    EXPECT_EQ(ran.status, 3) << ran.err;
    EXPECT_NE(ran.err.find(said), std::string::npos) << ran.err;
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
