// `check --producer` and `--consumer` through the real binary, on the
// fixture plugins: every row of fixtures/plugins/behaviour_vectors.json (each
// broken library caught by its rule and no other, the correct ones clean),
// the loader's refusals, and what reports say about the library.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../unit/allocation_reporting.hpp"
#include "e2e_files.hpp"
#include "runtime/runtime.hpp"
#include "sycl_presence.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> behaviour_rows() {
  json table = read_json(source_path("fixtures/plugins/behaviour_vectors.json"));
  return table.at("vectors").get<std::vector<json>>();
}

// The device part of a case id ("producer/opencl:cpu:0.1/device/...").
const runtime::DeviceInfo* case_device(const std::string& id) {
  std::size_t start = id.find('/') + 1;
  return runtime::opencl_runtime().inventory().find(id.substr(start, id.find('/', start) - start));
}

// What a row expects of one case, where the runtime decides it.
struct Expected {
  std::string outcome;
  std::set<std::string> rules;
};

Expected expected_for(const json& row, const std::string& id) {
  Expected expected{row.at("outcome"), {}};
  for (const auto& rule : row.value("expect", json::array())) expected.rules.insert(rule);
  const runtime::DeviceInfo* device = case_device(id);
  if (device == nullptr) return expected;
  testing::AllocationReporting reporting = testing::allocation_reporting(device->ref);
  if (row.at("library") == "producer_own_context" && !reporting.queries_scoped_to_context) {
    // PoCL 5.0 answers pointer queries whatever context is asked, so the
    // default context finds the foreign allocation and the import protocol
    // works with it: nothing a consumer could notice, nothing to report.
    return {"pass", {}};
  }
  if (row.at("library") == "producer_sub_device_id" && device->ref.sub_index) {
    // The sub-device index may name no root device at all, or the runtime
    // may report the parent root as the owner (PoCL 5.0).
    std::string rule =
        *device->ref.sub_index >= runtime::opencl_runtime().inventory().root_device_count()
            ? "DLP-ONEAPI-DEVICE-ID-RANGE"
        : reporting.names_sub_device_owner ? "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE"
                                           : "DLP-ONEAPI-DEVICE-ID-ROOT";
    if (*device->ref.sub_index == device->ref.root_index) return {"pass", {}};
    // kDLOneAPI's device_id is defined as the root device's index: each of
    // these rules is an error.
    return {"fail", {rule}};
  }
  return expected;
}

std::string row_name(const json& row) {
  std::string name = row.at("library").get<std::string>();
  // Appends, not "_" + temporary: GCC 12 at -O3 raises a false -Wstringop-overflow.
  if (row.contains("symbol")) name.append("_").append(row.at("symbol").get<std::string>());
  if (row.contains("tag")) name.append("_").append(row.at("tag").get<std::string>());
  return name;
}

class BehaviourVectors : public ::testing::TestWithParam<json> {};

