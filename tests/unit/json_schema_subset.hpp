// A validator for the subset of JSON Schema draft 2020-12 that
// conformance/schema/capsule.schema.json uses, so that a unit test can prove
// sample capsule files valid (or not) without a new dependency. It refuses,
// at construction, a schema with any keyword outside the subset: a keyword
// it silently ignored would make every test pass.
#pragma once

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm::testing {

class SchemaSubsetValidator {
 public:
  explicit SchemaSubsetValidator(nlohmann::json schema) : root_(std::move(schema)) {
    check_keywords(root_, "#");
  }

  // Empty when `instance` is valid; otherwise where and why it is not.
  std::vector<std::string> errors(const nlohmann::json& instance) const {
    std::vector<std::string> found;
    validate(root_, instance, "", &found);
    return found;
  }
  bool valid(const nlohmann::json& instance) const { return errors(instance).empty(); }
  // Validates against a definition of the schema ("tensor" -> #/$defs/tensor).
  bool valid_as(const std::string& definition, const nlohmann::json& instance) const {
    return validate(resolve("#/$defs/" + definition), instance, "", nullptr);
  }

 private:
  using json = nlohmann::json;
  __extension__ typedef __int128 Wide;

  static const std::set<std::string>& supported() {
    static const std::set<std::string> keywords{"$schema",
                                                "$id",
                                                "$defs",
                                                "title",
                                                "description",
                                                "$ref",
                                                "type",
                                                "properties",
                                                "additionalProperties",
                                                "required",
                                                "dependentRequired",
                                                "items",
                                                "minItems",
                                                "maxItems",
                                                "minimum",
                                                "maximum",
                                                "pattern",
                                                "enum",
                                                "const",
                                                "oneOf",
                                                "anyOf",
                                                "allOf",
                                                "not",
                                                "if",
                                                "then",
                                                "else"};
    return keywords;
  }

  void check_keywords(const json& schema, const std::string& where) const {
    if (schema.is_boolean()) return;
    if (!schema.is_object()) throw std::runtime_error(where + ": a schema must be an object");
    for (const auto& [key, value] : schema.items()) {
      if (!supported().count(key)) throw std::runtime_error(where + ": unsupported keyword " + key);
      if (key == "properties" || key == "$defs") {
        for (const auto& [name, sub] : value.items())
          check_keywords(sub, where + "/" + key + "/" + name);
      } else if (key == "items" || key == "not" || key == "if" || key == "then" || key == "else" ||
                 key == "additionalProperties") {
        check_keywords(value, where + "/" + key);
      } else if (key == "oneOf" || key == "anyOf" || key == "allOf") {
        for (std::size_t i = 0; i < value.size(); ++i) {
          check_keywords(value[i], where + "/" + key + "/" + std::to_string(i));
        }
      } else if (key == "$ref") {
        resolve(value.get<std::string>());
      } else if (key == "pattern") {
        std::regex(value.get<std::string>(), std::regex::ECMAScript);
      }
    }
  }

  const json& resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw std::runtime_error("only local $ref is supported: " + ref);
    return root_.at(json::json_pointer(ref.substr(1)));
  }

  static bool is_integer(const json& value) {
    return value.is_number_integer() ||
           (value.is_number_float() &&
            value.get<double>() ==
                static_cast<double>(static_cast<long long>(value.get<double>())));
  }

  static Wide wide(const json& value) {
    if (value.is_number_unsigned()) return static_cast<Wide>(value.get<std::uint64_t>());
    return static_cast<Wide>(value.get<std::int64_t>());
  }

  static bool has_type(const json& value, const std::string& type) {
    if (type == "object") return value.is_object();
    if (type == "array") return value.is_array();
    if (type == "string") return value.is_string();
    if (type == "boolean") return value.is_boolean();
    if (type == "null") return value.is_null();
    if (type == "number") return value.is_number();
    if (type == "integer") return is_integer(value);
    throw std::runtime_error("unknown type " + type);
  }

  static bool fail(std::vector<std::string>* errors, const std::string& where,
                   const std::string& why) {
    if (errors) errors->push_back((where.empty() ? "/" : where) + ": " + why);
    return false;
  }

  bool validate(const json& schema, const json& value, const std::string& where,
                std::vector<std::string>* errors) const {
    if (schema.is_boolean()) return schema.get<bool>() || fail(errors, where, "false schema");
    bool ok = true;
    if (auto ref = schema.find("$ref"); ref != schema.end()) {
      ok = validate(resolve(ref->get<std::string>()), value, where, errors) && ok;
    }
    if (auto type = schema.find("type"); type != schema.end()) {
      std::vector<std::string> types = type->is_array()
                                           ? type->get<std::vector<std::string>>()
                                           : std::vector<std::string>{type->get<std::string>()};
      if (std::none_of(types.begin(), types.end(),
                       [&](const std::string& t) { return has_type(value, t); })) {
        return fail(errors, where, "wrong type " + std::string(value.type_name()));
      }
    }
    if (auto constant = schema.find("const"); constant != schema.end() && *constant != value) {
      ok = fail(errors, where, "not the constant " + constant->dump());
    }
    if (auto choices = schema.find("enum");
        choices != schema.end() &&
        std::find(choices->begin(), choices->end(), value) == choices->end()) {
      ok = fail(errors, where, "not in enum");
    }
    if (value.is_number() && !value.is_number_float()) {
      if (auto low = schema.find("minimum"); low != schema.end() && wide(value) < wide(*low)) {
        ok = fail(errors, where, "below minimum " + low->dump());
      }
      if (auto high = schema.find("maximum"); high != schema.end() && wide(value) > wide(*high)) {
        ok = fail(errors, where, "above maximum " + high->dump());
      }
    }
    if (auto pattern = schema.find("pattern");
        pattern != schema.end() && value.is_string() &&
        !std::regex_search(value.get<std::string>(), std::regex(pattern->get<std::string>()))) {
      ok = fail(errors, where, "does not match " + pattern->get<std::string>());
    }
    if (value.is_object()) ok = validate_object(schema, value, where, errors) && ok;
    if (value.is_array()) ok = validate_array(schema, value, where, errors) && ok;
    return validate_combinators(schema, value, where, errors) && ok;
  }

  bool validate_object(const json& schema, const json& value, const std::string& where,
                       std::vector<std::string>* errors) const {
    bool ok = true;
    if (auto required = schema.find("required"); required != schema.end()) {
      for (const auto& key : *required) {
        if (!value.contains(key.get<std::string>()))
          ok = fail(errors, where, "lacks " + key.dump());
      }
    }
    if (auto dependent = schema.find("dependentRequired"); dependent != schema.end()) {
      for (const auto& [key, needed] : dependent->items()) {
        if (!value.contains(key)) continue;
        for (const auto& other : needed) {
          if (!value.contains(other.get<std::string>())) {
            ok = fail(errors, where, key + " needs " + other.dump());
          }
        }
      }
    }
    const json* properties = schema.contains("properties") ? &schema["properties"] : nullptr;
    for (const auto& [key, member] : value.items()) {
      if (properties && properties->contains(key)) {
        ok = validate((*properties)[key], member, where + "/" + key, errors) && ok;
      } else if (auto extra = schema.find("additionalProperties"); extra != schema.end()) {
        ok = validate(*extra, member, where + "/" + key, errors) && ok;
      }
    }
    return ok;
  }

  bool validate_array(const json& schema, const json& value, const std::string& where,
                      std::vector<std::string>* errors) const {
    bool ok = true;
    if (auto low = schema.find("minItems");
        low != schema.end() && value.size() < low->get<std::size_t>()) {
      ok = fail(errors, where, "too few items");
    }
    if (auto high = schema.find("maxItems");
        high != schema.end() && value.size() > high->get<std::size_t>()) {
      ok = fail(errors, where, "too many items");
    }
    if (auto items = schema.find("items"); items != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        ok = validate(*items, value[i], where + "/" + std::to_string(i), errors) && ok;
      }
    }
    return ok;
  }

  bool validate_combinators(const json& schema, const json& value, const std::string& where,
                            std::vector<std::string>* errors) const {
    bool ok = true;
    auto count_valid = [&](const json& list) {
      return std::count_if(list.begin(), list.end(),
                           [&](const json& sub) { return validate(sub, value, where, nullptr); });
    };
    if (auto all = schema.find("allOf"); all != schema.end()) {
      for (const json& sub : *all) ok = validate(sub, value, where, errors) && ok;
    }
    if (auto any = schema.find("anyOf"); any != schema.end() && count_valid(*any) == 0) {
      ok = fail(errors, where, "matches no anyOf branch");
    }
    if (auto one = schema.find("oneOf"); one != schema.end() && count_valid(*one) != 1) {
      ok = fail(errors, where, "does not match exactly one oneOf branch");
    }
    if (auto negated = schema.find("not");
        negated != schema.end() && validate(*negated, value, where, nullptr)) {
      ok = fail(errors, where, "matches a 'not' schema");
    }
    if (auto condition = schema.find("if"); condition != schema.end()) {
      const char* branch = validate(*condition, value, where, nullptr) ? "then" : "else";
      if (auto chosen = schema.find(branch); chosen != schema.end()) {
        ok = validate(*chosen, value, where, errors) && ok;
      }
    }
    return ok;
  }

  json root_;
};

}  // namespace dlpack_usm::testing
