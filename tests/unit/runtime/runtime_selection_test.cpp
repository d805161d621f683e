// The one table that decides --runtime: every row, with SYCL loading and
// not, and the probe of SYCL asked only where its answer matters.
#include "runtime/selection.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace dlpack_usm::runtime {
namespace {

constexpr const char* kLibraryNote =
    "--runtime auto chose opencl for the libraries under test: none declares "
    "DLPACK_USM_PLUGIN_RUNTIME(\"sycl\"); a library that takes SYCL's handles (plugin ABI 2) "
    "declares it, or is run with --runtime sycl";

// A machine where SYCL loads (or not), counting how often it is asked.
struct FakeSycl {
  bool loads = true;
  int probes = 0;

  std::function<SyclAvailability()> probe() {
    return [this] {
      ++probes;
      if (loads) return SyclAvailability{true, {}, "dpctl 0.22.1 at libDPCTL.so, found by a test"};
      return SyclAvailability{false, "dpctl was not found: nowhere", {}};
    };
  }
};

RuntimeDecision decide(RuntimeChoice choice, LibrariesUnderTest libraries, FakeSycl& sycl) {
  return decide_runtime({choice, libraries}, sycl.probe());
}

TEST(RuntimeSelection, ParsesTheThreeChoicesAndNothingElse) {
  EXPECT_EQ(parse_runtime_choice("auto"), RuntimeChoice::automatic);
  EXPECT_EQ(parse_runtime_choice("sycl"), RuntimeChoice::sycl);
  EXPECT_EQ(parse_runtime_choice("opencl"), RuntimeChoice::opencl);
  EXPECT_EQ(parse_runtime_choice("cuda"), std::nullopt);
  EXPECT_EQ(parse_runtime_choice("Auto"), std::nullopt);
  EXPECT_EQ(parse_runtime_choice(""), std::nullopt);
}

// An explicit choice is taken silently, whoever takes the handles; OpenCL
// without asking SYCL at all.
TEST(RuntimeSelection, AnExplicitChoiceIsTakenSilently) {
  struct Row {
    RuntimeChoice choice;
    const char* name;
    int probes;
  };
  for (Row row : {Row{RuntimeChoice::opencl, "opencl", 0}, Row{RuntimeChoice::sycl, "sycl", 1}}) {
    for (LibrariesUnderTest libraries :
         {LibrariesUnderTest::none, LibrariesUnderTest::opencl_handles,
          LibrariesUnderTest::sycl_handles}) {
      FakeSycl sycl;
      RuntimeDecision decision = decide(row.choice, libraries, sycl);
      EXPECT_EQ(decision.name, row.name);
      EXPECT_EQ(decision.note, "");
      EXPECT_EQ(sycl.probes, row.probes) << row.name;
    }
  }
}

TEST(RuntimeSelection, SyclThatDoesNotLoadIsAnEnvironmentErrorSayingWhy) {
  FakeSycl sycl{false};
  try {
    decide(RuntimeChoice::sycl, LibrariesUnderTest::opencl_handles, sycl);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::environment);
    EXPECT_STREQ(error.what(), "--runtime sycl: dpctl was not found: nowhere");
    EXPECT_EQ(error.hint(),
              "install dpctl (scripts/setup.sh does), point DLPACK_USM_DPCTL at its "
              "libDPCTLSyclInterface.so, or use --runtime opencl");
  }
}

TEST(RuntimeSelection, AutoPrefersSyclAndSaysWhichItIs) {
  for (LibrariesUnderTest libraries :
       {LibrariesUnderTest::none, LibrariesUnderTest::sycl_handles}) {
    FakeSycl sycl;
    RuntimeDecision decision = decide(RuntimeChoice::automatic, libraries, sycl);
    EXPECT_EQ(decision.name, "sycl");
    EXPECT_EQ(decision.note,
              "--runtime auto chose sycl (dpctl 0.22.1 at libDPCTL.so, found by a test): device "
              "ids are SYCL's own");
    EXPECT_EQ(sycl.probes, 1);
  }
}

TEST(RuntimeSelection, AutoFallsBackToOpenClSayingWhy) {
  for (LibrariesUnderTest libraries :
       {LibrariesUnderTest::none, LibrariesUnderTest::sycl_handles}) {
    FakeSycl sycl{false};
    RuntimeDecision decision = decide(RuntimeChoice::automatic, libraries, sycl);
    EXPECT_EQ(decision.name, "opencl");
    EXPECT_EQ(decision.note,
              "--runtime auto chose opencl: dpctl was not found: nowhere; device ids follow the "
              "OpenCL ICD order");
  }
}

// Plugin ABI 1 hands out OpenCL handles: auto stays there, SYCL or not.
TEST(RuntimeSelection, AutoStaysOnOpenClForLibrariesThatTakeOpenClHandles) {
  for (bool loads : {true, false}) {
    FakeSycl sycl{loads};
    RuntimeDecision decision =
        decide(RuntimeChoice::automatic, LibrariesUnderTest::opencl_handles, sycl);
    EXPECT_EQ(decision.name, "opencl");
    EXPECT_EQ(decision.note, kLibraryNote);
    EXPECT_EQ(sycl.probes, 0);
  }
}

// A library that declares DLPACK_USM_PLUGIN_RUNTIME("sycl") runs on SYCL:
// auto chooses it, saying why; where SYCL does not load, or with --runtime
// opencl, nothing runs and the message says why.
TEST(RuntimeSelection, ALibraryThatDeclaresSyclRunsOnSyclOrNotAtAll) {
  FakeSycl loads{true};
  RuntimeDecision decision =
      decide(RuntimeChoice::automatic, LibrariesUnderTest::sycl_required, loads);
  EXPECT_EQ(decision.name, "sycl");
  EXPECT_NE(decision.note.find("a library under test declares that it takes SYCL's handles"),
            std::string::npos)
      << decision.note;
  EXPECT_EQ(decide(RuntimeChoice::sycl, LibrariesUnderTest::sycl_required, loads).name, "sycl");
  FakeSycl missing{false};
  try {
    decide(RuntimeChoice::automatic, LibrariesUnderTest::sycl_required, missing);
    ADD_FAILURE() << "a SYCL library ran without SYCL";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::environment);
    EXPECT_NE(std::string(error.what()).find("dpctl was not found: nowhere"), std::string::npos);
  }
  try {
    decide(RuntimeChoice::opencl, LibrariesUnderTest::sycl_required, loads);
    ADD_FAILURE() << "a SYCL library ran on OpenCL";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
  }
}

// find_runtime() hands out the runtime its decision names and leaves the
// active one alone.
TEST(RuntimeSelection, FindingARuntimeDoesNotMakeItActive) {
  std::string before = active_runtime_name();
  SelectedRuntime found = find_runtime({RuntimeChoice::opencl, LibrariesUnderTest::none});
  EXPECT_EQ(found.name, "opencl");
  EXPECT_EQ(found.runtime, &opencl_runtime());
  EXPECT_EQ(active_runtime_name(), before);
}

}  // namespace
}  // namespace dlpack_usm::runtime
