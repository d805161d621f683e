// The three members every JSON document of dlpack-usm opens with, C++ and
// Python alike: "schema" (the document's kind and version, as
// "dlpack-usm.NAME/N"), "tool" ("dlpack-usm") and "version" (the version of
// the tool that wrote it). A machine reads "schema" first and knows what
// follows; each NAME has its JSON Schema in conformance/schema/, whose "$id"
// or "schema" const names it. A new version of a document's shape is a new N.
#pragma once

#include <string_view>

#include "report/printer.hpp"

namespace dlpack_usm::report {

inline constexpr std::string_view kToolName = "dlpack-usm";

// The documents and their schema files (conformance/schema/FILE).
inline constexpr const char* kInventorySchema = "dlpack-usm.inventory/1";  // inventory
inline constexpr const char* kRulesSchema = "dlpack-usm.rules/1";          // rules
inline constexpr const char* kRuleExplanationSchema =
    "dlpack-usm.rule-explanation/1";                                            // rule-explanation
inline constexpr const char* kFindingsSchema = "dlpack-usm.findings/1";         // findings
inline constexpr const char* kCapsuleDumpSchema = "dlpack-usm.capsule-dump/1";  // capsule-dump
inline constexpr const char* kExchangeSchema = "dlpack-usm.exchange/1";         // exchange
// The check report's is suite::kCheckReportSchema (report).

// Opens a document for machines with its envelope; text printers show
// nothing of it. `version` is this tool's unless the document reports on
// runs of other versions (a merged report).
void print_envelope(Printer& printer, std::string_view schema, std::string_view version = {});

}  // namespace dlpack_usm::report