TEST_P(BehaviourVectors, CaughtByItsRuleAndNoOther) {
  const json& row = GetParam();
  // A row of the SYCL fixtures runs under --runtime sycl, which needs dpctl.
  if (row.value("runtime", "") == "sycl") SKIP_WITHOUT_SYCL();
  fs::path dir = scratch_dir(row_name(row));
  std::string library = fixture(row.at("library")).string();
  if (row.contains("symbol")) library.append(":").append(row.at("symbol").get<std::string>());
  // A short watchdog: the hanging fixture must not hold ctest up.
  std::vector<std::string> arguments{"check",
                                     "--" + row.at("role").get<std::string>(),
                                     library,
                                     "--filter",
                                     row.at("filter"),
                                     "--timeout",
                                     "3",
                                     "--jobs",
                                     "2",
                                     "--report",
                                     (dir / "report.json").string()};
  for (const auto& feature : row.value("require", json::array())) {
    arguments.push_back("--require");
    arguments.push_back(feature);
  }
  if (row.contains("stream_attempts")) {
    arguments.push_back("--stream-attempts");
    arguments.push_back(std::to_string(row.at("stream_attempts").get<int>()));
  }
  if (row.contains("runtime")) {
    arguments.push_back("--runtime");
    arguments.push_back(row.at("runtime"));
  }
  ToolResult run = run_tool(arguments);
  // 3: nothing exchanged, where no device here runs the row's cases (PoCL
  // 5.0's sub-devices are outside the default context).
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << run.out << run.err;
  json report = read_json(dir / "report.json");
  int ran = 0;
  bool any_expected_failure = false;
  for (const json& result : report.at("results")) {
    std::string outcome = result.at("outcome");
    if (outcome == "skipped" || outcome == "not_supported") continue;
    ++ran;
    std::string id = result.at("id");
    Expected expected = expected_for(row, id);
    std::set<std::string> fired(result.at("rule_ids").begin(), result.at("rule_ids").end());
    // A warning passes the gate; fail, crash and timeout do not.
    any_expected_failure |= expected.outcome != "pass" && expected.outcome != "warn";
    EXPECT_EQ(outcome, expected.outcome) << id << ": " << result.at("message");
    EXPECT_EQ(fired, expected.rules) << id << ": " << result.at("message");
  }
  if (ran == 0) GTEST_SKIP() << "no device here runs " << row.at("filter");
  EXPECT_NE(run.exit_code, 3) << "cases ran, yet the run says nothing was exchanged";
  // From the cases, not the row: on a runtime where the bug cannot be seen
  // (the own-context producer on PoCL 5.0) every case passes and so does the gate.
  EXPECT_EQ(run.exit_code, any_expected_failure ? 1 : 0) << run.out;
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(plugin, BehaviourVectors, ::testing::ValuesIn(behaviour_rows()),
                         [](const ::testing::TestParamInfo<json>& row) {
                           return row_name(row.param);
                         });

// The stream cases (plugin ABI 4) say in how many attempts stale data was
// read, and a clean run says that no race was observed, never that the
// library synchronises. --stream-attempts counts the attempts; it belongs to
// --producer.
TEST(plugin_check, StreamCasesCountTheAttemptsThatReadStaleData) {
  fs::path dir = scratch_dir("stream");
  for (const char* library : {"producer_skips_wait", "producer_async"}) {
    ToolResult run = run_tool({"check", "--producer", fixture(library).string(), "--filter",
                               "producer/*/device/float32/stream", "--stream-attempts", "6",
                               "--jobs", "2", "--report", (dir / "report.json").string()});
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.out << run.err;
    json report = read_json(dir / "report.json");
    bool broken = std::string(library) == "producer_skips_wait";
    int judged = 0;
    for (const json& result : report.at("results")) {
      if (result.at("outcome") == "not_supported" || result.at("outcome") == "skipped") continue;
      ++judged;
      std::string message = result.at("message");
      if (broken) {
        EXPECT_NE(message.find("stale data in "), std::string::npos) << message;
        EXPECT_NE(message.find(" of 6 attempts"), std::string::npos) << message;
      } else {
        EXPECT_NE(message.find("no race observed in 6 attempts"), std::string::npos) << message;
        EXPECT_EQ(message.find("synchronis"), std::string::npos) << message;
      }
    }
    if (judged == 0) GTEST_SKIP() << "no device with device USM here";
  }
  ToolResult alone = run_tool({"check", "--stream-attempts", "3"});
  EXPECT_EQ(alone.exit_code, 2) << alone.err;
  EXPECT_NE(alone.err.find("--stream-attempts counts the requests of a producer's stream cases"),
            std::string::npos)
      << alone.err;
  fs::remove_all(dir);
}

// Controls before blame (issue 34): on a runtime whose barriers on
// out-of-order queues hold nothing back (tests/hostile_runtimes/
// opencl_loader.c, standing in for the loader of both the tool and the
// plugin), the tool's own correct producer reads stale on such a queue too.
// The runtime is named once, the library's out-of-order results are
// blocked, and the library is judged on an in-order queue: the correct one
// passes (a warning: the runtime's), the one that skips its wait still fails.
TEST(plugin_check, AStreamRaceTheRuntimesControlSharesIsBlockedAndJudgedInOrder) {
  fs::path dir = scratch_dir("stream-control");
  std::string runtime = (fs::path(DLPACK_USM_HOSTILE_RUNTIME_DIR) /
                         "libhostile_opencl_loader_out_of_order_barrier.so")
                            .string();
  ToolEnvironment env;
  env.changes["LD_PRELOAD"] = runtime;
  env.changes["DLPACK_USM_OPENCL_LOADER"] = runtime;
  for (const char* library : {"producer_async", "producer_skips_wait"}) {
    SCOPED_TRACE(library);
    ToolResult run =
        run_tool({"check", "--runtime", "opencl", "--producer", fixture(library).string(),
                  "--filter", "producer/*/device/float32/stream", "--stream-attempts", "4",
                  "--report", (dir / "report.json").string()},
                 env);
    bool broken = std::string(library) == "producer_skips_wait";
    ASSERT_EQ(run.exit_code, broken ? 1 : 0) << run.out << run.err;
    json report = read_json(dir / "report.json");
    int judged = 0;
    for (const json& result : report.at("results")) {
      if (result.at("outcome") == "not_supported" || result.at("outcome") == "skipped") continue;
      ++judged;
      json rules = result.at("rule_ids");
      EXPECT_NE(std::find(rules.begin(), rules.end(), "DLP-RUNTIME-QUEUE-ORDER"), rules.end())
          << result.dump();
      if (broken) {
        EXPECT_EQ(result.at("outcome"), "fail");
        EXPECT_NE(result.at("message").get<std::string>().find(
                      "(an in-order cl_command_queue) as soon as produce returned"),
                  std::string::npos)
            << result.dump();
      } else {
        EXPECT_EQ(result.at("outcome"), "warn");
        EXPECT_EQ(rules, json::array({"DLP-RUNTIME-QUEUE-ORDER"}));
        EXPECT_NE(result.at("message").get<std::string>().find(
                      "judged on an in-order queue instead: no race observed in 4 attempts"),
                  std::string::npos)
            << result.dump();
      }
    }
    if (judged == 0) GTEST_SKIP() << "no OpenCL device with device USM here";
  }
  fs::remove_all(dir);
}

TEST(plugin_check, ReportsNameTheLibraryAndReproLinesRepeatIt) {
  fs::path dir = scratch_dir("report");
  std::string library = fixture("producer_f_strides").string();
  ToolResult run = run_tool(
      {"check", "--producer", library, "--filter", "producer/*/device/float32/C/1.3", "--jobs", "2",
       "--report", (dir / "report.json").string(), "--junit", (dir / "junit.xml").string()});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("producer: fixture-producer_f_strides 1.0 (" + library + ")"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("repro: dlpack-usm check --producer '" + library + "' --filter"),
            std::string::npos)
      << run.out;
  json report = read_json(dir / "report.json");
  ASSERT_EQ(report.at("plugins").size(), 1u);
  EXPECT_EQ(report["plugins"][0]["name"], "fixture-producer_f_strides");
  EXPECT_EQ(report["plugins"][0]["version"], "1.0");
  EXPECT_EQ(report["plugins"][0]["path"], library);
  EXPECT_EQ(report["plugins"][0]["interface"], "dlpack_usm_plugin");
  std::ifstream junit(dir / "junit.xml");
  std::string xml((std::istreambuf_iterator<char>(junit)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("<property name=\"producer\" value=\"fixture-producer_f_strides 1.0"),
            std::string::npos);
  fs::remove_all(dir);
}

// An exchange API table with a NULL slot: the cases that would call it are
// not_supported, naming the rule the table case reports, so that one defect
// fails one case (the rows of behaviour_vectors.json check that case).
TEST(plugin_check, ExchangeApiCasesOfANullSlotAreNotSupported) {
  const std::tuple<const char*, const char*, const char*> tables[] = {
      {"fixture_exchange_api_no_allocator", "exchange-api/*/*", "DLP-EXCHANGE-API-ALLOCATOR-NULL"},
      {"fixture_exchange_api_no_stream_fn", "exchange-api/*/stream",
       "DLP-EXCHANGE-API-STREAM-FN-NULL"},
  };
  int seen = 0;
  for (const auto& [symbol, filter, rule] : tables) {
    fs::path dir = scratch_dir(symbol);
    ToolResult run =
        run_tool({"check", "--producer", fixture("exchange_api").string() + ":" + symbol,
                  "--filter", filter, "--report", (dir / "report.json").string()});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    const json report = read_json(dir / "report.json");
    for (const json& result : report.at("results")) {
      std::string id = result.at("id");
      // Filtered out, or a device without USM.
      if (result.at("outcome") == "skipped" || id.ends_with("/usm")) continue;
      ++seen;
      EXPECT_EQ(result.at("outcome"), "not_supported") << id;
      EXPECT_NE(result.at("message").get<std::string>().find(rule), std::string::npos) << id;
    }
    fs::remove_all(dir);
  }
  if (seen == 0) GTEST_SKIP() << "no device with USM here";
}

struct Refusal {
  std::vector<std::string> arguments;
  std::string message;
};

TEST(plugin_check, LibrariesThatBreakTheInterfaceAreUsageErrors) {
  std::string exchange = fixture("exchange_api").string();
  const std::vector<Refusal> refusals{
      {{"--producer", "/nonexistent/libnothing.so"}, "no such library: /nonexistent/libnothing.so"},
      {{"--producer", fixture("consumer").string()}, "has no produce function"},
      {{"--consumer", fixture("producer").string()}, "has no consume function"},
      {{"--producer", fixture("wrong_abi").string()}, "built for plugin ABI version 99"},
      {{"--producer", fixture("no_entry").string()}, "exports no dlpack_usm_plugin() function"},
      {{"--producer", exchange + ":no_such_symbol"}, "exports no symbol no_such_symbol"},
      {{"--consumer", exchange + ":fixture_exchange_api"}, "names a producer"},
  };
  for (const Refusal& refusal : refusals) {
    std::vector<std::string> arguments{"check"};
    arguments.insert(arguments.end(), refusal.arguments.begin(), refusal.arguments.end());
    ToolResult run = run_tool(arguments);
    EXPECT_EQ(run.exit_code, 2) << refusal.arguments.back() << ": " << run.err;
    EXPECT_NE(run.err.find("dlpack-usm: error: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(refusal.message), std::string::npos) << run.err;
  }
}

// The correct consumer declines 40 dimensions cleanly: not_supported, and
// the gate passes, until --require names the feature; a feature no case
// carries is a usage error.
TEST(plugin_check, RequireTurnsADeclineOfTheFeatureIntoAFailure) {
  fs::path dir = scratch_dir("require");
  std::string library = fixture("consumer").string();
  std::vector<std::string> base{"check",
                                "--consumer",
                                library,
                                "--filter",
                                "consumer/*/*/ndim-40",
                                "--report",
                                (dir / "report.json").string()};
  ToolResult declined = run_tool(base);
  ASSERT_EQ(declined.exit_code, 0) << declined.out << declined.err;
  json report = read_json(dir / "report.json");
  int seen = 0;
  for (const json& result : report.at("results")) {
    if (result.at("outcome") == "skipped") continue;
    ++seen;
    EXPECT_EQ(result.at("outcome"), "not_supported") << result;
    EXPECT_NE(result.at("message").get<std::string>().find("at most 32 dimensions"),
              std::string::npos)
        << result;
  }
  if (seen == 0) GTEST_SKIP() << "no device with USM here";

  std::vector<std::string> required = base;
  required.insert(required.end(), {"--require", "high-ndim"});
  ToolResult failed = run_tool(required);
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  report = read_json(dir / "report.json");
  for (const json& result : report.at("results")) {
    if (result.at("outcome") == "skipped") continue;
    EXPECT_EQ(result.at("outcome"), "fail") << result;
    EXPECT_EQ(result.at("rule_ids"), json::array({"DLP-CONSUMER-REQUIRED-FEATURE"})) << result;
  }
  EXPECT_NE(failed.out.find("--require 'high-ndim'"), std::string::npos) << failed.out;

  std::vector<std::string> other = base;
  other.insert(other.end(), {"--require", "bool"});
  EXPECT_EQ(run_tool(other).exit_code, 0) << "a decline of another feature still passes";

  std::vector<std::string> unknown = base;
  unknown.insert(unknown.end(), {"--require", "no-such-feature"});
  ToolResult refused = run_tool(unknown);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--require no-such-feature"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("negative-strides"), std::string::npos) << refused.err;
  fs::remove_all(dir);
}

// A producer that declines every request exchanged nothing: its run does
// not pass (exit 3, issue 36) unless --allow-empty says it may.
TEST(plugin_check, AProducerThatDeclinesEverythingDoesNotPass) {
  std::vector<std::string> base{"check", "--producer", fixture("producer_declines_all").string()};
  ToolResult vacuous = run_tool(base);
  EXPECT_EQ(vacuous.exit_code, 3) << vacuous.out << vacuous.err;
  EXPECT_NE(vacuous.err.find("nothing was exchanged with the --producer plugin"), std::string::npos)
      << vacuous.err;
  std::vector<std::string> allowed = base;
  allowed.push_back("--allow-empty");
  EXPECT_EQ(run_tool(allowed).exit_code, 0);
}

// The library's cases, and beside them only the runtime's owner answer
// (one case per platform asked), which the library's verdicts rest on.
TEST(plugin_check, ListShowsThePluginCasesOnly) {
  ToolResult run = run_tool({"check", "--consumer", fixture("consumer").string(), "--list"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream lines(run.out);
  int count = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("runtime/") && line.ends_with("/owner-answer")) continue;
    EXPECT_EQ(line.rfind("consumer/", 0), 0u) << line;
    ++count;
  }
  EXPECT_GT(count, 0);
}

// The SYCL fixtures (plugin ABI 2) take dpctl's functions and SYCL's default
// contexts from the host table: their tensors pass the tool's SYCL importer,
// and the tool's SYCL exports pass their importer, through one SYCL runtime.
// Sub-devices SYCL keeps out of the default context are not_supported by
// the producer, as it answers.
TEST(plugin_check, SyclProducerAndConsumerShareTheDefaultContext) {
  SKIP_WITHOUT_SYCL();
  for (const char* role : {"producer", "consumer"}) {
    fs::path dir = scratch_dir(std::string("sycl-") + role);
    std::string library = fixture(std::string("sycl_") + role).string();
    bool producer = std::string(role) == "producer";
    // The producer's float32 slice of the matrix (every kind, layout and
    // version on every device); the consumer's cases all.
    ToolResult run = run_tool({"check", "--runtime", "sycl", std::string("--") + role, library,
                               "--filter", producer ? "producer/*/*/float32/*" : "*", "--jobs", "2",
                               "--report", (dir / "report.json").string()});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    json report = read_json(dir / "report.json");
    EXPECT_EQ(report["environment"]["runtime"], "sycl");
    int passed = 0;
    for (const json& result : report["results"]) {
      std::string outcome = result["outcome"];
      passed += outcome == "pass";
      EXPECT_TRUE(outcome == "pass" || outcome == "not_supported" || outcome == "skipped")
          << result.dump();
    }
    EXPECT_GT(passed, producer ? 40 : 30) << role;
    fs::remove_all(dir);
  }
}

// A SYCL fixture declares DLPACK_USM_PLUGIN_RUNTIME("sycl"): the default
// --runtime auto runs it on SYCL and says why; --runtime opencl refuses it
// before any case runs, naming the declaration.
TEST(plugin_check, ASyclLibraryMakesAutoChooseSycl) {
  SKIP_WITHOUT_SYCL();
  fs::path dir = scratch_dir("sycl-auto");
  std::string library = fixture("sycl_producer").string();
  ToolResult run =
      run_tool({"check", "--producer", library, "--filter", "producer/*/device/float32/C/1.3",
                "--report", (dir / "report.json").string()});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(read_json(dir / "report.json")["environment"]["runtime"], "sycl");
  EXPECT_NE(run.err.find("a library under test declares that it takes SYCL's handles"),
            std::string::npos)
      << run.err;
  ToolResult refused =
      run_tool({"check", "--producer", library, "--runtime", "opencl", "--filter", "*"});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("DLPACK_USM_PLUGIN_RUNTIME(\"sycl\")"), std::string::npos)
      << refused.err;
  fs::remove_all(dir);
}

// The capability profile of the correct consumer: one entry per consumer
// case that ran, every valid cell accepted or declined (with the reason in
// the text), every invalid one refused, in JSON, text and JUnit alike.
TEST(plugin_check, ProfileOfTheCorrectConsumer) {
  fs::path dir = scratch_dir("profile");
  ToolResult run =
      run_tool({"check", "--consumer", fixture("consumer").string(), "--jobs", "2", "--report",
                (dir / "report.json").string(), "--junit", (dir / "junit.xml").string()});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  json report = read_json(dir / "report.json");
  if (!report.contains("profile")) GTEST_SKIP() << "no device with USM here";
  std::map<std::string, json> by_case;
  for (const json& cell : report.at("profile")) by_case[cell.at("case")] = cell;
  int invalid = 0;
  for (const json& result : report.at("results")) {
    std::string id = result.at("id");
    if (id.ends_with("/usm") || id.starts_with("runtime/") || result.at("outcome") == "skipped") {
      continue;
    }
    if (id.ends_with("/separate-context") && result.at("outcome") == "not_supported") continue;
    ASSERT_TRUE(by_case.contains(id)) << id;
    const json& cell = by_case[id];
    EXPECT_EQ(cell.at("device"), result.at("device")) << id;
    EXPECT_EQ(cell.at("status"), result.at("outcome")) << id;
    if (cell.at("axis") == "invalid") {
      ++invalid;
      EXPECT_EQ(cell.at("outcome"), "refused") << id;
    } else {
      EXPECT_EQ(cell.at("outcome"), result.at("outcome") == "pass" ? "accepted" : "declined") << id;
    }
  }
  EXPECT_GE(invalid, 8);
  auto outcome_of = [&](const std::string& axis, const std::string& value) {
    for (const json& cell : report.at("profile")) {
      if (cell.at("axis") == axis && cell.at("value") == value) return cell.at("outcome");
    }
    return json("absent");
  };
  EXPECT_EQ(outcome_of("dtype", "bool"), "accepted");
  EXPECT_EQ(outcome_of("dtype", "float4_e2m1fn"), "declined");
  EXPECT_EQ(outcome_of("layout", "null-deleter"), "accepted");
  EXPECT_EQ(outcome_of("layout", "ndim-40"), "declined");
  EXPECT_EQ(outcome_of("invalid", "oneapi-device-id-range"), "refused");
  EXPECT_EQ(outcome_of("version", "1.2"), "accepted");
  EXPECT_NE(run.out.find("capability profile (+ accepted, - declined"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("declined (1): ndim-40: this consumer takes at most 32 dimensions"),
            std::string::npos)
      << run.out;
  // Each axis in the matrix's order, not its ids': int8 before int16.
  std::size_t int8 = run.out.find(" int8");
  EXPECT_LT(int8, run.out.find(" int16")) << run.out;
  EXPECT_NE(run.out.find("    layout    f-order"), std::string::npos) << run.out;
  std::ifstream junit(dir / "junit.xml");
  std::string xml((std::istreambuf_iterator<char>(junit)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("/dtype-bool [dtype=bool]\""), std::string::npos);
  EXPECT_NE(xml.find("/invalid/data-null [invalid=data-null]\""), std::string::npos);
  // Each result carries its cell and class, so that a merge of shards has
  // the same profile as the whole run.
  for (const json& result : report.at("results")) {
    if (!by_case.contains(result.at("id"))) continue;
    EXPECT_EQ(result.at("profile").at("outcome"), by_case[result.at("id")].at("outcome"));
  }
  std::vector<std::string> merge{"report", "merge", "--report", (dir / "merged.json").string()};
  for (const char* shard : {"1/2", "2/2"}) {
    fs::path part = dir / fmt::format("shard{}.json", shard[0]);
    ToolResult sharded = run_tool({"check", "--consumer", fixture("consumer").string(), "--jobs",
                                   "2", "--shard", shard, "--report", part.string()});
    ASSERT_EQ(sharded.exit_code, 0) << sharded.err;
    merge.push_back(part.string());
  }
  ToolResult merged = run_tool(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  std::set<std::string> whole, rebuilt;
  for (const json& cell : report.at("profile")) whole.insert(cell.dump());
  json merged_report = read_json(dir / "merged.json");
  for (const json& cell : merged_report.at("profile")) rebuilt.insert(cell.dump());
  EXPECT_EQ(rebuilt, whole);
  fs::remove_all(dir);
}

struct ClassCase {
  std::string library;
  std::string filter;
  std::string outcome;  // the profile's class
  bool fails = true;    // whether the case fails the gate
};

// Each class of the profile that is not a plain acceptance, from a broken
// consumer that shows it, and whether its case fails the gate: harm fails,
// an acceptance of an invalid tensor or an inconsistent decline warns.
TEST(plugin_check, ProfileKeepsTheFailingOutcomesApart) {
  const std::vector<ClassCase> classes{
      {"consumer_wrong_view", "consumer/*/device/extent-1-strides", "wrong", true},
      {"consumer_ignores_strides", "consumer/*/device/strided", "wrong", true},
      {"consumer_trusts_shape", "consumer/*/invalid/shape-negative", "accepted-invalid", false},
      {"consumer_imports_unknown_major", "consumer/*/invalid/major-version-2", "accepted-invalid",
       true},
      {"consumer_calls_null_deleter", "consumer/*/device/null-deleter", "deleter-misuse", true},
      {"consumer_double_delete", "consumer/*/device/c-order", "deleter-misuse", true},
      {"consumer_hang", "consumer/*/device/c-order", "hang", true},
      {"consumer_crash_on_invalid", "consumer/*/invalid/shape-negative", "crash", false},
      {"consumer_rejects_null_data", "consumer/*/device/size0-null-data", "declined", false},
  };
  for (const ClassCase& expected : classes) {
    fs::path dir = scratch_dir(std::string("class-").append(expected.library));
    ToolResult run =
        run_tool({"check", "--consumer", fixture(expected.library).string(), "--filter",
                  expected.filter, "--timeout", "3", "--report", (dir / "report.json").string()});
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.out << run.err;
    json report = read_json(dir / "report.json");
    if (!report.contains("profile")) GTEST_SKIP() << "no device with USM here";
    EXPECT_EQ(run.exit_code, expected.fails ? 1 : 0) << expected.library << " and the gate";
    for (const json& cell : report.at("profile")) {
      EXPECT_EQ(cell.at("outcome"), expected.outcome) << expected.library << ": " << cell;
    }
    fs::remove_all(dir);
  }
}

// A consumer that declines odd strides on an axis of extent 1 but takes
// the compact twin warns: the gate passes it, --strict fails it.
TEST(plugin_check, AnInconsistentDeclineWarnsAndFailsOnlyUnderStrict) {
  fs::path dir = scratch_dir("inconsistent-decline");
  std::vector<std::string> arguments{"check",
                                     "--consumer",
                                     fixture("consumer_extent1_strides").string(),
                                     "--filter",
                                     "consumer/*/device/extent-1-strides",
                                     "--junit",
                                     (dir / "junit.xml").string()};
  ToolResult passed = run_tool(arguments);
  if (passed.out.find("extent-1-strides") == std::string::npos) {
    GTEST_SKIP() << "no device with USM here";
  }
  EXPECT_EQ(passed.exit_code, 0) << passed.out << passed.err;
  EXPECT_NE(passed.out.find("warnings (1 in 1 group; the gate passes them, --strict fails them):"),
            std::string::npos)
      << passed.out;
  EXPECT_NE(passed.out.find("DLP-CONSUMER-INCONSISTENT-DECLINE"), std::string::npos);
  arguments.push_back("--strict");
  ToolResult strict = run_tool(arguments);
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  EXPECT_NE(strict.out.find("gate: FAILED (strict)"), std::string::npos) << strict.out;
  std::ifstream junit(dir / "junit.xml");
  std::string xml((std::istreambuf_iterator<char>(junit)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("<failure message="), std::string::npos) << xml;
  fs::remove_all(dir);
}

// Flaky means one attempt passed: a consumer that hangs on its first attempt
// and crashes on the re-run failed twice, and fails the gate.
TEST(plugin_check, AHangThenACrashOnTheRerunFailsTheGate) {
  fs::path dir = scratch_dir("hang-then-crash");
  ToolEnvironment env;
  env.changes["DLPACK_USM_FIXTURE_STATE"] = (dir / "state").string();
  ToolResult run = run_tool(
      {"check", "--consumer", fixture("consumer_hang_then_crash").string(), "--filter",
       "consumer/*/device/f-order", "--timeout", "1", "--report", (dir / "report.json").string()},
      env);
  json report = read_json(dir / "report.json");
  int seen = 0;
  for (const json& result : report.at("results")) {
    if (result.at("outcome") == "skipped") continue;
    ++seen;
    EXPECT_EQ(result.at("first_outcome"), "timeout") << result;
    EXPECT_EQ(result.at("outcome"), "crash") << result;
    EXPECT_EQ(result.at("attempts"), 2) << result;
    EXPECT_EQ(result.at("verdict"), "regression") << result;
  }
  if (seen == 0) GTEST_SKIP() << "no device with USM here";
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("regression: 1 case, timeout, then crash on re-run\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("gate: FAILED"), std::string::npos) << run.out;
  fs::remove_all(dir);
}

// A NULL deleter is left alone, by the tool as by a consumer: a case that
// passes with one says so, never that "the deleter ran once".
TEST(plugin_check, ANullDeleterCaseSaysWhatHappened) {
  struct Run {
    std::string role, library, filter, says;
  };
  for (const Run& expected :
       {Run{"producer", "producer_null_deleter", "producer/*/device/float32/C/1.3",
            "the deleter is NULL: the tool left it alone, and the library keeps the memory"},
        Run{"consumer", "consumer", "consumer/*/device/null-deleter",
            "the NULL deleter was left alone (the tool kept ownership)"}}) {
    fs::path dir = scratch_dir("null-deleter-" + expected.role);
    ToolResult run =
        run_tool({"check", "--" + expected.role, fixture(expected.library).string(), "--filter",
                  expected.filter, "--report", (dir / "report.json").string()});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    int seen = 0;
    json report = read_json(dir / "report.json");
    for (const json& result : report.at("results")) {
      if (result.at("outcome") != "pass") continue;
      ++seen;
      std::string message = result.at("message");
      EXPECT_NE(message.find(expected.says), std::string::npos) << message;
      EXPECT_EQ(message.find("deleter ran once"), std::string::npos) << message;
    }
    if (seen == 0) GTEST_SKIP() << "no device with USM here";
    fs::remove_all(dir);
  }
}

// A library built for plugin ABI 1 still loads and runs where it always did.
TEST(plugin_check, Abi1LibrariesKeepLoading) {
  ToolResult run = run_tool({"check", "--producer", fixture("producer").string(), "--filter",
                             "producer/*/device/float32/C/1.3"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.err.find("auto chose opencl for the libraries under test"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
