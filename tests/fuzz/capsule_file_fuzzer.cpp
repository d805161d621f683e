// libFuzzer target: parse_capsule_text on arbitrary bytes. A clean
// Error(usage) is the only acceptable failure; any other exception, crash,
// sanitizer report, hang or a tensor that does not survive the round trip
// is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlpack_usm;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<facts::TensorFacts> tensors;
  try {
    tensors = capsule::parse_capsule_text(text, "fuzz.json");
  } catch (const Error& error) {
    if (error.code() != ExitCode::usage) fuzz::broken("not a usage error", error.what());
    if (std::string_view(error.what()).find("fuzz.json") == std::string_view::npos) {
      fuzz::broken("error does not name the file", error.what());
    }
    return 0;
  }
  for (const facts::TensorFacts& tensor : tensors) fuzz::check_tensor(tensor);
  return 0;
}
