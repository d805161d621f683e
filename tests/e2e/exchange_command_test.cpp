// `dlpack-usm exchange` run as a user runs it: the exit codes of the man
// page, the JSON document, and the capsule file --save writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"
#include "sycl_presence.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ToolResult exchange(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "exchange");
  return run_tool(arguments);
}

// The selector name of the first root device with USM, or "".
std::string usm_device() {
  for (const auto& [platform, root] : runtime::opencl_runtime().inventory().roots()) {
    if (root.usm) return root.selector_name;
  }
  return "";
}

bool usm_required() {
  const char* value = std::getenv("DLPACK_USM_REQUIRE_USM");
  return value != nullptr && std::string(value) == "1";
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
  fs::path dir_;
};

#define SKIP_WITHOUT_USM_DEVICE()                                                            \
  if (usm_device().empty()) {                                                                \
    if (usm_required()) FAIL() << "DLPACK_USM_REQUIRE_USM=1 but no device has USM";          \
    GTEST_SKIP() << "no OpenCL device with cl_intel_unified_shared_memory on this machine; " \
                    "install Intel's CPU runtime to run this test";                          \
  }

TEST_F(ExchangeCommand, RoundTripSucceedsAndSavesTheCapsule) {
  SKIP_WITHOUT_USM_DEVICE();
  fs::path saved = dir_ / "capsule.json";
  ToolResult result = exchange({"--usm", "shared", "--dtype", "float32", "--shape", "4,250",
                                "--order", "F", "--json", "--save", saved.string()});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["ok"], true);
  EXPECT_EQ(json["device"]["selector"], usm_device());
  EXPECT_EQ(json["verify"]["pointer_identity"], true);
  EXPECT_EQ(json["verify"]["elements_checked"], 1000);
  EXPECT_EQ(json["verify"]["mismatches"], 0);
  EXPECT_EQ(json["verify"]["imported_data"], json["allocate"]["address"]);
  EXPECT_EQ(json["import"]["usm"], "shared");
  EXPECT_EQ(json["export"]["capsule"]["dl_tensor"]["strides"], nlohmann::json::parse("[1, 4]"));

  // The capsule file is the exported tensor as written down, and `capsule
  // check` finds no error in it.
  auto capsule = nlohmann::json::parse(slurp(saved));
  EXPECT_EQ(capsule, json["export"]["capsule"]);
  ToolResult check = run_tool({"capsule", "check", saved.string()});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos)
        << "a temporary file was left behind: " << entry.path();
  }
}

// 40 MiB of device USM goes to the device and comes back in 16 MiB windows,
// in address order: every element is checked in every layout, none twice.
TEST_F(ExchangeCommand, ATensorLargerThanAWindowIsCheckedWindowByWindow) {
  SKIP_WITHOUT_USM_DEVICE();
  for (const char* order : {"C", "F", "strided", "offset", "negative"}) {
    ToolResult result = exchange({"--usm", "device", "--dtype", "float32", "--shape", "2560,4096",
                                  "--order", order, "--json"});
    ASSERT_EQ(result.exit_code, 0) << order << ": " << result.err;
    auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["ok"], true) << order;
    EXPECT_EQ(json["verify"]["elements_checked"], 2560 * 4096) << order;
    EXPECT_EQ(json["verify"]["mismatches"], 0) << order;
  }
}

TEST_F(ExchangeCommand, TextOutputShowsEveryStep) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolResult result = exchange({"--runtime", "opencl", "--device", usm_device(), "--sub-device",
                                "1", "--usm", "device", "--dtype", "complex128", "--shape", "3,4",
                                "--order", "negative", "--max-version", "0.8"});
  if (result.exit_code == 3) GTEST_SKIP() << "no sub-device 1 here: " << result.err;
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  for (const char* step : {"1. allocate", "2. fill", "3. export", "4. import", "5. verify",
                           "DLManagedTensor", "strides      [-4, 1]", "result: ok"}) {
    EXPECT_NE(result.out.find(step), std::string::npos) << step << " missing in\n" << result.out;
  }
}

