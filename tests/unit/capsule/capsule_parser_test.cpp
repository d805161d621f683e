// The capsule-file reader on every form it accepts: numbers or names for
// enums, dtype shorthands, flag spellings, NULL pointers, the runtime
// section, and one object, arrays and JSON lines.
#include <gtest/gtest.h>

#include "capsule/capsule_file.hpp"
#include "facts/reader_notes.hpp"

namespace dlpack_usm::capsule {
namespace {

// A versioned 2x3 float32 tensor; `body` and `extra` are spliced in.
std::string versioned(const std::string& dl_tensor_members = "", const std::string& extra = "") {
  std::string members = dl_tensor_members.empty()
                            ? R"("data": 4096, "device": {"device_type": 14, "device_id": 0},
                                 "ndim": 2, "dtype": {"code": 2, "bits": 32, "lanes": 1},
                                 "shape": [2, 3], "strides": [3, 1], "byte_offset": 0)"
                            : dl_tensor_members;
  return R"({"version": {"major": 1, "minor": 3}, "dl_tensor": {)" + members + "}" + extra + "}";
}

facts::TensorFacts parse_single(const std::string& text) {
  std::vector<facts::TensorFacts> tensors = parse_capsule_text(text, "t.json");
  EXPECT_EQ(tensors.size(), 1U);
  return tensors.at(0);
}

TEST(CapsuleParser, ReadsAVersionedTensorWithNumbers) {
  facts::TensorFacts facts = parse_single(versioned());
  EXPECT_EQ(facts.abi, facts::Abi::versioned);
  EXPECT_EQ(facts.version.major, 1U);
  EXPECT_EQ(facts.version.minor, 3U);
  EXPECT_EQ(facts.flags, 0U);
  EXPECT_TRUE(facts.has_deleter);
  EXPECT_FALSE(facts.has_manager_ctx);
  EXPECT_TRUE(facts.body_read);
  EXPECT_EQ(facts.data, 4096U);
  EXPECT_EQ(facts.device_type, dlpack::kDLOneAPI);
  EXPECT_EQ(facts.device_id, 0);
  EXPECT_EQ(facts.ndim, 2);
  EXPECT_EQ(facts.dtype.code, dlpack::kDLFloat);
  EXPECT_EQ(facts.dtype.bits, 32);
  EXPECT_EQ(facts.dtype.lanes, 1);
  EXPECT_EQ(facts.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(facts.strides, (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(facts.byte_offset, 0U);
  EXPECT_FALSE(facts.runtime.has_value());
  EXPECT_EQ(facts.origin, "t.json#0");
  EXPECT_TRUE(facts.reader_notes.empty());
}

TEST(CapsuleParser, LegacyTensorHasNoVersionNorFlags) {
  facts::TensorFacts facts = parse_single(
      R"({"deleter": false, "manager_ctx": true, "dl_tensor": {"data": null,
          "device": {"device_type": "cpu", "device_id": 0}, "ndim": 0, "dtype": "int8",
          "shape": null, "strides": null}})");
  EXPECT_EQ(facts.abi, facts::Abi::legacy);
  EXPECT_EQ(facts.version.major, 0U);
  EXPECT_EQ(facts.version.minor, 0U);
  EXPECT_EQ(facts.flags, 0U);
  EXPECT_FALSE(facts.has_deleter);
  EXPECT_TRUE(facts.has_manager_ctx);
  EXPECT_EQ(facts.data, 0U);
  EXPECT_EQ(facts.byte_offset, 0U);  // optional, 0 when absent
  EXPECT_FALSE(facts.shape.has_value());
  EXPECT_FALSE(facts.strides.has_value());
}

TEST(CapsuleParser, EnumsByNameInEveryAcceptedSpelling) {
  for (const char* name : {"\"kDLOneAPI\"", "\"oneapi\"", "\"ONEAPI\"", "14"}) {
    facts::TensorFacts facts = parse_single(versioned(
        std::string(R"("data": 0, "device": {"device_type": )") + name +
        R"(, "device_id": 3}, "ndim": 0, "dtype": {"code": "kDLBfloat", "bits": 16, "lanes": 1},
            "shape": [], "strides": [])"));
    EXPECT_EQ(facts.device_type, dlpack::kDLOneAPI) << name;
    EXPECT_EQ(facts.device_id, 3);
    EXPECT_EQ(facts.dtype.code, dlpack::kDLBfloat);
  }
}

TEST(CapsuleParser, UnknownEnumNumbersAreKeptForTheRules) {
  facts::TensorFacts facts = parse_single(versioned(
      R"("data": 0, "device": {"device_type": 5, "device_id": -1}, "ndim": 0,
          "dtype": {"code": 200, "bits": 0, "lanes": 0}, "shape": null, "strides": null)"));
  EXPECT_EQ(facts.device_type, 5);
  EXPECT_EQ(facts.device_id, -1);
  EXPECT_EQ(facts.dtype.code, 200);
  EXPECT_EQ(facts.dtype.bits, 0);
  EXPECT_EQ(facts.dtype.lanes, 0);
}

TEST(CapsuleParser, DtypeShorthands) {
  struct Case {
    const char* text;
    dlpack::DLDataType dtype;
  };
  for (const Case& c :
       {Case{"float32", {dlpack::kDLFloat, 32, 1}}, Case{"int8", {dlpack::kDLInt, 8, 1}},
        Case{"uint64", {dlpack::kDLUInt, 64, 1}}, Case{"bool", {dlpack::kDLBool, 8, 1}},
        Case{"bfloat16", {dlpack::kDLBfloat, 16, 1}},
        Case{"complex128", {dlpack::kDLComplex, 128, 1}},
        Case{"float8_e5m2", {dlpack::kDLFloat8_e5m2, 8, 1}},
        Case{"float4_e2m1fn", {dlpack::kDLFloat4_e2m1fn, 4, 1}},
        Case{"float32x4", {dlpack::kDLFloat, 32, 4}}}) {
    facts::TensorFacts facts = parse_single(
        versioned(std::string(R"("data": 0, "device": {"device_type": 1, "device_id": 0}, "ndim": 0,
                       "dtype": ")") +
                  c.text + R"(", "shape": null, "strides": null)"));
    EXPECT_EQ(facts.dtype.code, c.dtype.code) << c.text;
    EXPECT_EQ(facts.dtype.bits, c.dtype.bits) << c.text;
    EXPECT_EQ(facts.dtype.lanes, c.dtype.lanes) << c.text;
  }
}

TEST(CapsuleParser, FlagsAsNumberStringOrArray) {
  std::uint64_t both = dlpack::kFlagReadOnly | dlpack::kFlagIsCopied;
  for (const char* flags : {"3", "\"READ_ONLY|IS_COPIED\"", "\"READ_ONLY | IS_COPIED\"",
                            "\"DLPACK_FLAG_BITMASK_READ_ONLY|IS_COPIED\"",
                            "[\"READ_ONLY\", \"IS_COPIED\"]", "\"0x3\"", "\"1|2\""}) {
    facts::TensorFacts facts = parse_single(versioned("", std::string(R"(, "flags": )") + flags));
    EXPECT_EQ(facts.flags, both) << flags;
  }
  EXPECT_EQ(parse_single(versioned("", R"(, "flags": "0")")).flags, 0U);
  EXPECT_EQ(parse_single(versioned("", R"(, "flags": [])")).flags, 0U);
  EXPECT_EQ(parse_single(versioned("", R"(, "flags": "IS_SUBBYTE_TYPE_PADDED|0x8000000000000000")"))
                .flags,
            dlpack::kFlagIsSubbyteTypePadded | (1ULL << 63));
  EXPECT_EQ(parse_single(versioned("", R"(, "flags": 18446744073709551615)")).flags,
            ~std::uint64_t{0});
}

TEST(CapsuleParser, AddressesAsIntegersOrHexStrings) {
  for (const char* data : {"\"0x7f0000001000\"", "\"0X7F0000001000\"", "139637976731648"}) {
    facts::TensorFacts facts = parse_single(
        versioned(std::string(R"("data": )") + data +
                  R"(, "device": {"device_type": 1, "device_id": 0}, "ndim": 0, "dtype": "int8",
            "shape": null, "strides": null, "byte_offset": 18446744073709551615)"));
    EXPECT_EQ(facts.data, 0x7f0000001000U) << data;
    EXPECT_EQ(facts.byte_offset, ~std::uint64_t{0});
  }
  facts::TensorFacts top = parse_single(
      versioned(R"("data": "0xffffffffffffffff", "device": {"device_type": 1, "device_id": 0},
                   "ndim": 0, "dtype": "int8", "shape": null, "strides": null)"));
  EXPECT_EQ(top.data, ~std::uint64_t{0});
}

TEST(CapsuleParser, RuntimeSection) {
  facts::TensorFacts facts = parse_single(versioned("", R"(, "runtime": {
      "usm_kind": "device", "owner_root_index": 1, "owner_sub_device_index": 3,
      "owner_device": "opencl:gpu:1.3", "root_device_count": 2, "default_context": false,
      "alloc_base": "0x1000", "alloc_size": 4096})"));
  ASSERT_TRUE(facts.runtime.has_value());
  const facts::RuntimeFacts& runtime = *facts.runtime;
  EXPECT_EQ(runtime.usm_kind, facts::UsmKind::device);
  EXPECT_EQ(runtime.owner_root_index, 1);
  EXPECT_EQ(runtime.owner_sub_device_index, 3);
  EXPECT_EQ(runtime.owner_device_name, "opencl:gpu:1.3");
  EXPECT_EQ(runtime.root_device_count, 2);
  EXPECT_EQ(runtime.default_context, false);
  EXPECT_EQ(runtime.alloc_base, 0x1000U);
  EXPECT_EQ(runtime.alloc_size, 4096U);

  facts::TensorFacts partial =
      parse_single(versioned("", R"(, "runtime": {"owner_sub_device_index": null})"));
  ASSERT_TRUE(partial.runtime.has_value());
  EXPECT_FALSE(partial.runtime->owner_sub_device_index.has_value());
  EXPECT_FALSE(partial.runtime->usm_kind.has_value());
}

TEST(CapsuleParser, OriginAndCommentAreAccepted) {
  facts::TensorFacts facts =
      parse_single(versioned("", R"(, "origin": "torch 2.5 on xpu:0", "comment": "hand-edited")"));
  EXPECT_EQ(facts.origin, "t.json#0 (torch 2.5 on xpu:0)");
}

TEST(CapsuleParser, NdimBeyondTheLimitWithNullArraysIsAFactNotAnError) {
  facts::TensorFacts facts = parse_single(
      versioned(R"("data": 0, "device": {"device_type": 1, "device_id": 0}, "ndim": 2147483647,
                   "dtype": "int8", "shape": null, "strides": null)"));
  EXPECT_EQ(facts.ndim, 2147483647);
  EXPECT_EQ(facts.reader_notes,
            std::vector<std::string>{facts::note_ndim_beyond_limit(2147483647)});
}

TEST(CapsuleParser, NegativeNdimWithNullArraysIsAFact) {
  facts::TensorFacts facts =
      parse_single(versioned(R"("data": 0, "device": {"device_type": 1, "device_id": 0}, "ndim": -1,
                   "dtype": "int8", "shape": null, "strides": null)"));
  EXPECT_EQ(facts.ndim, -1);
  EXPECT_EQ(facts.reader_notes, std::vector<std::string>{facts::note_ndim_negative(-1)});
}

TEST(CapsuleParser, UnknownMajorVersionSetsTheBodyAside) {
  facts::TensorFacts without_body =
      parse_single(R"({"version": {"major": 2, "minor": 0}, "flags": 1, "deleter": true})");
  EXPECT_FALSE(without_body.body_read);
  EXPECT_EQ(without_body.version.major, 2U);
  EXPECT_EQ(without_body.flags, 1U);
  EXPECT_EQ(without_body.reader_notes, std::vector<std::string>{facts::note_unknown_major(2)});

  std::string with_body = versioned();
  with_body.replace(with_body.find("\"major\": 1"), 10, "\"major\": 2");
  facts::TensorFacts set_aside = parse_single(with_body);
  EXPECT_FALSE(set_aside.body_read);
  EXPECT_EQ(set_aside.ndim, facts::TensorFacts{}.ndim);
  EXPECT_FALSE(set_aside.shape.has_value());
}

TEST(CapsuleParser, ArrayOfTensorsIsNumberedFromZero) {
  // Appends, not "[" + temporary: GCC 12 at -O3 raises a false -Wstringop-overflow.
  std::string text = "[";
  text.append(versioned()).append(", ").append(versioned()).append(",\n").append(versioned());
  text += "]";
  std::vector<facts::TensorFacts> tensors = parse_capsule_text(text, "many.json");
  ASSERT_EQ(tensors.size(), 3U);
  EXPECT_EQ(tensors[0].origin, "many.json#0");
  EXPECT_EQ(tensors[2].origin, "many.json#2");
}

TEST(CapsuleParser, JsonLinesWithBlankLines) {
  std::string line = versioned();
  std::erase(line, '\n');
  std::string text = line + "\n\n" + line + "\r\n" + line + "\n";
  std::vector<facts::TensorFacts> tensors = parse_capsule_text(text, "lines.jsonl");
  ASSERT_EQ(tensors.size(), 3U);
  EXPECT_EQ(tensors[1].origin, "lines.jsonl#1");
}

TEST(CapsuleParser, PrettyPrintedObjectIsOneTensor) {
  std::string text =
      "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"dl_tensor\": {\n"
      "    \"data\": null,\n    \"device\": {\"device_type\": 1, \"device_id\": 0},\n"
      "    \"ndim\": 0, \"dtype\": \"bool\", \"shape\": null, \"strides\": null\n"
      "  }\n}\n";
  EXPECT_EQ(parse_capsule_text(text, "p.json").size(), 1U);
}

TEST(CapsuleParser, Utf8ByteOrderMarkIsSkipped) {
  EXPECT_EQ(parse_capsule_text("\xEF\xBB\xBF" + versioned(), "bom.json").size(), 1U);
  EXPECT_EQ(parse_capsule_text("\xEF\xBB\xBF[" + versioned() + "]", "bom.json").size(), 1U);
  std::string line = versioned();
  std::erase(line, '\n');
  EXPECT_EQ(parse_capsule_text("\xEF\xBB\xBF" + line + "\n" + line, "bom.jsonl").size(), 2U);
}

}  // namespace
}  // namespace dlpack_usm::capsule
