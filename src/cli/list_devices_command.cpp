// dlpack-usm list-devices: every platform, root device and sub-device the
// chosen runtime (SYCL or OpenCL) sees, with USM capabilities and the
// kDLOneAPI device_id each gets; then the CUDA devices with their kDLCUDA
// ids, where a CUDA driver is installed. Text is a row per root device
// (--verbose: every detail), fitted to the terminal's width.
#include <unistd.h>

#include <memory>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "cli/runtime_option.hpp"
#include "common/error.hpp"
#include "common/terminal_width.hpp"
#include "report/cuda_inventory_report.hpp"
#include "report/inventory_report.hpp"
#include "runtime/owner_probe.hpp"
#include "runtime/selection.hpp"

namespace dlpack_usm::cli {

void add_list_devices_command(CLI::App& app, Invocation& invocation) {
  auto* command = app.add_subcommand(
      "list-devices",
      "List each root device's kDLOneAPI device id, USM kinds and sub-devices, as SYCL or OpenCL "
      "sees them, and CUDA devices with their kDLCUDA ids");
  auto json = std::make_shared<bool>(false);
  auto verbose = std::make_shared<bool>(false);
  auto runtime_choice = std::make_shared<std::string>("auto");
  command->add_flag("--json", *json, "Print one JSON document instead of a table");
  command->add_flag("-v,--verbose", *verbose,
                    "Show every sub-device, driver, compute unit count and USM access bit");
  add_runtime_option(command, runtime_choice.get());
  command->callback([&invocation, json, verbose, runtime_choice] {
    // CUDA devices are listed whatever --runtime says, and never change the
    // exit code: a machine without CUDA is no broken USM machine. Its
    // driver's probe (a child process) starts first, while this process is
    // small and has one thread, and runs while the runtime loads its drivers.
    runtime::cuda::PendingCudaInventory pending_cuda;
    runtime::Runtime& runtime = start_runtime(*runtime_choice);
    // A runtime that names the wrong owner of an allocation is named here,
    // where its answer can change a device_id (check asks every device).
    std::vector<runtime::OwnerAnswerCheck> owner_answers =
        runtime::owner_answer_checks_where_ids_can_differ(runtime);
    // The summary shows each root device's sub-devices as a range, which
    // needs them counted, not made; --verbose and --json show each one.
    bool summary = !*json && !*verbose;
    const runtime::Inventory& inventory = summary ? runtime.root_inventory() : runtime.inventory();
    if (inventory.selector) {
      print_warning(
          fmt::format("output filtered by ONEAPI_DEVICE_SELECTOR={}", *inventory.selector));
    }
    for (const std::string& warning : inventory.warnings) print_warning(warning);
    for (const std::string& problem : inventory.problems) print_error(problem);
    runtime::cuda::CudaInventory cuda = pending_cuda.finish();
    report::InventoryDetail detail =
        *verbose ? report::InventoryDetail::verbose : report::InventoryDetail::summary;
    print_report(
        *json,
        [&inventory, &owner_answers, &cuda, detail](report::Printer& printer) {
          report::print_inventory(printer, inventory, owner_answers, detail);
          report::print_cuda_inventory(printer, cuda, detail);
        },
        terminal_width(STDOUT_FILENO, 0));
    invocation.exit_code = static_cast<int>(report::decide_exit_code(inventory));
    // Nothing was allocated or built: what the runtimes' destructors would
    // undo at exit (their static objects, worker threads, loaded compilers)
    // is only the process's own memory, and costs 2 to 3 ms on the CI machine.
    invocation.skip_runtime_teardown = true;
  });
}

}  // namespace dlpack_usm::cli
