// The members of one JSON object of an untrusted input (a check report for
// `report merge`, any profile report for `report matrix`, a worker's line),
// read by type: a member that is missing or of another type is a usage error
// (exit 2) naming the command, the file and the JSON pointer of the place —
// never a crash, never a json type_error (exit 4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm {

// Which command reads which file, and what to tell the user when it is wrong.
struct JsonInput {
  std::string command;  // "report merge"
  std::string file;
  std::string hint;
};

// Throws Error(usage): "<command>: <file>: <what>", then the hint.
[[noreturn]] void fail_input(const JsonInput& input, const std::string& what);

// "null", "an object", "a string", ... for messages.
const char* json_type_name(const nlohmann::json& value);

class JsonFields {
 public:
  JsonFields(const JsonInput& input, const nlohmann::json& object, std::string pointer)
      : input_(input), object_(object), pointer_(std::move(pointer)) {}

  const nlohmann::json& value(const char* key, bool (nlohmann::json::*is_type)() const noexcept,
                              const char* expected) const;
  std::string text(const char* key) const;
  // A string, or "" for null.
  std::string text_or_null(const char* key) const;
  // A string, or "" where the member is missing or null.
  std::string optional_text(const char* key) const;
  bool flag(const char* key) const;
  double milliseconds(const char* key) const;
  std::int64_t integer(const char* key, std::int64_t low, std::int64_t high) const;
  JsonFields object(const char* key) const;
  const nlohmann::json& array(const char* key) const;
  // The objects of an array member, each with its pointer.
  std::vector<JsonFields> objects(const char* key) const;
  std::vector<std::string> texts(const char* key) const;
  bool has(const char* key) const { return object_.contains(key); }
  std::string where(const char* key) const;
  const JsonInput& input() const { return input_; }
  const std::string& file() const { return input_.file; }
  const nlohmann::json& raw() const { return object_; }

 private:
  [[noreturn]] void wrong(const char* key, const nlohmann::json& found, const char* expected) const;

  const JsonInput& input_;
  const nlohmann::json& object_;
  std::string pointer_;
};

}  // namespace dlpack_usm
