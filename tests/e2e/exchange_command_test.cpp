// `dlpack-usm exchange` run as a user runs it: the exit codes of the man
// page, the JSON document, and the capsule file --save writes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"

namespace {

namespace fs = std::filesystem;

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ExchangeCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dlpack-usm-exchange-e2e-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  ToolRun run(const std::string& arguments) {
    std::string command = std::string("'") + DLPACK_USM_BINARY + "' exchange " + arguments + " >'" +
                          (dir_ / "out").string() + "' 2>'" + (dir_ / "err").string() + "'";
    int status = std::system(command.c_str());
    ToolRun result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(dir_ / "out");
    result.err = slurp(dir_ / "err");
    return result;
  }

  // The selector name of the first root device with USM, or "".
  static std::string usm_device() {
    for (const auto& platform : dlpack_usm::runtime::opencl_runtime().inventory().platforms) {
      for (const auto& root : platform.devices) {
        if (root.usm) return root.selector_name;
      }
    }
    return "";
  }

  fs::path dir_;
};

#define SKIP_WITHOUT_USM_DEVICE()                                                          \
  if (usm_device().empty())                                                                \
  GTEST_SKIP() << "no OpenCL device with cl_intel_unified_shared_memory on this machine; " \
                  "install Intel's CPU runtime to run this test"

TEST_F(ExchangeCommand, RoundTripSucceedsAndSavesTheCapsule) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolRun result = run("--usm shared --dtype float32 --shape 4,250 --order F --json --save '" +
                       (dir_ / "capsule.json").string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["ok"], true);
  EXPECT_EQ(json["device"]["selector"], usm_device());
  EXPECT_EQ(json["verify"]["pointer_identity"], true);
  EXPECT_EQ(json["verify"]["elements_checked"], 1000);
  EXPECT_EQ(json["verify"]["mismatches"], 0);
  EXPECT_EQ(json["verify"]["imported_data"], json["allocate"]["address"]);
  EXPECT_EQ(json["import"]["usm"], "shared");

  // The capsule file is the exported tensor as written down.
  auto capsule = nlohmann::json::parse(slurp(dir_ / "capsule.json"));
  EXPECT_EQ(capsule, json["export"]["capsule"]);
  EXPECT_FALSE(fs::exists(dir_ / ("capsule.json.tmp." + std::to_string(::getpid()))));
}

TEST_F(ExchangeCommand, TextOutputShowsEveryStep) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolRun result = run("--device " + usm_device() +
                       " --sub-device 1 --usm device --dtype complex128 "
                       "--shape 3,4 --order negative --max-version 0.8");
  if (result.exit_code == 3) GTEST_SKIP() << "no sub-device 1 here: " << result.err;
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  for (const char* step : {"1. allocate", "2. fill", "3. export", "4. import", "5. verify",
                           "legacy DLManagedTensor", "result: ok"}) {
    EXPECT_NE(result.out.find(step), std::string::npos) << step << " missing in\n" << result.out;
  }
}

TEST_F(ExchangeCommand, UsageErrorsExit2) {
  EXPECT_EQ(run("--dtype float33").exit_code, 2);
  EXPECT_EQ(run("--shape 4,x").exit_code, 2);
  EXPECT_EQ(run("--order Z").exit_code, 2);
  EXPECT_EQ(run("--usm unknown").exit_code, 2);
  EXPECT_EQ(run("--max-version one").exit_code, 2);
  EXPECT_EQ(run("--no-such-option").exit_code, 2);
}

TEST_F(ExchangeCommand, MissingDeviceOrUsmExits3) {
  ToolRun result = run("--device opencl:gpu:99");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.err.find("opencl:gpu:99"), std::string::npos) << result.err;
  // A device without the USM extension, where there is one.
  for (const auto& platform : dlpack_usm::runtime::opencl_runtime().inventory().platforms) {
    for (const auto& root : platform.devices) {
      if (root.usm) continue;
      ToolRun no_usm = run("--device " + root.selector_name);
      EXPECT_EQ(no_usm.exit_code, 3) << root.selector_name;
      EXPECT_NE(no_usm.err.find("USM"), std::string::npos) << no_usm.err;
    }
  }
}

TEST_F(ExchangeCommand, UnwritableSaveExits3) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolRun result = run("--save '" + (dir_ / "no-such-dir" / "capsule.json").string() + "'");
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("no-such-dir"), std::string::npos) << result.err;
}

}  // namespace
