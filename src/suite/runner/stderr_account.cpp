#include "suite/runner/stderr_account.hpp"

#include <array>
#include <string_view>

namespace dlpack_usm::suite {
namespace {

constexpr std::size_t kTailBytes = 2000;

// The first words of lines a runtime prints on its own: LLVM's crash handler
// inside Intel's SYCL and OpenCL CPU runtimes (on SIGABRT and SIGSEGV of any
// code in the process) and the Unified Runtime's adapters.
constexpr std::array<std::string_view, 4> kRuntimeLines{
    "PLEASE submit a bug report to", "include the crash backtrace",
    "Stack dump:", "UR adapter initialization failed"};

bool is_runtime_line(std::string_view line) {
  for (std::string_view start : kRuntimeLines) {
    if (line.substr(0, start.size()) == start) return true;
  }
  return false;
}

std::string tail_of(std::string_view text) {
  std::string tail = text.size() > kTailBytes
                         ? "..." + std::string(text.substr(text.size() - kTailBytes))
                         : std::string(text);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return tail;
}

void add_line(std::string& to, std::string_view line) {
  if (!to.empty()) to += '\n';
  to += line;
}

}  // namespace

std::string stderr_account(const std::string& err) {
  std::string library;
  std::string runtime;
  std::string_view rest = err;
  while (!rest.empty()) {
    std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    if (!line.empty()) add_line(is_runtime_line(line) ? runtime : library, line);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  std::string account;
  if (!library.empty()) account += "; its stderr ended with: " + tail_of(library);
  if (!runtime.empty()) account += "; the runtime printed: " + tail_of(runtime);
  return account;
}

}  // namespace dlpack_usm::suite
