#include "cli/check_progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>

#include "cli/console.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "common/terminal_width.hpp"
#include "common/text_width.hpp"

namespace dlpack_usm::cli {
namespace {

constexpr const char* kIntervalVariable = "DLPACK_USM_STATUS_INTERVAL_S";
constexpr double kMaxIntervalSeconds = 86400;

}  // namespace

std::chrono::milliseconds status_interval_from_environment() {
  const char* text = std::getenv(kIntervalVariable);
  if (text == nullptr || *text == '\0') return kDefaultStatusInterval;
  double seconds = -1;
  try {
    std::size_t used = 0;
    seconds = std::stod(text, &used);
    if (text[used] != '\0') seconds = -1;
  } catch (const std::exception&) {
    seconds = -1;
  }
  if (!std::isfinite(seconds) || seconds < 0 || seconds > kMaxIntervalSeconds) {
    fail_usage(fmt::format("{}={} is not a number of seconds from 0 to {}", kIntervalVariable,
                           quote_for_message(text), kMaxIntervalSeconds),
               "set it to the seconds between status lines (e.g. 30; 0 for none), or unset it");
  }
  return std::chrono::milliseconds(std::llround(seconds * 1000));
}

CheckProgress::CheckProgress()
    : terminal_(isatty(STDERR_FILENO) != 0),
      columns_(terminal_width(STDERR_FILENO, kDefaultColumns)),
      schedule_(status_interval_from_environment()) {}

suite::CheckCallbacks CheckProgress::callbacks() {
  suite::CheckCallbacks callbacks;
  callbacks.on_start = [this](const suite::CaseSpec& spec, std::size_t started, std::size_t total) {
    this->started(spec, started, total);
  };
  callbacks.on_tick = [this](const suite::RunStatus& status) { tick(status); };
  callbacks.on_limit = [this](const std::string& reason) { limit_reached(reason); };
  return callbacks;
}

// The last column stays empty: a terminal that wraps at its last column
// would move the line down all the same.
void CheckProgress::started(const suite::CaseSpec& spec, std::size_t started, std::size_t total) {
  if (!terminal_) return;
  std::string line = fmt::format("[{}/{}] {}", started, total, printable(spec.id));
  write_diagnostic(
      fmt::format("\r\033[K{}", cut_to_columns(line, columns_ > 1 ? columns_ - 1 : 1, "")));
}

void CheckProgress::tick(const suite::RunStatus& status) {
  if (terminal_ || !schedule_.due(status.elapsed)) return;
  write_diagnostic(fmt::format("{}\n", suite::status_line(status)));
}

void CheckProgress::limit_reached(const std::string& reason) {
  finish();
  print_note(fmt::format("{}; the cases still to come are reported not_run", reason));
}

void CheckProgress::finish() {
  if (terminal_) write_diagnostic("\r\033[K");
}

}  // namespace dlpack_usm::cli
