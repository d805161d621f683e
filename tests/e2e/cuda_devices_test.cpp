// list-devices' CUDA part as a user meets it: the devices the CUDA driver
// shows this process with their kDLCUDA ids, or one line saying why there is
// none (no driver on every CI machine; a driver file that is not there
// here). Neither changes the exit code: CUDA is optional.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

const char* const kMissingDriver = "/nonexistent/libcuda.so.1";

ToolEnvironment without_driver() {
  ToolEnvironment env;
  env.changes["DLPACK_USM_CUDA_DRIVER"] = kMissingDriver;
  return env;
}

TEST(CudaDevices, AMissingDriverIsNamedInJsonAndChangesNothingElse) {
  ToolResult plain = run_tool({"list-devices", "--json", "--runtime", "opencl"});
  ToolResult result = run_tool({"list-devices", "--json", "--runtime", "opencl"}, without_driver());
  EXPECT_EQ(result.exit_code, plain.exit_code) << result.err;
  json doc = json::parse(result.out);
  const json& cuda = doc["cuda"];
  EXPECT_EQ(cuda["driver_library"], kMissingDriver);
  EXPECT_EQ(cuda["driver_loaded"], false);
  EXPECT_TRUE(cuda["devices"].empty());
  EXPECT_NE(cuda["problem"].get<std::string>().find(std::string("cannot open the CUDA driver ") +
                                                    kMissingDriver),
            std::string::npos)
      << cuda["problem"];
  EXPECT_EQ(doc["platforms"], json::parse(plain.out)["platforms"]);
}

// Without --verbose the loader's long message gives way to a few words on
// one line; --verbose says it whole.
TEST(CudaDevices, AMissingDriverIsOneShortLineOfText) {
  ToolEnvironment env = without_driver();
  env.changes["COLUMNS"] = "100";
  ToolResult result = run_tool({"list-devices", "--runtime", "opencl"}, env);
  // The last line of the listing, alone.
  std::string line = "\nCUDA: no kDLCUDA devices: driver " + std::string(kMissingDriver) +
                     " not loaded (--verbose says why)\n";
  ASSERT_GE(result.out.size(), line.size()) << result.out;
  EXPECT_EQ(result.out.substr(result.out.size() - line.size()), line) << result.out;
  ToolResult verbose =
      run_tool({"list-devices", "--runtime", "opencl", "--verbose"}, without_driver());
  EXPECT_NE(verbose.out.find("CUDA: no kDLCUDA device ids: cannot open the CUDA driver"),
            std::string::npos)
      << verbose.out;
}

// Runs on every machine: without a driver the list is empty with a reason,
// with one it numbers the devices as the process sees them.
TEST(CudaDevices, DeviceIdsAreTheProcesssOrdinals) {
  ToolResult result = run_tool({"list-devices", "--json", "--runtime", "opencl"});
  json cuda = json::parse(result.out)["cuda"];
  ASSERT_TRUE(cuda.is_object()) << result.out;
  if (cuda["devices"].empty()) {
    EXPECT_TRUE(cuda["problem"].is_string()) << cuda.dump();
    return;
  }
  int expected = 0;
  for (const json& device : cuda["devices"]) {
    EXPECT_EQ(device["dlpack_device_type"], "kDLCUDA");
    EXPECT_EQ(device["dlpack_device_id"], expected++);
    EXPECT_FALSE(device["name"].get<std::string>().empty());
  }
  EXPECT_TRUE(cuda["problem"].is_null());
  EXPECT_TRUE(cuda["driver_version"].is_string());
}

}  // namespace
}  // namespace dlpack_usm::e2e
