// --runtime sycl|opencl|auto, shared by every command that touches devices.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "runtime/selection.hpp"

namespace dlpack_usm::cli {

// Adds --runtime to `command`, storing the text in `*choice` (default auto).
void add_runtime_option(CLI::App* command, std::string* choice);

// Selects the runtime the option names for a command whose libraries under
// test take `libraries` (runtime/selection.hpp decides) and prints auto's
// one-line note on stderr (`quiet` leaves it out, for the child processes
// of check).
runtime::Runtime& start_runtime(
    const std::string& choice,
    runtime::LibrariesUnderTest libraries = runtime::LibrariesUnderTest::none, bool quiet = false);

}  // namespace dlpack_usm::cli
