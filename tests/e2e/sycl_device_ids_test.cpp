// list-devices --runtime sycl against SYCL itself: the ids the tool prints
// must be the positions dpctl.get_devices() gives the same devices, with and
// without ONEAPI_DEVICE_SELECTOR, and where SYCL selects nothing the tool
// must agree and say why.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <optional>

#include <nlohmann/json.hpp>

#include "sycl_presence.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

// dpctl's filter strings in get_devices() order, under `selector` (unset
// when nullopt), from the tools interpreter setup.sh prepared.
json dpctl_filter_strings(const std::optional<std::string>& selector) {
  std::string command = (selector ? "ONEAPI_DEVICE_SELECTOR='" + *selector + "' "
                                  : std::string("env -u ONEAPI_DEVICE_SELECTOR ")) +
                        DLPACK_USM_PYTHON +
                        " -c \"import dpctl, json; print(json.dumps([d.filter_string for d in "
                        "dpctl.get_devices()]))\""
                        " 2>/dev/null";
  std::FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  while (pipe != nullptr && std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  if (pipe != nullptr) pclose(pipe);
  EXPECT_TRUE(json::accept(output)) << "dpctl answered: " << output;
  return json::parse(output, nullptr, false);
}

ToolEnvironment with_selector(const std::optional<std::string>& selector) {
  ToolEnvironment env;
  env.changes["ONEAPI_DEVICE_SELECTOR"] = selector;
  return env;
}

class SyclDeviceIds : public testing::TestWithParam<std::optional<std::string>> {};

TEST_P(SyclDeviceIds, AreDpctlsPositions) {
  SKIP_WITHOUT_SYCL();
  json expected = dpctl_filter_strings(GetParam());
  ASSERT_TRUE(expected.is_array());
  ASSERT_FALSE(expected.empty()) << "SYCL lists no device under this selector on this machine";
  ToolResult result =
      run_tool({"list-devices", "--runtime", "sycl", "--json"}, with_selector(GetParam()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out);
  EXPECT_EQ(doc["runtime"], "sycl");
  EXPECT_EQ(doc["ordering_model"]["name"], "sycl-get-devices");
  ASSERT_EQ(doc["root_device_count"], expected.size());
  std::size_t seen = 0;
  for (const json& platform : doc["platforms"]) {
    for (const json& device : platform["devices"]) {
      int id = device["dlpack_device_id"];
      ASSERT_LT(static_cast<std::size_t>(id), expected.size());
      EXPECT_EQ(device["sycl_filter"], expected[static_cast<std::size_t>(id)])
          << "device_id " << id;
      EXPECT_EQ(device["selector"], device["sycl_filter"]);
      EXPECT_FALSE(device["backend"].get<std::string>().empty());
      for (const json& sub : device["sub_devices"]) {
        EXPECT_EQ(sub["dlpack_device_id"], id);
        EXPECT_TRUE(sub["sycl_filter"].is_null());
      }
      ++seen;
    }
  }
  EXPECT_EQ(seen, expected.size());
}

// The four selectors SYCL answers on the CI machine: '*:1' keeps only the
// second device and renumbers it (PoCL becomes opencl:cpu:0).
INSTANTIATE_TEST_SUITE_P(Selectors, SyclDeviceIds,
                         testing::Values(std::nullopt, std::optional<std::string>("*:*"),
                                         std::optional<std::string>("*:cpu"),
                                         std::optional<std::string>("*:0"),
                                         std::optional<std::string>("*:1")),
                         [](const auto& param_info) {
                           if (!param_info.param) return std::string("unset");
                           std::string name;
                           for (char c : *param_info.param)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return "selector_" + name;
                         });

class SyclEmptySelection : public testing::TestWithParam<std::string> {};

// The PyPI SYCL runtime selects nothing with a backend-named term or an
// empty value; the tool agrees and names the selector (exit 3).
TEST_P(SyclEmptySelection, AgreesWithSyclAndSaysWhy) {
  SKIP_WITHOUT_SYCL();
  json expected = dpctl_filter_strings(GetParam());
  ASSERT_TRUE(expected.is_array());
  EXPECT_TRUE(expected.empty()) << expected.dump();
  ToolResult result =
      run_tool({"list-devices", "--runtime", "sycl", "--json"}, with_selector(GetParam()));
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("ONEAPI_DEVICE_SELECTOR='" + GetParam() + "'"), std::string::npos)
      << result.err;
  json doc = json::parse(result.out);
  EXPECT_EQ(doc["root_device_count"], 0);
}

INSTANTIATE_TEST_SUITE_P(Selectors, SyclEmptySelection, testing::Values("opencl:*", ""),
                         [](const auto& param_info) {
                           return param_info.param.empty() ? std::string("empty")
                                                           : std::string("opencl_star");
                         });

}  // namespace
}  // namespace dlpack_usm::e2e
