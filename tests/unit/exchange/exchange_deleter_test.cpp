// The deleter of every tensor runs exactly once, whoever ends up owning it:
// the consumer's view, an export nobody imported, or a moved owner.
#include <gtest/gtest.h>

#include <memory>

#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

using facts::UsmKind;
using testing::DeleterCounter;
using testing::HandMadeTensor;

struct Fixture {
  std::shared_ptr<runtime::UsmBuffer> buffer;
  ExportRequest request;
};

Fixture fixture(const runtime::DeviceRef& device) {
  Fixture f;
  f.buffer = std::make_shared<runtime::UsmBuffer>(runtime::opencl_runtime().allocate(
      device, UsmKind::shared, 256, runtime::ContextChoice::platform_default));
  f.request.data = f.buffer->data();
  f.request.context = f.buffer->context();
  f.request.shape = {8, 8};
  f.request.keep_alive = f.buffer;
  f.request.strides.reset();
  return f;
}

TEST(ExchangeDeleter, ViewCallsItOnceAndExportReleasesWhatItTook) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  for (dlpack::Release version : {dlpack::kModelRelease, dlpack::Release{0, 8}}) {
    SCOPED_TRACE(dlpack::to_string(version));
    Fixture f = fixture(devices[0]->ref);
    ExportOptions options;
    options.max_version = version;
    ExportedTensor exported = export_tensor(runtime::opencl_runtime(), f.request, options);
    f.request.keep_alive.reset();
    EXPECT_EQ(f.buffer.use_count(), 2) << "the tensor holds one reference";
    std::optional<DeleterCounter> counter;
    if (exported.capsule.is_versioned()) {
      counter.emplace(exported.capsule.versioned());
    } else {
      counter.emplace(exported.capsule.legacy());
    }
    {
      ImportedView view = import_tensor(runtime::opencl_runtime(), std::move(exported.capsule));
      ImportedView moved = std::move(view);  // ownership moves, the count does not
      EXPECT_EQ(counter->calls(), 0);
    }
    EXPECT_EQ(counter->calls(), 1);
    EXPECT_EQ(f.buffer.use_count(), 1);
  }
}

TEST(ExchangeDeleter, AnExportNobodyImportedIsReleasedOnce) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  Fixture f = fixture(devices[0]->ref);
  std::optional<DeleterCounter> counter;
  {
    ExportedTensor exported = export_tensor(runtime::opencl_runtime(), f.request, {});
    counter.emplace(exported.capsule.versioned());
    f.request.keep_alive.reset();
  }
  EXPECT_EQ(counter->calls(), 1);
  EXPECT_EQ(f.buffer.use_count(), 1);
}

TEST(ExchangeDeleter, AHandedOverCapsuleIsTheConsumersToRelease) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  Fixture f = fixture(devices[0]->ref);
  ExportedTensor exported = export_tensor(runtime::opencl_runtime(), f.request, {});
  f.request.keep_alive.reset();
  DeleterCounter counter(exported.capsule.versioned());
  dlpack::DLManagedTensorVersioned* raw = exported.capsule.release_versioned();
  exported = ExportedTensor{};
  EXPECT_EQ(counter.calls(), 0);
  EXPECT_EQ(f.buffer.use_count(), 2);
  raw->deleter(raw);
  EXPECT_EQ(counter.calls(), 1);
  EXPECT_EQ(f.buffer.use_count(), 1);
}

TEST(ExchangeDeleter, OwnerCallsItOnceHoweverOftenReset) {
  HandMadeTensor tensor(nullptr, 0);
  {
    CapsuleOwner owner(&tensor.versioned);
    owner.reset();
    owner.reset();
    CapsuleOwner other = std::move(owner);
  }
  EXPECT_EQ(tensor.deleter_calls, 1);
  tensor.versioned.deleter = nullptr;  // the header allows a NULL deleter
  { CapsuleOwner owner(&tensor.versioned); }
  EXPECT_EQ(tensor.deleter_calls, 1);
}

}  // namespace
}  // namespace dlpack_usm::exchange
