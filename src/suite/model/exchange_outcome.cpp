#include "suite/model/exchange_outcome.hpp"

#include "suite/model/name_table.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr NameTable<ExchangeOutcome, 12> kExchangeNames{{
    {ExchangeOutcome::none, ""},
    {ExchangeOutcome::accepted, "accepted"},
    {ExchangeOutcome::emitted, "emitted"},
    {ExchangeOutcome::refused, "refused"},
    {ExchangeOutcome::declined, "declined"},
    {ExchangeOutcome::not_applicable, "not-applicable"},
    {ExchangeOutcome::wrong, "wrong"},
    {ExchangeOutcome::accepted_invalid, "accepted-invalid"},
    {ExchangeOutcome::emitted_invalid, "emitted-invalid"},
    {ExchangeOutcome::deleter_misuse, "deleter-misuse"},
    {ExchangeOutcome::crash, "crash"},
    {ExchangeOutcome::hang, "hang"},
}};

}  // namespace

const char* to_string(ExchangeOutcome outcome) {
  return name_in(kExchangeNames, outcome);
}

std::optional<ExchangeOutcome> parse_exchange_outcome(std::string_view text) {
  return value_in(kExchangeNames, text);
}

}  // namespace dlpack_usm::suite
