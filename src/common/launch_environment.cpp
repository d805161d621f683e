#include "common/launch_environment.hpp"

extern char** environ;

namespace dlpack_usm {
namespace {

std::vector<std::string> copy_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  return entries;
}

// Initialised during static initialisation, before main() and so before any
// OpenCL call can change the live environment.
const std::vector<std::string> g_launch_environment = copy_environment();

}  // namespace

const std::vector<std::string>& launch_environment() {
  return g_launch_environment;
}

}  // namespace dlpack_usm