// SYCL's OpenCL backend keeps sub-devices out of the platform's default
// context: device USM there cannot be exported under the protocol, and the
// tool says why instead of pretending.
TEST_F(ExchangeCommand, SyclSubDeviceOutsideTheDefaultContextIsExplained) {
  SKIP_WITHOUT_SYCL();
  SKIP_WITHOUT_USM_DEVICE();
  ToolResult result = exchange(
      {"--runtime", "sycl", "--device", usm_device(), "--sub-device", "0", "--usm", "device"});
  if (result.exit_code == 0) {
    EXPECT_NE(result.out.find("result: ok"), std::string::npos) << result.out;
    return;  // a backend (Level Zero) whose default context holds sub-devices
  }
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("not a member of its platform's default context"), std::string::npos)
      << result.err;
}

TEST_F(ExchangeCommand, SyclRoundTripOfEveryKindIsOk) {
  SKIP_WITHOUT_SYCL();
  SKIP_WITHOUT_USM_DEVICE();
  for (const char* kind : {"host", "device", "shared"}) {
    ToolResult result = exchange({"--runtime", "sycl", "--usm", kind, "--json"});
    ASSERT_EQ(result.exit_code, 0) << kind << result.out << result.err;
    auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["import"]["usm"], kind) << result.out;
    EXPECT_EQ(json["ok"], true);
  }
}

TEST_F(ExchangeCommand, ReadOnlyReachesTheConsumer) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolResult result = exchange({"--read-only", "--json", "--shape", "scalar"});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["import"]["writable"], false);
  EXPECT_EQ(json["verify"]["elements_checked"], 1);
}

TEST_F(ExchangeCommand, UsageErrorsExit2) {
  for (std::vector<std::string> arguments : {std::vector<std::string>{"--dtype", "float33"},
                                             {"--shape", "4,x"},
                                             {"--shape", "4,-1"},
                                             {"--order", "Z"},
                                             {"--usm", "unknown"},
                                             {"--max-version", "one"},
                                             {"--no-such-option"},
                                             {"--read-only", "--max-version", "0.8"}}) {
    ToolResult result = exchange(arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments[0] << ": " << result.err;
    EXPECT_NE(result.err.find("dlpack-usm: error:"), std::string::npos) << result.err;
  }
}

// A dtype that is no name of the table, or one the round trip cannot use,
// is a usage error naming what was typed and offering the closest names;
// never a finding (exit 1) or a message about widths for a typo.
TEST_F(ExchangeCommand, AWrongDtypeIsAUsageErrorOfferingTheClosest) {
  struct Wrong {
    const char* typed;
    const char* offered;
  };
  for (Wrong wrong : {Wrong{"float33", "'float32'"}, Wrong{"float128", "'float16'"},
                      Wrong{"flot32", "'float32'"}, Wrong{"complx64", "'complex64'"}}) {
    SCOPED_TRACE(wrong.typed);
    ToolResult result = exchange({"--dtype", wrong.typed});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(std::string("error: --dtype '") + wrong.typed +
                              "' is not a dtype exchange can use (did you mean "),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find(wrong.offered), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("hint: the dtypes exchange can use: int8, "), std::string::npos)
        << result.err;
    EXPECT_EQ(result.err.find("narrower than a byte"), std::string::npos) << result.err;
  }
  // A real dtype narrower than a byte is refused for what it is.
  ToolResult narrow = exchange({"--dtype", "int4"});
  EXPECT_EQ(narrow.exit_code, 2) << narrow.err;
  EXPECT_NE(narrow.err.find("--dtype int4 is narrower than a byte"), std::string::npos)
      << narrow.err;
}

