// conformance/schema/capsule.schema.json is well-formed, uses only keywords
// the test validator understands, and agrees with the capsule-file reader:
// every file the reader accepts (samples, conformance vectors, canonical
// output) is valid, and the structural errors the reader refuses are invalid.
// The reader checks a few things no JSON Schema can say (shape and strides
// hold exactly ndim entries); the last test pins that boundary down.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "json_schema_subset.hpp"

namespace dlpack_usm::capsule {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::SchemaSubsetValidator;

std::string read_text(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

const fs::path& source_dir() {
  static const fs::path dir(DLPACK_USM_SOURCE_DIR);
  return dir;
}

const SchemaSubsetValidator& schema() {
  static const SchemaSubsetValidator validator(
      json::parse(read_text(source_dir() / "conformance/schema/capsule.schema.json")));
  return validator;
}

bool reader_accepts(const std::string& text) {
  try {
    parse_capsule_text(text, "sample.json");
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Valid as a whole document, or line by line for JSON lines.
bool schema_accepts(const fs::path& path, const std::string& text) {
  if (path.extension() != ".jsonl") return schema().valid(json::parse(text));
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!schema().valid_as("tensor", json::parse(line))) return false;
  }
  return true;
}

TEST(CapsuleSchema, IsDraft202012AndWellFormed) {
  json document = json::parse(read_text(source_dir() / "conformance/schema/capsule.schema.json"));
  EXPECT_EQ(document["$schema"], "https://json-schema.org/draft/2020-12/schema");
  ASSERT_TRUE(document.contains("$defs"));
  for (const char* definition : {"tensor", "version", "flags", "dl_tensor", "dtype", "runtime"}) {
    EXPECT_TRUE(document["$defs"].contains(definition)) << definition;
  }
  // Construction checks every keyword, every $ref and every pattern.
  EXPECT_NO_THROW(SchemaSubsetValidator{document});
}

TEST(CapsuleSchema, SampleFilesAndConformanceVectorsAreValid) {
  std::vector<fs::path> files;
  for (const fs::path& dir :
       {source_dir() / "tests/data/capsules", source_dir() / "conformance/vectors"}) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".json" || entry.path().extension() == ".jsonl") {
        files.push_back(entry.path());
      }
    }
  }
  ASSERT_GE(files.size(), 3U);
  for (const fs::path& path : files) {
    std::string text = read_text(path);
    EXPECT_TRUE(reader_accepts(text)) << path;
    if (path.extension() != ".jsonl") {
      EXPECT_EQ(schema().errors(json::parse(text)), std::vector<std::string>{}) << path;
    }
    EXPECT_TRUE(schema_accepts(path, text)) << path;
  }
}

TEST(CapsuleSchema, CanonicalOutputIsValid) {
  for (const char* sample :
       {"tests/data/capsules/oneapi-f-order.json", "tests/data/capsules/legacy-and-versioned.json",
        "tests/data/capsules/three-tensors.jsonl"}) {
    for (const facts::TensorFacts& facts : read_capsule_file(source_dir() / sample)) {
      json canonical = json::parse(to_capsule_json(facts).dump());
      EXPECT_EQ(schema().errors(canonical), std::vector<std::string>{}) << canonical.dump();
    }
  }
}

// Documents both the reader and the schema refuse.
TEST(CapsuleSchema, AgreesWithTheReaderOnStructuralErrors) {
  const std::string body =
      R"("data": null, "device": {"device_type": "cpu", "device_id": 0}, "ndim": 1, )"
      R"("dtype": "float32", "shape": [4], "strides": [1])";
  auto tensor = [&](const std::string& extra, const std::string& dl_tensor) {
    return R"({"version": {"major": 1, "minor": 3})" + extra + R"(, "dl_tensor": {)" + dl_tensor +
           "}}";
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string changed = body;
    changed.replace(changed.find(from), from.size(), to);
    return tensor("", changed);
  };
  std::string long_shape = "[1";
  for (int i = 0; i < 1024; ++i) long_shape += ",1";
  long_shape += "]";
  std::vector<std::string> refused{
      tensor(R"(, "flag": 1)", body),
      tensor(R"(, "flags": "READ_ONLY|BOGUS")", body),
      tensor(R"(, "flags": [3])", body),
      tensor(R"(, "flags": -1)", body),
      tensor(R"(, "deleter": 1)", body),
      tensor(R"(, "runtime": {"usm_kind": "managed"})", body),
      tensor(R"(, "runtime": {"alloc_base": "4096"})", body),
      tensor(R"(, "runtime": {"owner_root_index": 2147483648})", body),
      R"({"flags": 1, "dl_tensor": {)" + body + "}}",
      R"({"version": {"major": 1, "minor": 3}})",
      R"({"version": {"major": 1}, "dl_tensor": {)" + body + "}}",
      R"({"version": {"major": -1, "minor": 0}})",
      "[]",
      "[1]",
      "42",
      replaced("\"ndim\": 1", "\"ndim\": 2147483648"),
      replaced("\"ndim\": 1", "\"ndim\": \"1\""),
      replaced("\"device_id\": 0", "\"device_id\": -2147483649"),
      replaced("\"device_type\": \"cpu\"", "\"device_type\": \"sycl\""),
      replaced("\"data\": null", "\"data\": \"0x\""),
      replaced("\"data\": null", "\"data\": -1"),
      replaced("\"dtype\": \"float32\"", "\"dtype\": \"float\""),
      replaced("\"dtype\": \"float32\"", R"("dtype": {"code": 2, "bits": 256, "lanes": 1})"),
      replaced("\"dtype\": \"float32\"", R"("dtype": {"code": "kDLReal", "bits": 32, "lanes": 1})"),
      replaced("\"dtype\": \"float32\"", R"("dtype": {"code": 2, "bits": 32})"),
      replaced("\"shape\": [4]", "\"shape\": " + long_shape),
      replaced("\"shape\": [4]", "\"shape\": [4.5]"),
      replaced("\"strides\": [1]", "\"stride\": [1]"),
      replaced(", \"ndim\": 1", ""),
  };
  for (const std::string& text : refused) {
    EXPECT_FALSE(reader_accepts(text)) << text.substr(0, 300);
    json document = json::parse(text, nullptr, false);
    ASSERT_FALSE(document.is_discarded()) << "not JSON: " << text.substr(0, 300);
    EXPECT_FALSE(schema().valid(document)) << text.substr(0, 300);
  }
}

// What the schema cannot express and the reader checks alone.
TEST(CapsuleSchema, EntryCountsAgainstNdimAreTheReadersJob) {
  std::string text =
      R"({"version": {"major": 1, "minor": 3}, "dl_tensor": {"data": null,
          "device": {"device_type": 1, "device_id": 0}, "ndim": 3, "dtype": "int8",
          "shape": [1, 2], "strides": null}})";
  EXPECT_TRUE(schema().valid(json::parse(text)));
  EXPECT_FALSE(reader_accepts(text));
}

}  // namespace
}  // namespace dlpack_usm::capsule
