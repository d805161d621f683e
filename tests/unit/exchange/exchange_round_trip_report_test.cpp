// run_round_trip, the flow behind `dlpack-usm exchange`: its report must
// say what really happened, refusals included.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "allocation_reporting.hpp"
#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "exchange/capsule_save.hpp"
#include "exchange/round_trip.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange_test_support.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::exchange {
namespace {

TEST(ExchangeRoundTripReport, SubDeviceRoundTripSucceeds) {
  auto subs = testing::usm_sub_devices();
  SKIP_WITHOUT(subs, "sub-device");
  RoundTripRequest request;
  request.device = subs.back()->ref;
  request.kind = facts::UsmKind::shared;
  request.shape = {4, 250};
  request.order = Order::f;
  RoundTripReport report = run_round_trip(runtime::opencl_runtime(), request);
  EXPECT_TRUE(report.ok()) << report.refusal;
  EXPECT_EQ(report.expected_device_id, subs.back()->ref.root_index);
  ASSERT_TRUE(report.exported);
  EXPECT_EQ(report.exported->device_id, subs.back()->ref.root_index);
  EXPECT_EQ(report.exported->runtime->owner_sub_device_index,
            dlpack_usm::testing::expected_owner(subs.back()->ref, request.kind)->sub_index);
  EXPECT_EQ(report.elements_checked, 1000u);
  EXPECT_EQ(report.mismatches, 0u);
  EXPECT_TRUE(report.pointer_identity);
  EXPECT_EQ(report.imported_data, report.allocation_address);
  EXPECT_TRUE(report.deleter_released_allocation);
}

TEST(ExchangeRoundTripReport, LegacyReadOnlyIsRecordedAsAUsageError) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  RoundTripRequest request;
  request.device = devices[0]->ref;
  request.shape = {3};
  request.options.max_version = {0, 8};
  request.options.read_only = true;
  // Usage errors are not refusals by a rule: they propagate.
  EXPECT_THROW(run_round_trip(runtime::opencl_runtime(), request), Error);
}

TEST(ExchangeRoundTripReport, ARefusalByARuleRecordsTheRuleId) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  RoundTripRequest request;
  request.device = devices[0]->ref;
  request.shape = {4};
  request.dtype = {dlpack::kDLBfloat, 32, 1};  // bfloat16 is 16 bits by definition
  RoundTripReport report = run_round_trip(runtime::opencl_runtime(), request);
  ASSERT_TRUE(report.refused_at);
  EXPECT_EQ(*report.refused_at, "export");
  EXPECT_EQ(report.refusal_rule_ids, std::vector<std::string>{"DLP-DTYPE-BITS-FIXED"})
      << report.refusal;
}

TEST(ExchangeRoundTripReport, ReadOnlyRoundTripReportsAReadOnlyView) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  RoundTripRequest request;
  request.device = devices[0]->ref;
  request.shape = {5, 5};
  request.order = Order::negative;
  request.options.read_only = true;
  RoundTripReport report = run_round_trip(runtime::opencl_runtime(), request);
  EXPECT_TRUE(report.ok()) << report.refusal;
  EXPECT_FALSE(report.writable);
  EXPECT_EQ(report.exported->flags, dlpack::kFlagReadOnly);
}

TEST(ExchangeRoundTripReport, SavedCapsuleReadsBackAsTheSameFacts) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  RoundTripRequest request;
  request.device = devices[0]->ref;
  request.shape = {3, 4};
  request.order = Order::strided;
  RoundTripReport report = run_round_trip(runtime::opencl_runtime(), request);
  ASSERT_TRUE(report.exported);
  auto path = std::filesystem::temp_directory_path() /
              ("dlpack-usm-saved-" + std::to_string(::getpid()) + ".json");
  save_capsule_file(path, *report.exported);
  std::vector<facts::TensorFacts> back = capsule::read_capsule_file(path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].data, report.exported->data);
  EXPECT_EQ(back[0].strides, report.exported->strides);
  ASSERT_TRUE(back[0].runtime);
  EXPECT_EQ(back[0].runtime->alloc_size, report.exported->runtime->alloc_size);
  EXPECT_EQ(back[0].runtime->default_context, true);
  // What was live passes the rules written down as well.
  EXPECT_FALSE(rules::has_errors(rules::evaluate(back[0])));
}

// A missing folder is made (as for every output); one that cannot be, where
// a file stands, is an environment error naming it.
TEST(ExchangeRoundTripReport, SaveWhereNoFolderCanBeIsAnEnvironmentError) {
  facts::TensorFacts facts;
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-not-a-dir-{}", getpid());
  std::ofstream(file) << "a file, not a folder\n";
  try {
    save_capsule_file((file / "capsule.json").string(), facts);
    ADD_FAILURE() << "saved into a folder under a regular file";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::environment);
    EXPECT_NE(std::string(error.what()).find(file.filename().string()), std::string::npos);
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace dlpack_usm::exchange
