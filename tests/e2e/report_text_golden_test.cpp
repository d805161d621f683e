// The text reports, byte for byte: tests/data/golden holds what the tool
// printed before its reports were walks over a printer (issue 12), with the
// source directory written @SOURCE@. A change of layout shows up here; a
// deliberate one regenerates the file from the tool's output.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

// The golden file `name` with @SOURCE@ replaced by this checkout's directory.
std::string golden(const std::string& name) {
  std::ifstream file(source_path("tests/data/golden/" + name), std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  std::string expected = text.str();
  const std::string placeholder = "@SOURCE@/";
  const std::string directory = source_path("");
  for (std::size_t at = expected.find(placeholder); at != std::string::npos;
       at = expected.find(placeholder, at + directory.size())) {
    expected.replace(at, placeholder.size(), directory);
  }
  return expected;
}

struct GoldenDump {
  const char* input;   // relative to the source directory
  const char* golden;  // in tests/data/golden
};

// The test's name: the golden file's, letters and digits only.
std::string golden_name(const testing::TestParamInfo<GoldenDump>& info) {
  std::string name = info.param.golden;
  name = name.substr(0, name.rfind('.'));
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

class CapsuleDumpText : public testing::TestWithParam<GoldenDump> {};

TEST_P(CapsuleDumpText, IsTheGoldenText) {
  ToolResult result = run_tool({"capsule", "dump", source_path(GetParam().input)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, golden(GetParam().golden));
}

// Several tensors in a file, legacy and versioned ABIs, a runtime section, an
// unread body with reader notes, values DLPack has no name for.
INSTANTIATE_TEST_SUITE_P(
    Golden, CapsuleDumpText,
    testing::Values(
        GoldenDump{"tests/data/capsules/three-tensors.jsonl", "capsule-dump-three-tensors.txt"},
        GoldenDump{"tests/data/capsules/legacy-and-versioned.json",
                   "capsule-dump-legacy-and-versioned.txt"},
        GoldenDump{"conformance/vectors/addressing/offset-view-inside-allocation.json",
                   "capsule-dump-offset-view-inside-allocation.txt"},
        GoldenDump{"conformance/vectors/version/major-0.json", "capsule-dump-major-0.txt"},
        GoldenDump{"conformance/vectors/device/type-5.json", "capsule-dump-type-5.txt"}),
    golden_name);

// Findings tables, a tensor with none, an unreadable file and the strict summary.
TEST(CapsuleCheckText, IsTheGoldenText) {
  ToolResult result = run_tool({"capsule", "check", "--strict",
                                source_path("tests/data/capsules/three-tensors.jsonl"),
                                source_path("tests/data/capsules/legacy-and-versioned.json"),
                                source_path("tests/data/capsules/vector-lanes-warning.json"),
                                source_path("conformance/vectors/version/major-0.json"),
                                source_path("conformance/vectors/device/type-5.json"),
                                source_path("tests/data/missing.json")});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.out, golden("capsule-check-strict.txt"));
}

}  // namespace
}  // namespace dlpack_usm::e2e
