// The line reader of JSON lines against the reference reader: on every
// conformance vector and captured tensor, on every form of every field, and
// one line after another in the same Facts, it gives the reference reader's
// facts or declines the line; what it declines is what it cannot read
// exactly (errors, unknown and repeated keys, escapes, another major).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "capsule/tensor_line_reader.hpp"
#include "capsule_test_support.hpp"
#include "common/error.hpp"

namespace dlpack_usm::capsule {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::described;

// The text of `line` with the padding the line reader reads past.
struct PaddedLine {
  explicit PaddedLine(const std::string& text) : buffer(text) { buffer.reserve(text.size() + 64); }
  std::string_view view() const { return {buffer.data(), buffer.size()}; }
  std::string buffer;
};

// What the reference reader makes of `text`, or the message it refuses it
// with.
std::string reference(const std::string& text) {
  PaddedLine line(text);
  TensorLineReader unused;
  facts::TensorFacts facts;
  try {
    read_json_line(JsonLine{line.view(), 7, 1, 3}, "f.jsonl", unused, LineReading::reference,
                   facts);
  } catch (const Error& error) {
    return std::string("refused: ") + error.what();
  }
  return described(facts);
}

// What the line reader makes of `text` in `facts`, or "declined".
std::string fast(TensorLineReader& reader, const std::string& text, facts::TensorFacts& facts) {
  PaddedLine line(text);
  if (!reader.read(line.view(), "f.jsonl#3", facts)) return "declined";
  return described(facts);
}

std::vector<std::string> vector_lines() {
  std::vector<std::string> lines;
  fs::path source(DLPACK_USM_SOURCE_DIR);
  for (const char* folder : {"conformance/vectors", "fixtures/captured"}) {
    for (const auto& entry : fs::recursive_directory_iterator(source / folder)) {
      if (entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path());
      json document = json::parse(in, nullptr, false);
      if (document.is_discarded()) continue;
      for (const json& tensor : document.is_array() ? document : json::array({document})) {
        lines.push_back(tensor.dump());
      }
    }
  }
  return lines;
}

TEST(TensorLineReader, ReadsEveryVectorAsTheReferenceReaderDoes) {
  std::vector<std::string> lines = vector_lines();
  ASSERT_GT(lines.size(), 100U);
  TensorLineReader reader;
  facts::TensorFacts facts;
  std::vector<std::string> declined;
  for (const std::string& line : lines) {
    std::string got = fast(reader, line, facts);
    if (got == "declined") {
      declined.push_back(line);
      continue;
    }
    EXPECT_EQ(got, reference(line)) << line;
  }
  // The fast path is the rule, not the exception: only the lines that hold
  // what it leaves to the reference reader go there.
  EXPECT_LT(declined.size() * 10, lines.size())
      << declined.size() << " of " << lines.size() << " declined, the first: " << declined.front();
}

// A tensor whose members are spliced in, every form of a field once.
std::string tensor_with(const std::string& top, const std::string& body) {
  return fmt::format(
      R"({{{}"dl_tensor": {{"device": {{"device_type": "kDLCUDA", "device_id": 1}}, )"
      R"("ndim": 2, "shape": [2, 3], "strides": [3, 1], {}}}}})",
      top, body);
}

TEST(TensorLineReader, ReadsEveryFormOfEveryFieldAsTheReferenceReaderDoes) {
  const std::string versioned = R"("version": {"major": 1, "minor": 3}, )";
  const std::string plain = R"("data": "0x1000", "dtype": "float32")";
  std::vector<std::string> lines = {
      tensor_with("", plain),
      tensor_with(versioned + R"("flags": 3, )", plain),
      tensor_with(versioned + R"("flags": "READ_ONLY|IS_COPIED", )", plain),
      tensor_with(versioned + R"("flags": " 0x10 | DLPACK_FLAG_BITMASK_READ_ONLY", )", plain),
      tensor_with(versioned + R"("flags": ["IS_SUBBYTE_TYPE_PADDED", "18"], )", plain),
      tensor_with(versioned + R"("deleter": false, "manager_ctx": true, )", plain),
      tensor_with(versioned + R"("origin": "torch 2.11", "comment": "c", )", plain),
      tensor_with(versioned, R"("data": null, "dtype": "float32x4", "byte_offset": 8)"),
      tensor_with(versioned, R"("data": 18446744073709551615, "dtype": "complex64")"),
      tensor_with(versioned, R"("data": "0XABCdef", "dtype": {"code": 2, "bits": 16, "lanes": 1})"),
      tensor_with(versioned, R"("data": 0, "dtype": {"code": "bfloat", "bits": 16, "lanes": 2})"),
      tensor_with(versioned, R"("data": 64, "dtype": {"code": "KDLBOOL", "bits": 8, "lanes": 1})"),
      R"({"dl_tensor": {"data": 1, "device": {"device_type": 14, "device_id": -1}, "ndim": 0,)"
      R"( "dtype": "bool", "shape": null, "strides": null}})",
      R"({"dl_tensor": {"data": 1, "device": {"device_type": "oneapi", "device_id": 0}, "ndim": 1,)"
      R"( "dtype": "int8", "shape": [0], "strides": null}, "version": {"minor": 0, "major": 1}})",
      tensor_with(versioned + R"("runtime": {"usm_kind": "shared", "owner_root_index": 0, )"
                              R"("owner_sub_device_index": null, "owner_device": "opencl:cpu:0", )"
                              R"("root_device_count": 2, "default_context": true, )"
                              R"("alloc_base": "0x1000", "alloc_size": 96}, )",
                  plain),
      tensor_with(R"("runtime": {"owner_sub_device_index": 1, "cuda_memory_type": "managed", )"
                  R"("cuda_ordinal": 1, "cuda_device_count": 2, "cuda_visible_devices": "3,1"}, )",
                  plain),
      tensor_with(R"("runtime": {}, )", plain),
  };
  TensorLineReader reader;
  facts::TensorFacts facts;
  for (const std::string& line : lines) {
    EXPECT_EQ(fast(reader, line, facts), reference(line)) << line;
  }
}

TEST(TensorLineReader, DeclinesWhatItCannotReadExactly) {
  const std::string good = tensor_with("", R"("data": "0x1000", "dtype": "float32")");
  std::vector<std::string> lines = {
      good + " x",
      good + "}",
      good.substr(0, good.size() - 1),
      good.substr(0, good.size() - 1) + R"(, "flag": 0})",
      good.substr(0, good.size() - 1) + R"(, "origin": "a", "origin": "b"})",
      good.substr(0, good.size() - 1) + R"(, "origin": "caf\u00e9"})",
      good.substr(0, good.size() - 1) + R"(, "orig\u0069n": "a"})",
      tensor_with(R"("version": {"major": 2, "minor": 0}, )", R"("data": 1, "dtype": "int8")"),
      tensor_with(R"("flags": 1, )", R"("data": 1, "dtype": "int8")"),
      tensor_with("", R"("data": 1.0, "dtype": "int8")"),
      tensor_with("", R"("data": -1, "dtype": "int8")"),
      tensor_with("", R"("data": "0x", "dtype": "int8")"),
      tensor_with("", R"("data": 1, "dtype": "integer")"),
      tensor_with("", R"("data": 1, "dtype": "int8", "byte_offset": 1e3)"),
      R"({"dl_tensor": {"data": 1, "device": {"device_type": 1, "device_id": 0}, "ndim": -1,)"
      R"( "dtype": "int8", "shape": null, "strides": null}})",
      R"({"dl_tensor": {"data": 1, "device": {"device_type": 1, "device_id": 0}, "ndim": 2,)"
      R"( "dtype": "int8", "shape": [1], "strides": null}})",
      R"({"version": {"major": 1, "minor": 3}})",
      "[" + good + "]",
      "{\"origin\": \"\xff\"}",
  };
  TensorLineReader reader;
  facts::TensorFacts facts;
  for (const std::string& line : lines) {
    EXPECT_EQ(fast(reader, line, facts), "declined") << line;
  }
}

// A capture's tensors after one another: one line read in full, and the
// next ones, whose keys, order and spacing are its own and whose values
// differ (NULL data, an integer address, more axes, no runtime's numbers
// alike), read by its shape, with the reference reader's facts.
TEST(TensorLineReader, ReadsALineByTheLastLinesShapeAsTheReferenceReaderDoes) {
  const std::string versioned = R"("version": {"major": 1, "minor": 3}, "flags": 0, )";
  auto line = [&](const std::string& data, const std::string& rest) {
    return fmt::format(
        R"({{{}"dl_tensor": {{"data": {}, "device": {{"device_type": "kDLCUDA", "device_id": 1}}, )"
        R"({}, "byte_offset": 0}}, "runtime": {{"cuda_ordinal": 1}}, "origin": "p"}})",
        versioned, data, rest);
  };
  const std::string dtype = R"("dtype": {"code": "kDLFloat", "bits": 32, "lanes": 1})";
  std::vector<std::string> lines = {
      line(R"("0x1000")", R"("ndim": 2, )" + dtype + R"(, "shape": [2, 3], "strides": [3, 1])"),
      line("null", R"("ndim": 2, )" + dtype + R"(, "shape": [2, 3], "strides": [3, 1])"),
      line("4096", R"("ndim": 3, )" + dtype + R"(, "shape": [4, 5, 6], "strides": [30, 6, 1])"),
      line(R"("0x7f00")", R"("ndim": 0, )" + dtype + R"(, "shape": [], "strides": null)"),
      line(R"("0x7f00")",
           R"("ndim": 1, "dtype": {"code": "kDLBfloat", "bits": 16, "lanes": 2}, "shape": [9], )"
           R"("strides": [-1])"),
  };
  TensorLineReader reader;
  facts::TensorFacts facts;
  for (const std::string& text : lines)
    EXPECT_EQ(fast(reader, text, facts), reference(text)) << text;
  EXPECT_EQ(reader.lines_read_by_shape(), lines.size() - 1);
}

// After a line read in full, lines that differ from it outside their values
// (a space, the keys' order, a key more or less, a repeated key, a dtype
// written the other way, something after the object, a line cut short) and
// lines whose values its readers decline: each is read in full, with the
// reference reader's facts, or declined, never read by the shape.
TEST(TensorLineReader, ALineUnlikeTheLastLinesShapeIsReadInFull) {
  const std::string good = tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                                       R"("data": "0x1000", "dtype": "float32")");
  const std::string open = good.substr(0, good.size() - 1);
  std::vector<std::string> lines = {
      good + " ",
      good + " x",
      good + "}",
      open,
      " " + good,
      open + R"(, "origin": "a"})",
      open + R"(, "origin": "a", "origin": "b"})",
      tensor_with(R"("version": {"minor": 3, "major": 1}, )",
                  R"("data": "0x1000", "dtype": "float32")"),
      tensor_with(R"("version":  {"major": 1, "minor": 3}, )",
                  R"("data": "0x1000", "dtype": "float32")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                  R"("dtype": "float32", "data": "0x1000")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                  R"("data": "0x1000", "dtype": {"code": 2, "bits": 32, "lanes": 1})"),
      tensor_with(R"("version": {"major": 2, "minor": 3}, )",
                  R"("data": "0x1000", "dtype": "float32")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )", R"("data": 1.5, "dtype": "float32")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                  R"("data": "0x1000", "dtype": "flt32")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                  R"("data": "0x\u0031", "dtype": "float32")"),
      tensor_with(R"("version": {"major": 1, "minor": 3}, )",
                  R"("data": null, "dtype": "float32")"),
  };
  for (const std::string& line : lines) {
    TensorLineReader reader;
    facts::TensorFacts facts;
    ASSERT_NE(fast(reader, good, facts), "declined");
    std::string got = fast(reader, line, facts);
    std::string expected = reference(line);
    if (got == "declined") {
      // Declining is always allowed; the reference reader then answers.
      EXPECT_EQ(reader.lines_read_by_shape(), 0U) << line;
      continue;
    }
    EXPECT_EQ(got, expected) << line;
    // Only the last one, NULL data in good's shape, is good's shape.
    EXPECT_EQ(reader.lines_read_by_shape(), line == lines.back() ? 1U : 0U) << line;
  }
}