TEST_F(ExchangeCommand, ValuesFromATableOfferTheClosest) {
  ToolResult usm = exchange({"--usm", "devise"});
  EXPECT_EQ(usm.exit_code, 2);
  EXPECT_NE(usm.err.find("--usm 'devise' is not host, device or shared (did you mean 'device'?)"),
            std::string::npos)
      << usm.err;
  ToolResult order = exchange({"--order", "strided2"});
  EXPECT_EQ(order.exit_code, 2);
  EXPECT_NE(order.err.find("(did you mean 'strided'?)"), std::string::npos) << order.err;
  ToolResult runtime = exchange({"--runtime", "opencll"});
  EXPECT_EQ(runtime.exit_code, 2);
  EXPECT_NE(runtime.err.find("(did you mean 'opencl'?)"), std::string::npos) << runtime.err;
}

// A sub-device position is a whole number from 0, said in words when it is not.
TEST_F(ExchangeCommand, ASubDevicePositionThatIsNoneIsAUsageErrorInWords) {
  for (const char* typed : {"-1", "x", "99999999999", "1.5"}) {
    ToolResult result = exchange({"--sub-device", typed});
    EXPECT_EQ(result.exit_code, 2) << typed << ": " << result.err;
    EXPECT_NE(result.err.find("is not a sub-device position: give 0 for the first sub-device"),
              std::string::npos)
        << result.err;
  }
}

// Each runtime names its own calls: SYCL's round trip is no clEnqueueMemcpyINTEL.
TEST_F(ExchangeCommand, TheStepsNameTheCallsOfTheRuntimeUsed) {
  SKIP_WITHOUT_USM_DEVICE();
  ToolResult opencl = exchange({"--runtime", "opencl", "--usm", "shared"});
  ASSERT_EQ(opencl.exit_code, 0) << opencl.out << opencl.err;
  EXPECT_NE(opencl.out.find("(clSharedMemAllocINTEL)"), std::string::npos) << opencl.out;
  EXPECT_NE(opencl.out.find("(clEnqueueMemcpyINTEL)"), std::string::npos) << opencl.out;
  SKIP_WITHOUT_SYCL();
  ToolResult sycl = exchange({"--runtime", "sycl", "--usm", "device"});
  ASSERT_EQ(sycl.exit_code, 0) << sycl.out << sycl.err;
  EXPECT_NE(sycl.out.find("(DPCTLmalloc_device (sycl::malloc_device))"), std::string::npos)
      << sycl.out;
  EXPECT_NE(sycl.out.find("(DPCTLQueue_Memcpy (sycl::queue::memcpy))"), std::string::npos)
      << sycl.out;
  EXPECT_EQ(sycl.out.find("INTEL"), std::string::npos) << sycl.out;
}

TEST_F(ExchangeCommand, MissingDeviceOrUsmExits3) {
  ToolResult result = exchange({"--device", "opencl:gpu:99"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.err.find("opencl:gpu:99"), std::string::npos) << result.err;
  std::string device = usm_device();
  if (!device.empty()) {
    ToolResult typo = exchange({"--runtime", "opencl", "--device", device + "x"});
    EXPECT_EQ(typo.exit_code, 3);
    EXPECT_NE(typo.err.find("(did you mean '" + device + "'"), std::string::npos) << typo.err;
  }
  // A device without the USM extension, where there is one.
  for (const auto& [platform, root] : runtime::opencl_runtime().inventory().roots()) {
    if (root.usm) continue;
    ToolResult no_usm = exchange({"--device", root.selector_name});
    EXPECT_EQ(no_usm.exit_code, 3) << root.selector_name;
    EXPECT_NE(no_usm.err.find("USM"), std::string::npos) << no_usm.err;
  }
}

// A folder is made where none is; where a file stands, none can be.
TEST_F(ExchangeCommand, UnwritableSaveExits3) {
  SKIP_WITHOUT_USM_DEVICE();
  std::ofstream(dir_ / "no-such-dir") << "a file\n";
  ToolResult result = exchange({"--save", (dir_ / "no-such-dir" / "capsule.json").string()});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("no-such-dir"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
