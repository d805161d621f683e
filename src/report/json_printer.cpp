#include "report/json_printer.hpp"

namespace dlpack_usm::report {

JsonPrinter::JsonPrinter(Value root) : root_(std::move(root)) {
  open_.push_back(&root_);
}

Value& JsonPrinter::next_slot(std::string_view key) {
  Value& scope = *open_.back();
  if (scope.is_array()) {
    scope.push_back(nullptr);
    return scope.back();
  }
  return scope[std::string(key)];
}

void JsonPrinter::open(std::string_view key, Value empty) {
  Value& slot = next_slot(key);
  slot = std::move(empty);
  open_.push_back(&slot);
}

void JsonPrinter::begin_object(std::string_view key, const TextView&) {
  open(key, Value::object());
}

void JsonPrinter::end_object() {
  open_.pop_back();
}

void JsonPrinter::begin_list(std::string_view key, const TextView&) {
  open(key, Value::array());
}

void JsonPrinter::end_list() {
  open_.pop_back();
}

void JsonPrinter::field(std::string_view key, const Value& value, std::string_view) {
  next_slot(key) = value;
}

void JsonPrinter::data(std::string_view key, const Value& value) {
  next_slot(key) = value;
}

}  // namespace dlpack_usm::report
