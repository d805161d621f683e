#include "suite/cases/python/python_target.hpp"

#include <fmt/format.h>

#include "common/sha256.hpp"

namespace dlpack_usm::suite {
namespace {

// Longer texts are cut (and told apart by their digest): an id is for
// reading in a log line, a baseline and a --filter glob.
constexpr std::size_t kLabelLength = 48;

// Characters a glob (check --filter), a shell word or a path reads as
// syntax are replaced: a baseline line and a --filter must match the id as
// it is written.
bool plain_in_label(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("._-+=,():").find(c) != std::string_view::npos;
}

}  // namespace

const char* to_string(PythonRole role) {
  switch (role) {
    case PythonRole::producer:
      return "producer";
    case PythonRole::consumer:
      return "consumer";
    case PythonRole::library:
      return "library";
    case PythonRole::handoff:
      return "handoff";
  }
  return "library";
}

std::string PythonTarget::label() const {
  // A handoff's label names both sides: "dpnp..torch".
  std::string whole = role == PythonRole::handoff ? fmt::format("{}..{}", text, consumer) : text;
  std::string plain;
  bool replaced = false;
  for (char c : whole) {
    replaced = replaced || !plain_in_label(c);
    plain += plain_in_label(c) ? c : '_';
  }
  if (plain.size() > kLabelLength) {
    plain.resize(kLabelLength);
    replaced = true;
  }
  if (!replaced && !plain.empty()) return plain;
  return fmt::format("{}~{}", plain, sha256_hex(whole).substr(0, 8));
}

std::string PythonTarget::worker_key() const {
  // A handoff's worker holds both libraries: one pair a worker.
  return fmt::format("python:{}:{}:{}{}", setup.interpreter, to_string(role), text,
                     role == PythonRole::handoff ? "\n" + consumer : "");
}

nlohmann::json PythonTarget::to_json() const {
  return {{"role", to_string(role)},
          {"text", text},
          {"max_version", max_version},
          {"consumer_probe", consumer_probe},
          {"stream_attempts", stream_attempts},
          {"library_devices", library_devices},
          {"consumer", consumer}};
}

std::vector<std::string> PythonTarget::arguments() const {
  if (role == PythonRole::handoff) {
    std::vector<std::string> words{"--python-handoff", text, consumer, "--python",
                                   setup.interpreter};
    for (const std::string& device : library_devices) {
      words.insert(words.end(), {"--library-device", device});
    }
    return words;
  }
  const char* option = role == PythonRole::producer   ? "--python-producer"
                       : role == PythonRole::consumer ? "--python-consumer"
                                                      : "--python-library";
  std::vector<std::string> words{option, text, "--python", setup.interpreter};
  if (role == PythonRole::producer && max_version != "1.3") {
    words.insert(words.end(), {"--max-version", max_version});
  }
  if (role == PythonRole::producer && !consumer_probe) words.emplace_back("--no-consumer-probe");
  for (const std::string& device : library_devices) {
    words.insert(words.end(), {"--library-device", device});
  }
  return words;
}

}  // namespace dlpack_usm::suite
