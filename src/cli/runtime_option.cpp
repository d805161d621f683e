#include "cli/runtime_option.hpp"

#include <fmt/format.h>

#include "cli/console.hpp"
#include "common/error.hpp"
#include "common/suggest.hpp"

namespace dlpack_usm::cli {

void add_runtime_option(CLI::App* command, std::string* choice) {
  command
      ->add_option("--runtime", *choice,
                   "Device runtime: sycl (SYCL through dpctl's C interface: SYCL's device ids and "
                   "default contexts), opencl (the OpenCL ICD loader), or auto (sycl where dpctl "
                   "loads, else opencl; the default)")
      ->type_name("RUNTIME");
}

runtime::Runtime& start_runtime(const std::string& choice, runtime::LibrariesUnderTest libraries,
                                bool quiet) {
  auto parsed = runtime::parse_runtime_choice(choice);
  if (!parsed) {
    fail_usage(fmt::format("--runtime '{}' is not sycl, opencl or auto{}", choice,
                           did_you_mean(choice, {"sycl", "opencl", "auto"})));
  }
  runtime::SelectedRuntime selected = runtime::select_runtime({*parsed, libraries});
  if (!quiet && !selected.note.empty()) print_note(selected.note);
  return *selected.runtime;
}

}  // namespace dlpack_usm::cli
