#include "suite/cases/python/python_snippet.hpp"

#include <fmt/format.h>

#include "common/shell_quote.hpp"

namespace dlpack_usm::suite {

std::string python_literal(const std::string& text) {
  std::string literal = "'";
  for (unsigned char c : text) {
    if (c == '\\' || c == '\'') {
      literal += '\\';
      literal += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      literal += static_cast<char>(c);
    } else {
      literal += fmt::format("\\x{:02x}", c);
    }
  }
  return literal + "'";
}

namespace {

// The consumer EXPR: a library's profile calls its namespace's from_dlpack.
std::string consumer_expression(const PythonTarget& target) {
  return target.role == PythonRole::library ? target.text + ".from_dlpack" : target.text;
}

// The interpreter the workers ran, and the package beside the tool where
// the interpreter does not find it itself.
std::string interpreter_command(const PythonTarget& target) {
  std::string command;
  if (!target.setup.package_dir.empty()) {
    // Before the caller's own path, as the workers had it.
    command = "PYTHONPATH=" + shell_word(target.setup.package_dir) + "${PYTHONPATH:+:$PYTHONPATH} ";
  }
  return command + shell_word(target.setup.interpreter) + " -X faulthandler -";
}

}  // namespace

std::string consumer_snippet(const PythonTarget& target, const std::string& cell,
                             const std::string& memory, std::int32_t device_id) {
  return fmt::format(
      "{} <<'EOF'\n"
      "from dlpack_usm.repro import consumer, offered\n"
      "consumer({})(offered({}, {}, {}))\n"
      "EOF",
      interpreter_command(target), python_literal(consumer_expression(target)),
      python_literal(cell), python_literal(memory), device_id);
}

std::string handoff_snippet(const PythonTarget& target, const std::string& remedy,
                            const std::string& cell, int device_index) {
  std::string where =
      cell.empty() ? std::string()
                   : fmt::format(", cell={}, device_index={}", python_literal(cell), device_index);
  return fmt::format(
      "{} <<'EOF'\n"
      "from dlpack_usm.repro import handoff\n"
      "handoff({}, {}, {}{})\n"
      "EOF",
      interpreter_command(target), python_literal(target.text), python_literal(target.consumer),
      python_literal(remedy), where);
}

std::string producer_snippet(const PythonTarget& target, const std::string& step) {
  return fmt::format(
      "{} <<'EOF'\n"
      "from dlpack_usm.repro import producer_step\n"
      "print(producer_step({}, {}, max_version={}))\n"
      "EOF",
      interpreter_command(target), python_literal(target.text), python_literal(step),
      python_literal(target.max_version));
}

}  // namespace dlpack_usm::suite
