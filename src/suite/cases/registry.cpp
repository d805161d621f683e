#include "suite/cases/registry.hpp"

#include <memory>

#include "runtime/selection.hpp"
#include "suite/cases/consumer/consumer_cases.hpp"
#include "suite/cases/live/live_cases.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/producer/exchange_api_cases.hpp"
#include "suite/cases/producer/producer_cases.hpp"
#include "suite/cases/vectors/vector_cases.hpp"

namespace dlpack_usm::suite {

CaseSources vector_case_sources(const std::filesystem::path& suite_dir) {
  CaseSources sources;
  sources.push_back(std::make_unique<VectorCaseSource>(suite_dir));
  return sources;
}

CaseSources default_case_sources(const std::filesystem::path& suite_dir) {
  auto runtime = []() -> runtime::Runtime& { return runtime::active_runtime(); };
  CaseSources sources = vector_case_sources(suite_dir);
  sources.push_back(std::make_unique<OwnerAnswerCaseSource>(runtime));
  sources.push_back(std::make_unique<LiveCaseSource>(runtime));
  return sources;
}

CaseSources case_sources(const std::filesystem::path& suite_dir,
                         const std::vector<plugin::PluginSpec>& plugins, int stream_attempts) {
  if (plugins.empty()) return default_case_sources(suite_dir);
  return library_case_sources(plugins, stream_attempts);
}

CaseSources library_case_sources(const std::vector<plugin::PluginSpec>& plugins,
                                 int stream_attempts) {
  auto runtime = []() -> runtime::Runtime& { return runtime::active_runtime(); };
  CaseSources sources;
  sources.push_back(std::make_unique<OwnerAnswerCaseSource>(runtime));
  for (const plugin::PluginSpec& spec : plugins) {
    if (spec.role == plugin::Role::consumer) {
      sources.push_back(std::make_unique<ConsumerCaseSource>(runtime, spec));
    } else if (spec.exchange_api()) {
      sources.push_back(std::make_unique<ExchangeApiCaseSource>(runtime, spec));
    } else {
      sources.push_back(std::make_unique<ProducerCaseSource>(runtime, spec, stream_attempts));
    }
  }
  return sources;
}

}  // namespace dlpack_usm::suite