// The reader keeps the last few names of each field (dtype codes, device
// types, memory types) with what they named: lines taking turns among more
// names than it keeps, written in either case and either form, each give
// the reference reader's facts, by the shape and in full alike; a name no
// release knows is still declined after names it knows.
TEST(TensorLineReader, NamesKeptFromLineToLineNameWhatTheReferenceReaderFinds) {
  const std::vector<std::string> codes = {
      "kDLInt", "kDLUInt",  "kDLFloat",         "kDLBfloat", "kDLComplex",     "kDLBool",
      "float",  "KDLFLOAT", "kDLFloat8_e4m3fn", "int",       "kDLOpaqueHandle"};
  const std::vector<std::string> devices = {"kDLCUDA", "kDLCPU", "kDLOneAPI", "cuda", "KDLCUDA"};
  const std::vector<std::string> memory = {"device", "host", "managed", "unregistered"};
  TensorLineReader reader;
  facts::TensorFacts facts;
  for (std::size_t i = 0; i < 3 * codes.size(); ++i) {
    std::string line = fmt::format(
        R"({{"dl_tensor": {{"data": "0x1000", "device": {{"device_type": "{}", "device_id": 0}}, )"
        R"("ndim": 1, "dtype": {{"code": "{}", "bits": 8, "lanes": 1}}, "shape": [4], )"
        R"("strides": null}}, "runtime": {{"cuda_memory_type": "{}"}}}})",
        devices[i % devices.size()], codes[(i * 7) % codes.size()], memory[i % memory.size()]);
    EXPECT_EQ(fast(reader, line, facts), reference(line)) << line;
  }
  EXPECT_GT(reader.lines_read_by_shape(), codes.size());
  const std::string unknown = tensor_with("", R"("data": 1, "dtype": {"code": "kDLFloat9", )"
                                              R"("bits": 8, "lanes": 1})");
  EXPECT_EQ(fast(reader, unknown, facts), "declined");
}

