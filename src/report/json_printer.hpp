// The printer for machines: one JSON document, built as the walk opens and
// closes its scopes. Lines and tables for people are dropped.
#pragma once

#include <vector>

#include "report/printer.hpp"

namespace dlpack_usm::report {

class JsonPrinter final : public Printer {
 public:
  // The walk writes into `root`'s fields: an object, or a list when the
  // walk's values are items.
  explicit JsonPrinter(Value root = Value::object());

  void begin_object(std::string_view key, const TextView& view = {}) override;
  void end_object() override;
  void begin_list(std::string_view key, const TextView& view = {}) override;
  void end_list() override;
  void field(std::string_view key, const Value& value, std::string_view shown) override;
  void data(std::string_view key, const Value& value) override;

  // The document so far; complete once every scope is closed.
  const Value& document() const { return root_; }
  Value take_document() { return std::move(root_); }

 private:
  // The new member `key` of the open object, or the new item of the open list.
  Value& next_slot(std::string_view key);
  // Opens `empty` (an object or a list) as that slot.
  void open(std::string_view key, Value empty);

  Value root_;
  // Open scopes, innermost last. Only the innermost one grows, so pointers
  // to the enclosing ones stay valid.
  std::vector<Value*> open_;
};

// The JSON document a walk writes, as in `render_json(print_rules, rules)`.
template <typename Model>
Value render_json(void (*walk)(Printer&, const Model&), const Model& model) {
  JsonPrinter printer;
  walk(printer, model);
  return printer.take_document();
}

}  // namespace dlpack_usm::report
