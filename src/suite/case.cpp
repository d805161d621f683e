#include "suite/case.hpp"

#include <array>
#include <utility>

namespace dlpack_usm::suite {
namespace {

constexpr std::array<std::pair<Outcome, const char*>, 8> kOutcomeNames{{
    {Outcome::pass, "pass"},
    {Outcome::fail, "fail"},
    {Outcome::not_supported, "not_supported"},
    {Outcome::skipped, "skipped"},
    {Outcome::error, "error"},
    {Outcome::crash, "crash"},
    {Outcome::timeout, "timeout"},
    {Outcome::not_run, "not_run"},
}};

}  // namespace

const char* to_string(Outcome outcome) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (value == outcome) return name;
  }
  return "error";
}

std::optional<Outcome> parse_outcome(std::string_view text) {
  for (const auto& [value, name] : kOutcomeNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::ok:
      return "ok";
    case Verdict::expected_failure:
      return "expected_failure";
    case Verdict::flaky:
      return "flaky";
    case Verdict::unexpected_pass:
      return "unexpected_pass";
    case Verdict::regression:
      return "regression";
  }
  return "regression";
}

bool is_failing(Outcome outcome) {
  return outcome == Outcome::fail || outcome == Outcome::error || outcome == Outcome::crash ||
         outcome == Outcome::timeout;
}

}  // namespace dlpack_usm::suite
