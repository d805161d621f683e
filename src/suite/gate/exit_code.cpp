#include "suite/gate/exit_code.hpp"

namespace dlpack_usm::suite {

ExitCode decide_exit_code(const CheckRun& run) {
  return run.gate_passed() ? ExitCode::ok : ExitCode::findings;
}

}  // namespace dlpack_usm::suite