// Integers are read without an overflow check up to nineteen digits, which
// cannot overflow: the twentieth is checked, at 2^64 and past it.
TEST(TensorLineReader, TwentyDigitIntegersAreCheckedAtTheEdgeOf64Bits) {
  TensorLineReader reader;
  facts::TensorFacts facts;
  for (const char* data : {"9999999999999999999", "10000000000000000000", "18446744073709551615"}) {
    std::string line = tensor_with("", fmt::format(R"("data": {}, "dtype": "int8")", data));
    EXPECT_EQ(fast(reader, line, facts), reference(line)) << line;
    EXPECT_NE(fast(reader, line, facts), "declined") << line;
  }
  for (const char* data :
       {"18446744073709551616", "99999999999999999999", "184467440737095516150"}) {
    std::string line = tensor_with("", fmt::format(R"("data": {}, "dtype": "int8")", data));
    EXPECT_EQ(fast(reader, line, facts), "declined") << line;
  }
}

// One Facts through lines of every shape: nothing of a line stays for the
// next (the runtime section, shape and strides, the recorded origin).
TEST(TensorLineReader, ReusedFactsCarryNothingFromOneLineToTheNext) {
  std::vector<std::string> lines = vector_lines();
  std::reverse(lines.begin(), lines.end());
  TensorLineReader reader;
  facts::TensorFacts facts;
  std::size_t compared = 0;
  for (std::size_t round = 0; round < 2; ++round) {
    for (const std::string& line : lines) {
      std::string got = fast(reader, line, facts);
      if (got == "declined") continue;
      EXPECT_EQ(got, reference(line)) << line;
      ++compared;
    }
    std::rotate(lines.begin(), lines.begin() + static_cast<long>(lines.size() / 3), lines.end());
  }
  EXPECT_GT(compared, lines.size());
}

}  // namespace
}  // namespace dlpack_usm::capsule
