// How fast the conformance engine and the default `check` are: vector checks
// per second (capsule parse + rule evaluation, in process) and the wall time
// of the default suite as a user runs it (isolated children included).
// Prints JSON. Not a test: timings do not make tests.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "rules/rule.hpp"
#include "suite/cases/vectors/vector_cases.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct VectorText {
  std::string name;
  std::string text;
};

std::vector<VectorText> load_vectors(const std::filesystem::path& suite) {
  std::ifstream manifest_file(suite / "manifest.json");
  nlohmann::json manifest = nlohmann::json::parse(manifest_file);
  std::vector<VectorText> vectors;
  for (const auto& entry : manifest["vectors"]) {
    std::string file = entry["file"];
    std::ifstream in(suite / file);
    std::stringstream text;
    text << in.rdbuf();
    vectors.push_back({file, text.str()});
  }
  return vectors;
}

// Vector checks (parse + evaluate every tensor of one capsule file) per second.
nlohmann::json measure_vector_checks(const std::vector<VectorText>& vectors, double seconds) {
  std::size_t checks = 0;
  std::size_t findings = 0;
  auto start = Clock::now();
  auto deadline = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < deadline) {
    for (const VectorText& vector : vectors) {
      for (const auto& tensor : dlpack_usm::capsule::parse_capsule_text(vector.text, vector.name)) {
        findings += dlpack_usm::rules::evaluate(tensor).size();
      }
      ++checks;
    }
  }
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return {{"vectors", vectors.size()},
          {"checks", checks},
          {"findings", findings},
          {"seconds", elapsed},
          {"vector_checks_per_second", static_cast<double>(checks) / elapsed}};
}

// The default suite through the real binary: `dlpack-usm check --report`.
nlohmann::json measure_default_check(const std::string& tool, const std::string& filter,
                                     const std::string& extra = {}) {
  std::filesystem::path report =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-bench-{}.json", getpid());
  std::string command =
      fmt::format("'{}' check --report '{}' {} {} > /dev/null 2>&1", tool, report.string(),
                  filter.empty() ? "" : "--filter '" + filter + "'", extra);
  auto start = Clock::now();
  int status = std::system(command.c_str());
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  nlohmann::json result = {
      {"command", command}, {"exit_status", status}, {"wall_seconds", elapsed}};
  std::ifstream in(report);
  if (in) {
    nlohmann::json parsed = nlohmann::json::parse(in, nullptr, false);
    if (parsed.is_object()) {
      result["cases"] = parsed["summary"]["total"];
      result["gate"] = parsed["summary"]["gate"];
      result["cases_per_second"] = parsed["summary"]["total"].get<double>() / elapsed;
    }
  }
  std::filesystem::remove(report);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  // --quick: only the in-process engine figure and the vectors of the suite.
  bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  std::filesystem::path suite = dlpack_usm::suite::default_conformance_dir();
  std::vector<VectorText> vectors = load_vectors(suite);
  nlohmann::json out;
  out["suite"] = suite.string();
  out["engine"] = measure_vector_checks(vectors, quick ? 0.5 : 3.0);
  out["default_check_vectors_only"] = measure_default_check(DLPACK_USM_TOOL, "vector/*");
  if (!quick) {
    // Workers (the default) next to one process per case (--batch 1).
    out["default_check"] = measure_default_check(DLPACK_USM_TOOL, "");
    out["default_check_process_per_case"] = measure_default_check(DLPACK_USM_TOOL, "", "--batch 1");
    out["process_per_case_over_workers"] =
        out["default_check_process_per_case"]["wall_seconds"].get<double>() /
        out["default_check"]["wall_seconds"].get<double>();
  }
  fmt::print("{}\n", out.dump(2));
  return 0;
}
