#include "suite/cases/python/python_worker.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "build_info.hpp"
#include "common/error.hpp"
#include "common/launch_environment.hpp"
#include "suite/runner/worker_containment.hpp"

namespace dlpack_usm::suite {
namespace {

namespace fs = std::filesystem;

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

bool is_package_dir(const fs::path& dir) {
  std::error_code error;
  return fs::is_regular_file(dir / "dlpack_usm" / "__init__.py", error);
}

// A build tree keeps the package in python/ beside the binary; an install
// in share/dlpack-usm/python above its bin/.
std::string package_beside_binary() {
  std::error_code error;
  fs::path binary = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  for (const fs::path& candidate :
       {binary.parent_path() / "python",
        binary.parent_path().parent_path() / "share" / "dlpack-usm" / "python"}) {
    if (is_package_dir(candidate)) return candidate.lexically_normal().string();
  }
  return {};
}

std::string default_interpreter() {
  std::string prefix = environment_value("DLPACK_USM_TOOLS_PREFIX");
  fs::path tools = fs::path(prefix.empty() ? kDefaultToolsPrefix : prefix) / "bin" / "python";
  return access(tools.c_str(), X_OK) == 0 ? tools.string() : "python3";
}

// The worker's environment: the launch environment with the package first
// on PYTHONPATH, unbuffered output (a crash keeps what was printed), and
// no bytecode written into the package's folder. jax takes 75% of a GPU's
// memory when it starts unless told not to: with a worker and a contained
// probe of jax alive at once, the second died of CUDA_ERROR_OUT_OF_MEMORY
// at its start and every step was charged to jax (H200, 1 run in 5). The
// user's own XLA_PYTHON_CLIENT_PREALLOCATE is kept.
std::vector<std::string> worker_environment(const PythonSetup& setup) {
  std::vector<std::string> environment;
  std::string python_path;
  bool preallocation_set = false;
  for (const std::string& entry : launch_environment()) {
    if (entry.starts_with("PYTHONPATH=")) {
      python_path = entry.substr(11);
    } else if (!entry.starts_with("PYTHONUNBUFFERED=") &&
               !entry.starts_with("PYTHONDONTWRITEBYTECODE=") &&
               !entry.starts_with(std::string(kWorkerGuardVariable) + "=")) {
      preallocation_set |= entry.starts_with("XLA_PYTHON_CLIENT_PREALLOCATE=");
      environment.push_back(entry);
    }
  }
  if (!preallocation_set) environment.push_back("XLA_PYTHON_CLIENT_PREALLOCATE=false");
  if (!setup.package_dir.empty()) {
    python_path = python_path.empty() ? setup.package_dir : setup.package_dir + ":" + python_path;
  }
  if (!python_path.empty()) environment.push_back("PYTHONPATH=" + python_path);
  // This worker's guard, where the containment made one (not the launch's).
  if (std::string guard = environment_value(kWorkerGuardVariable); !guard.empty()) {
    environment.push_back(std::string(kWorkerGuardVariable) + "=" + guard);
  }
  environment.push_back("PYTHONUNBUFFERED=1");
  environment.push_back("PYTHONDONTWRITEBYTECODE=1");
  return environment;
}

}  // namespace

PythonSetup find_python_setup(const std::string& interpreter) {
  PythonSetup setup;
  setup.interpreter = interpreter.empty() ? default_interpreter() : interpreter;
  setup.package_dir = environment_value("DLPACK_USM_PYTHON_PACKAGE");
  if (setup.package_dir.empty()) setup.package_dir = package_beside_binary();
  return setup;
}

std::vector<std::string> python_worker_argv(const std::string& self, const PythonSetup& setup,
                                            const std::string& suite_dir, long runner_pid) {
  std::vector<std::string> argv{
      self,       "worker",          "--suite",      suite_dir,
      "--python", setup.interpreter, "--runner-pid", std::to_string(runner_pid)};
  if (!setup.package_dir.empty()) {
    argv.push_back("--python-package");
    argv.push_back(setup.package_dir);
  }
  return argv;
}

void refuse_run_outside_python(const CaseSpec& spec) {
  throw Error(ExitCode::internal,
              fmt::format("case {} runs in a Python worker, not in the tool's own", spec.id));
}

CaseSpec python_case_spec(const PythonTarget& target, std::string id, std::string source) {
  CaseSpec spec;
  spec.id = std::move(id);
  spec.source = std::move(source);
  spec.worker = target.worker_key();
  spec.library_arguments = target.arguments();
  spec.library = target.text;
  return spec;
}

namespace {

// What the worker is told of one case.
nlohmann::json case_input(const CaseSpec& spec) {
  nlohmann::json entry;
  if (const NotSupportedCase* blocked = spec.not_supported()) {
    entry = {
        {"kind", "not_supported"}, {"reason", blocked->reason}, {"rule_ids", blocked->rule_ids}};
  } else {
    entry = spec.details_as<PythonCase>().details;
  }
  entry["id"] = spec.id;
  return entry;
}

std::string input_text(const char* task, const PythonTarget& target, nlohmann::json cases) {
  return nlohmann::json{{"task", task}, {"target", target.to_json()}, {"cases", std::move(cases)}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string python_batch_input(const PythonTarget& target,
                               const std::vector<const CaseSpec*>& batch) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseSpec* spec : batch) cases.push_back(case_input(*spec));
  return input_text("run", target, std::move(cases));
}

std::string describe_input(const PythonTarget& target) {
  return input_text("describe", target, nlohmann::json::array());
}

void exec_python_worker(const PythonSetup& setup) {
  std::vector<std::string> argv{setup.interpreter, "-m", "dlpack_usm._worker"};
  std::vector<char*> pointers;
  for (std::string& word : argv) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  std::vector<std::string> environment = worker_environment(setup);
  std::vector<char*> environment_pointers;
  for (std::string& entry : environment) environment_pointers.push_back(entry.data());
  environment_pointers.push_back(nullptr);
  execvpe(pointers[0], pointers.data(), environment_pointers.data());
}

}  // namespace dlpack_usm::suite
