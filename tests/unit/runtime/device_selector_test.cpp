#include "runtime/device_selector.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace dlpack_usm::runtime {
namespace {

DeviceSelector parse(const char* text) {
  std::vector<std::string> warnings;
  return DeviceSelector::parse(text, &warnings);
}

TEST(DeviceSelector, TypeTermSelectsOnlyThatType) {
  DeviceSelector selector = parse("opencl:cpu");
  EXPECT_TRUE(selector.accepts("opencl", "cpu", 0));
  EXPECT_FALSE(selector.accepts("opencl", "gpu", 1));
}

TEST(DeviceSelector, IndexListSelectsByBackendPosition) {
  DeviceSelector selector = parse("opencl:0,2");
  EXPECT_TRUE(selector.accepts("opencl", "cpu", 0));
  EXPECT_FALSE(selector.accepts("opencl", "cpu", 1));
  EXPECT_TRUE(selector.accepts("opencl", "gpu", 2));
}

TEST(DeviceSelector, OnlyExclusionsKeepEverythingElse) {
  DeviceSelector selector = parse("!opencl:gpu");
  EXPECT_TRUE(selector.accepts("opencl", "cpu", 0));
  EXPECT_FALSE(selector.accepts("opencl", "gpu", 1));
}

TEST(DeviceSelector, ExclusionWinsOverAcceptance) {
  DeviceSelector selector = parse("opencl:*;!opencl:1");
  EXPECT_TRUE(selector.accepts("opencl", "cpu", 0));
  EXPECT_FALSE(selector.accepts("opencl", "cpu", 1));
}

TEST(DeviceSelector, OtherBackendTermsHideOpenCl) {
  DeviceSelector selector = parse("level_zero:gpu");
  EXPECT_FALSE(selector.accepts("opencl", "gpu", 0));
  EXPECT_TRUE(parse("*:cpu").accepts("opencl", "cpu", 3));
}

TEST(DeviceSelector, FpgaMeansAccelerator) {
  EXPECT_TRUE(parse("opencl:fpga").accepts("opencl", "accelerator", 0));
}

TEST(DeviceSelector, SubDeviceTermsWarnAndSelectNoRoot) {
  std::vector<std::string> warnings;
  DeviceSelector selector = DeviceSelector::parse("opencl:0.1", &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("sub-device"), std::string::npos);
  EXPECT_FALSE(selector.accepts("opencl", "cpu", 0));
}

TEST(DeviceSelector, MalformedTermsAreRejectedWithTheTerm) {
  for (const char* bad : {"opencl", "opencl:", ":cpu", "vulkan:gpu", "opencl:tpu"}) {
    try {
      parse(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::usage);
      EXPECT_NE(std::string(error.what()).find("ONEAPI_DEVICE_SELECTOR"), std::string::npos);
      EXPECT_FALSE(error.hint().empty());
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::runtime
