// `dlpack-usm capsule dump` as a user runs it: every field with names for
// enum values, and the derived facts, in text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

std::string sample(const std::string& name) {
  return source_path("tests/data/capsules/" + name);
}

// The value printed after `key` on its line of the text dump.
std::string text_value(const std::string& text, const std::string& key) {
  std::size_t at = text.find("\n    " + key + " ");
  if (at == std::string::npos) at = text.find("\n  " + key + " ");
  if (at == std::string::npos) return "<" + key + " missing>";
  std::size_t start = text.find_first_not_of(' ', text.find(key, at) + key.size());
  return text.substr(start, text.find('\n', start) - start);
}

TEST(CapsuleDump, TextNamesEveryFieldAndTheDerivedFacts) {
  ToolResult result = run_tool({"capsule", "dump", sample("oneapi-f-order.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.err.empty()) << result.err;
  const std::string& out = result.out;
  EXPECT_NE(out.find("oneapi-f-order.json#0 (hand-written sample)"), std::string::npos) << out;
  EXPECT_EQ(text_value(out, "abi"), "DLManagedTensorVersioned");
  EXPECT_EQ(text_value(out, "version"), "1.3");
  EXPECT_EQ(text_value(out, "flags"), "0x1 (READ_ONLY)");
  EXPECT_EQ(text_value(out, "deleter"), "present");
  EXPECT_EQ(text_value(out, "data"), "0x7f0000001000");
  EXPECT_EQ(text_value(out, "device_type"), "kDLOneAPI (14)");
  EXPECT_EQ(text_value(out, "dtype"), "float32 (code kDLFloat (2), bits 32, lanes 1)");
  EXPECT_EQ(text_value(out, "shape"), "[4, 250]");
  EXPECT_EQ(text_value(out, "strides"), "[1, 4]");
  EXPECT_EQ(text_value(out, "usm_kind"), "shared");
  EXPECT_EQ(text_value(out, "default_context"), "yes");
  EXPECT_EQ(text_value(out, "element_count"), "1000");
  EXPECT_EQ(text_value(out, "byte_extent"), "[0, 4000) bytes from data + byte_offset");
  EXPECT_EQ(text_value(out, "contiguity"), "F");
  EXPECT_EQ(text_value(out, "data_alignment"), "4096");
  EXPECT_EQ(text_value(out, "first_element_alignment"), "4096");
}

TEST(CapsuleDump, JsonCarriesNumbersNamesAndDerivedFacts) {
  ToolResult result = run_tool({"capsule", "dump", "--json", sample("legacy-and-versioned.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out);
  EXPECT_EQ(doc["file"], sample("legacy-and-versioned.json"));
  ASSERT_EQ(doc["tensors"].size(), 2U);

  const json& legacy = doc["tensors"][0];
  EXPECT_EQ(legacy["abi"], "DLManagedTensor");
  EXPECT_TRUE(legacy["version"].is_null());
  EXPECT_TRUE(legacy["flags"].is_null());
  EXPECT_EQ(legacy["dl_tensor"]["data"], "0x1000");
  EXPECT_TRUE(legacy["dl_tensor"]["shape"].is_null());
  EXPECT_EQ(legacy["derived"]["element_count"], 1);
  EXPECT_EQ(legacy["derived"]["byte_extent"]["end_byte"], 1);
  EXPECT_EQ(legacy["derived"]["contiguity"], "both");

  const json& view = doc["tensors"][1];
  EXPECT_EQ(view["origin"], sample("legacy-and-versioned.json") + "#1");
  EXPECT_EQ(view["version"]["minor"], 1);
  EXPECT_EQ(view["flags"]["value"], 2);
  EXPECT_EQ(view["flags"]["names"], json::array({"IS_COPIED"}));
  EXPECT_EQ(view["dl_tensor"]["device"]["device_type"], 14);
  EXPECT_EQ(view["dl_tensor"]["device"]["device_type_name"], "kDLOneAPI");
  EXPECT_EQ(view["dl_tensor"]["dtype"]["code_name"], "kDLComplex");
  EXPECT_EQ(view["dl_tensor"]["dtype"]["name"], "complex64");
  EXPECT_EQ(view["dl_tensor"]["byte_offset"], 32);
  EXPECT_EQ(view["runtime"]["usm_kind"], "device");
  EXPECT_EQ(view["runtime"]["owner_sub_device_index"], 2);
  EXPECT_TRUE(view["runtime"]["alloc_base"].is_null());
  // Five complex64 elements going down from the first: bytes [-32, 8).
  EXPECT_EQ(view["derived"]["byte_extent"]["lowest_byte"], -32);
  EXPECT_EQ(view["derived"]["byte_extent"]["end_byte"], 8);
  EXPECT_EQ(view["derived"]["contiguity"], "neither");
  EXPECT_EQ(view["derived"]["first_element_alignment"], 32);
}

TEST(CapsuleDump, JsonLinesWithAnUnknownMajorVersion) {
  ToolResult result = run_tool({"capsule", "dump", "--json", sample("three-tensors.jsonl")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out);
  ASSERT_EQ(doc["tensors"].size(), 3U);
  EXPECT_EQ(doc["tensors"][0]["derived"]["element_count"], 0);
  const json& unknown = doc["tensors"][1];
  EXPECT_FALSE(unknown["body_read"]);
  EXPECT_TRUE(unknown["dl_tensor"].is_null());
  EXPECT_TRUE(unknown["derived"].is_null());
  ASSERT_EQ(unknown["reader_notes"].size(), 1U);
  EXPECT_NE(unknown["reader_notes"][0].get<std::string>().find("version.major 2"),
            std::string::npos);
  // [2, 1, 3] with strides [3, 77, 1]: the extent-1 stride does not matter.
  EXPECT_EQ(doc["tensors"][2]["derived"]["contiguity"], "C");

  ToolResult text = run_tool({"capsule", "dump", sample("three-tensors.jsonl")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("dl_tensor  not read (unknown major version)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("reader notes"), std::string::npos) << text.out;
}

TEST(CapsuleDump, NeedsExactlyOneFile) {
  EXPECT_EQ(run_tool({"capsule", "dump"}).exit_code, 2);
  EXPECT_EQ(run_tool({"capsule"}).exit_code, 2);
}

}  // namespace
}  // namespace dlpack_usm::e2e
