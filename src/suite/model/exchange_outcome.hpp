// What happened in one exchange with a library under test, as the
// compatibility matrix shows it: the consumer classes of the capability
// profile (matrix::profile_classes) and the producer outcomes, one enum.
// A case source sets it where it judged the exchange; the recorder derives
// it for a crash or hang the runner charged. Reports spell it as the
// matrix does ("accepted-invalid").
#pragma once

#include <optional>
#include <string_view>

namespace dlpack_usm::suite {

enum class ExchangeOutcome {
  none,  // no exchange was judged: not in the matrix, or never ran
  accepted,
  emitted,
  refused,
  declined,
  not_applicable,
  wrong,
  accepted_invalid,
  emitted_invalid,
  deleter_misuse,
  crash,
  hang,
};

// "" for none.
const char* to_string(ExchangeOutcome outcome);
// none for "", nullopt for a name no outcome has.
std::optional<ExchangeOutcome> parse_exchange_outcome(std::string_view text);

}  // namespace dlpack_usm::suite
