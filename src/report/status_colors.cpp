#include "report/status_colors.hpp"

#include <array>
#include <regex>

namespace dlpack_usm::report {
namespace {

enum class Tone { none, bad, warn, good };

constexpr std::string_view kReset = "\033[0m";

std::string_view sgr(Tone tone) {
  switch (tone) {
    case Tone::bad:
      return "\033[31m";
    case Tone::warn:
      return "\033[33m";
    case Tone::good:
      return "\033[32m";
    case Tone::none:
      break;
  }
  return {};
}

// The words of the tool's text that carry a status.
Tone tone_of_word(std::string_view word) {
  static constexpr std::array<std::string_view, 12> kBad{
      "FAIL",  "FAILED", "fail",    "failed",     "error",           "errors",
      "ERROR", "crash",  "timeout", "regression", "unexpected_pass", "CRASH"};
  static constexpr std::array<std::string_view, 6> kWarn{"warning", "warnings", "WARN",
                                                         "warn",    "flaky",    "WARNING"};
  static constexpr std::array<std::string_view, 5> kGood{"PASS", "PASSED", "pass", "passed", "ok"};
  for (std::string_view bad : kBad) {
    if (word == bad) return Tone::bad;
  }
  for (std::string_view warn : kWarn) {
    if (word == warn) return Tone::warn;
  }
  for (std::string_view good : kGood) {
    if (word == good) return Tone::good;
  }
  return Tone::none;
}

std::string painted(std::string_view text, Tone tone) {
  if (tone == Tone::none) return std::string(text);
  return std::string(sgr(tone)).append(text).append(kReset);
}

// Counts above zero of what fails or warns: "2 errors", "1 warning",
// "3 regression", "1 unexpected pass".
std::string paint_counts(const std::string& line) {
  static const std::regex kCounts(
      R"(\b([1-9][0-9]*) (errors?|regressions?|unexpected pass(es)?|warnings?|flaky)\b)");
  std::string out;
  std::size_t done = 0;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kCounts);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& match = *it;
    std::size_t at = static_cast<std::size_t>(match.position(0));
    out.append(line, done, at - done);
    Tone tone =
        match.str(2).starts_with("warning") || match.str(2) == "flaky" ? Tone::warn : Tone::bad;
    out += painted(match.str(0), tone);
    done = at + static_cast<std::size_t>(match.length(0));
  }
  out.append(line, done);
  return out;
}

std::string paint_line(std::string_view line) {
  std::size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) return std::string(line);
  std::string_view rest = line.substr(start);
  std::string head(line.substr(0, start));
  if (rest.starts_with("gate: ")) {
    std::size_t end = rest.find_first_of(" (", 6);
    std::string_view word = rest.substr(6, end == std::string_view::npos ? end : end - 6);
    return head + "gate: " + painted(word, tone_of_word(word)) +
           std::string(rest.substr(6 + word.size()));
  }
  std::size_t end = rest.find_first_of(" :");
  std::string_view word = rest.substr(0, end);
  Tone tone = tone_of_word(word);
  if (tone != Tone::none) {
    return head + painted(word, tone) + paint_counts(std::string(rest.substr(word.size())));
  }
  return head + paint_counts(std::string(rest));
}

}  // namespace

std::string color_status_words(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    out += paint_line(line);
    if (newline == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(newline + 1);
  }
  return out;
}

}  // namespace dlpack_usm::report
