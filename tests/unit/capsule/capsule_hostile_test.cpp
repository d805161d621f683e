// Hostile and broken capsule files: each gives Error(usage) whose message
// names the file, the tensor, the place (JSON pointer, and line for JSON
// lines or syntax errors) and what was expected; none crashes or hangs.
#include <gtest/gtest.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"

namespace dlpack_usm::capsule {
namespace {

// One line, so that line numbers in messages are easy to predict.
constexpr const char* kValidBody =
    R"("data": null, "device": {"device_type": 1, "device_id": 0}, "ndim": 1, )"
    R"("dtype": "float32", "shape": [4], "strides": [1])";

std::string with_body(const std::string& body, const std::string& extra = "") {
  return R"({"version": {"major": 1, "minor": 3}, "dl_tensor": {)" + body + "}" + extra + "}";
}

// Replaces `from` in the valid body by `to`.
std::string mutated(const std::string& from, const std::string& to) {
  std::string body = kValidBody;
  std::size_t at = body.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return with_body(body.replace(at, from.size(), to));
}

// The error the text gives; fails the test when it parses.
Error error_of(const std::string& text, const std::string& file = "bad.json") {
  try {
    parse_capsule_text(text, file);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
    EXPECT_FALSE(error.hint().empty());
    return error;
  }
  ADD_FAILURE() << "parsed without error: " << text.substr(0, 200);
  return Error(ExitCode::ok, "");
}

void expect_error(const std::string& text, std::initializer_list<std::string> parts) {
  Error error = error_of(text);
  std::string message = error.what();
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "missing \"" << part << "\" in: " << message;
  }
}

TEST(CapsuleHostile, WrongTypes) {
  expect_error(mutated("\"ndim\": 1", "\"ndim\": \"1\""),
               {"bad.json", "tensor #0", "/dl_tensor/ndim", "expected an integer", "string \"1\""});
  expect_error(mutated("\"shape\": [4]", "\"shape\": 4"), {"/dl_tensor/shape", "array of int64_t"});
  expect_error(mutated("\"shape\": [4]", "\"shape\": [true]"), {"/dl_tensor/shape/0"});
  expect_error(mutated("\"data\": null", "\"data\": true"), {"/dl_tensor/data", "an address"});
  expect_error(mutated("\"data\": null", "\"data\": \"0x\""), {"/dl_tensor/data"});
  expect_error(mutated("\"data\": null", "\"data\": \"0x12345678901234567\""), {"/dl_tensor/data"});
  expect_error(mutated("\"data\": null", "\"data\": \"4096\""), {"/dl_tensor/data"});
  expect_error(mutated("\"dtype\": \"float32\"", "\"dtype\": 2"), {"/dl_tensor/dtype"});
  expect_error(mutated("\"dtype\": \"float32\"", "\"dtype\": \"float\""), {"/dl_tensor/dtype"});
  expect_error(mutated("\"dtype\": \"float32\"", "\"dtype\": \"float32x0\""), {"/dl_tensor/dtype"});
  expect_error(mutated("\"device_type\": 1", "\"device_type\": \"sycl\""),
               {"/dl_tensor/device/device_type", "kDLOneAPI"});
  expect_error(with_body(kValidBody, R"(, "deleter": "yes")"), {"/deleter", "true or false"});
  expect_error(with_body(kValidBody, R"(, "runtime": {"usm_kind": "managed"})"),
               {"/runtime/usm_kind", "\"shared\""});
  expect_error(with_body(kValidBody, R"(, "runtime": [])"), {"/runtime", "object"});
  expect_error(with_body(kValidBody, R"(, "flags": "READ_ONLY|WRITABLE")"),
               {"/flags", "READ_ONLY"});
  expect_error(with_body(kValidBody, R"(, "flags": "READ_ONLY|")"), {"/flags"});
  expect_error(with_body(kValidBody, R"(, "flags": [1])"), {"/flags/0", "a string"});
  expect_error(with_body(kValidBody, R"(, "flags": "99999999999999999999")"), {"/flags"});
  expect_error(with_body(kValidBody, R"(, "origin": 7)"), {"/origin", "a string"});
  expect_error(R"({"version": {"major": "1", "minor": 3}, "dl_tensor": {}})", {"/version/major"});
  expect_error(R"({"version": [1, 3]})", {"/version", "object"});
}

TEST(CapsuleHostile, MissingRequiredFields) {
  expect_error(R"({"version": {"major": 1, "minor": 3}})",
               {"/dl_tensor", "lacks the required key"});
  expect_error(R"({"version": {"major": 1}, "dl_tensor": {}})", {"/version/minor", "required"});
  std::string body = kValidBody;
  for (const char* key : {"data", "device", "ndim", "dtype", "shape", "strides"}) {
    std::string broken =
        mutated(std::string("\"") + key + "\"", "\"comment_" + std::string(key) + "\"");
    Error error = error_of(broken);
    EXPECT_NE(std::string(error.what()).find("/dl_tensor/"), std::string::npos) << error.what();
  }
  expect_error(mutated("\"device_id\": 0", "\"devcie_id\": 0"),
               {"/dl_tensor/device/devcie_id", "unknown key", "did you mean \"device_id\""});
  expect_error(mutated("\"ndim\": 1, ", ""), {"/dl_tensor/ndim", "required"});
}

TEST(CapsuleHostile, UnknownKeysAreRefusedWithASuggestion) {
  expect_error(with_body(kValidBody, R"(, "flag": 1)"),
               {"/flag", "unknown key \"flag\"", "did you mean \"flags\""});
  expect_error(mutated("\"shape\"", "\"shapes\""), {"/dl_tensor/shapes", "did you mean \"shape\""});
  expect_error(with_body(kValidBody, R"(, "runtime": {"usm": "host"})"), {"/runtime/usm"});
}

TEST(CapsuleHostile, FlagsOnALegacyTensor) {
  expect_error(std::string(R"({"flags": 1, "dl_tensor": {)") + kValidBody + "}}",
               {"/flags", "legacy"});
}

TEST(CapsuleHostile, NumbersBeyond64BitsOrTheCFieldsRange) {
  expect_error(mutated("\"data\": null", "\"data\": 18446744073709551616"),
               {"/dl_tensor/data", "does not fit in 64 bits"});
  expect_error(mutated("\"data\": null", "\"data\": 1e3"), {"/dl_tensor/data", "not an integer"});
  expect_error(mutated("\"data\": null", "\"data\": 1.0"), {"not an integer"});
  expect_error(mutated("\"data\": null", "\"data\": -1"), {"/dl_tensor/data"});
  expect_error(mutated("\"shape\": [4]", "\"shape\": [-9223372036854775809]"),
               {"/dl_tensor/shape/0", "64 bits"});
  expect_error(mutated("\"shape\": [4]", "\"shape\": [9223372036854775808]"),
               {"/dl_tensor/shape/0", "int64_t"});
  expect_error(mutated("\"device_id\": 0", "\"device_id\": 2147483648"),
               {"/dl_tensor/device/device_id", "-2147483648 to 2147483647"});
  expect_error(mutated("\"device_type\": 1", "\"device_type\": -2147483649"),
               {"/dl_tensor/device/device_type"});
  expect_error(mutated("\"ndim\": 1", "\"ndim\": 2147483648"), {"/dl_tensor/ndim", "int32_t"});
  expect_error(
      mutated("\"dtype\": \"float32\"", R"("dtype": {"code": 2, "bits": 256, "lanes": 1})"),
      {"/dl_tensor/dtype/bits", "0 to 255"});
  expect_error(mutated("\"dtype\": \"float32\"", R"("dtype": {"code": -1, "bits": 8, "lanes": 1})"),
               {"/dl_tensor/dtype/code"});
  expect_error(
      mutated("\"dtype\": \"float32\"", R"("dtype": {"code": 2, "bits": 32, "lanes": 65536})"),
      {"/dl_tensor/dtype/lanes", "0 to 65535"});
  expect_error(with_body(kValidBody + std::string(R"(, "byte_offset": -1)")),
               {"/dl_tensor/byte_offset", "uint64_t"});
  expect_error(R"({"version": {"major": 4294967296, "minor": 0}})", {"/version/major", "uint32_t"});
  expect_error(with_body(kValidBody, R"(, "runtime": {"owner_root_index": 4294967296})"),
               {"/runtime/owner_root_index"});
  std::string huge(100000, '9');
  Error overflow = error_of(mutated("\"ndim\": 1", "\"ndim\": " + huge));
  std::string message = overflow.what();
  EXPECT_NE(message.find("/dl_tensor/ndim"), std::string::npos) << message.substr(0, 300);
  EXPECT_NE(message.find("overflow"), std::string::npos) << message.substr(0, 300);
  EXPECT_LT(message.size(), 500U) << "the message quotes the whole number";
}

TEST(CapsuleHostile, ShapeAndStridesMustMatchNdim) {
  expect_error(mutated("\"shape\": [4]", "\"shape\": [4, 1]"),
               {"/dl_tensor/shape", "2 entries but ndim is 1"});
  expect_error(mutated("\"strides\": [1]", "\"strides\": []"),
               {"/dl_tensor/strides", "0 entries but ndim is 1"});
  expect_error(mutated("\"ndim\": 1", "\"ndim\": -1"), {"/dl_tensor/shape", "must be null"});
  expect_error(mutated("\"ndim\": 1", "\"ndim\": 5000"), {"/dl_tensor/shape", "must be null"});
}

TEST(CapsuleHostile, AMillionDimensionsStopAtTheLimit) {
  std::string shape = "[1";
  for (int i = 1; i < 1000000; ++i) shape += ",1";
  shape += "]";
  expect_error(mutated("\"shape\": [4]", "\"shape\": " + shape),
               {"/dl_tensor/shape", "more than 1024 entries"});
}

TEST(CapsuleHostile, DeepNestingIsRefused) {
  std::string deep(100000, '[');
  expect_error(deep, {"nests deeper than 64 levels"});
  std::string in_comment =
      with_body(kValidBody, R"(, "comment": )" + std::string(70, '[') + std::string(70, ']'));
  expect_error(in_comment, {"/comment", "nests deeper"});
  std::string objects;
  for (int i = 0; i < 100; ++i) objects += "{\"a\":";
  expect_error(objects, {"nests deeper"});
}

TEST(CapsuleHostile, InvalidUtf8IsRefusedAndNotEchoedRaw) {
  Error error = error_of(with_body(kValidBody, ", \"comment\": \"caf\xC3\x28\""));
  std::string message = error.what();
  EXPECT_NE(message.find("UTF-8"), std::string::npos) << message;
  EXPECT_NE(message.find("/comment"), std::string::npos) << message;
  EXPECT_NE(message.find("bad.json:1:"), std::string::npos) << message;
  // The offending byte is shown escaped, never raw.
  EXPECT_EQ(message.find('\xC3'), std::string::npos);
  EXPECT_NE(message.find("\\xC3"), std::string::npos) << message;

  expect_error(with_body(kValidBody, ", \"comment\": \"\xED\xA0\x80\""), {"UTF-8"});  // surrogate
  expect_error(with_body(kValidBody, ", \"comment\": \"\xC0\xAF\""), {"UTF-8"});      // overlong
  expect_error(std::string("\xFF\xFE{}"), {"bad.json:1:1"});
}

TEST(CapsuleHostile, SyntaxErrorsGiveLineAndColumn) {
  expect_error("{\n  \"version\": {\"major\": 1, \"minor\": 3},\n  \"dl_tensor\": tru\n}",
               {"bad.json:3:", "/dl_tensor", "invalid literal"});
  expect_error(with_body(kValidBody) + " trailing", {"bad.json:1:", "expected end of input"});
  expect_error("{\"a\": 1 // comment\n}", {"bad.json:1:"});
  expect_error(std::string("{\"a\":\0}", 7), {"bad.json:1:"});
}

TEST(CapsuleHostile, DuplicateKeysAreRefused) {
  expect_error(mutated("\"ndim\": 1", "\"ndim\": 1, \"ndim\": 2"),
               {"/dl_tensor/ndim", "appears twice"});
}

TEST(CapsuleHostile, EmptyAndNonTensorDocuments) {
  expect_error("", {"bad.json", "empty"});
  expect_error(" \n\t\r\n", {"empty"});
  expect_error("[]", {"holds no tensor"});
  expect_error("42", {"tensor #0", "expected the tensor as an object"});
  expect_error("null", {"object"});
  expect_error("[1]", {"tensor #0", "/0", "object"});
  expect_error("[[1]]", {"tensor #0", "/0", "object"});
}

TEST(CapsuleHostile, ArrayEntriesNameTheirIndex) {
  std::string good = with_body(kValidBody);
  expect_error("[" + good + ", " + good + ", " + mutated("\"ndim\": 1", "\"ndim\": null") + "]",
               {"tensor #2", "/2/dl_tensor/ndim"});
  expect_error("[" + good + ",\n" + good + ",\n{\"version\": tru}]",
               {"bad.json:3:", "tensor #2", "/2/version"});
}

TEST(CapsuleHostile, JsonLinesNameTheLine) {
  std::string good = with_body(kValidBody);
  std::erase(good, '\n');
  std::string bad = mutated("\"ndim\": 1", "\"ndim\": []");
  std::erase(bad, '\n');
  expect_error(good + "\n\n" + good + "\n" + bad + "\n",
               {"bad.json:4:", "tensor #2", "/dl_tensor/ndim"});
  expect_error(good + "\n" + "[" + good + "]\n", {"bad.json:2", "tensor #1", "one tensor object"});
  expect_error(good + "\n" + "{\"version\": \n", {"bad.json:2:", "tensor #1"});
}

TEST(CapsuleHostile, ObjectsWithVeryManyMembersAreRefused) {
  std::string many = "{";
  for (int i = 0; i < 100000; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  many += "}";
  expect_error(many, {"more than 64 members"});
}

TEST(CapsuleHostile, OversizedTextIsRefusedBeforeParsing) {
  std::string huge(kMaxCapsuleFileBytes + 1, ' ');
  expect_error(huge, {"more than a capsule file may hold"});
}

TEST(CapsuleHostile, ControlCharactersInKeysAreEscapedInMessages) {
  Error error = error_of(with_body(kValidBody, ", \"evil\\u001b[31m\": 1"));
  std::string message = error.what();
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  EXPECT_NE(message.find("\\x1B"), std::string::npos) << message;
}

}  // namespace
}  // namespace dlpack_usm::capsule
