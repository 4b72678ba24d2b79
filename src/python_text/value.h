// A small model of the Python values servers print: None, bool, int (64
// bits and a sign), float, str, list, tuple, dict (insertion order, any of
// these as keys), datetime.date and datetime.datetime. str(), repr() and
// json.dumps() (json_dumps.h) are defined on it, so a server builds the
// value its upstream would have built and prints it the upstream's way.
// Strings are UTF-8, lone surrogates in their WTF-8 form (core/utf8.h).
//
// Thread-safety: values are plain data; the functions are pure.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/json.h"
#include "python_text/datetime.h"

namespace sbx::py {

struct Value;
struct DictItem;

struct None {};
struct Int {
  bool negative = false;
  std::uint64_t magnitude = 0;
};
struct Tuple {
  std::vector<Value> items;
};
using List = std::vector<Value>;
using Dict = std::vector<DictItem>;  // insertion order, as a dict keeps it

struct Value {
  std::variant<None, bool, Int, double, std::string, List, Tuple, Dict, Date, DateTime> v;

  // Defined below DictItem: clang needs Dict's element type complete
  // wherever a constructor may destroy the variant.
  Value();
  Value(None);
  Value(bool b);
  Value(std::int64_t i);
  Value(int i);
  Value(Int i);
  Value(double d);
  Value(std::string s);
  Value(const char* s);
  Value(List l);
  Value(Tuple t);
  Value(Dict d);
  Value(Date d);
  Value(DateTime d);
};

struct DictItem {
  Value key, value;
};

inline Value::Value() = default;
inline Value::Value(None) {}
inline Value::Value(bool b) : v(b) {}
inline Value::Value(std::int64_t i)
    : v(Int{i < 0, i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i)}) {}
inline Value::Value(int i) : Value(static_cast<std::int64_t>(i)) {}
inline Value::Value(Int i) : v(i) {}
inline Value::Value(double d) : v(d) {}
inline Value::Value(std::string s) : v(std::move(s)) {}
inline Value::Value(const char* s) : v(std::string(s)) {}
inline Value::Value(List l) : v(std::move(l)) {}
inline Value::Value(Tuple t) : v(std::move(t)) {}
inline Value::Value(Dict d) : v(std::move(d)) {}
inline Value::Value(Date d) : v(d) {}
inline Value::Value(DateTime d) : v(d) {}

// json.loads of the JSON text of `json`: objects become dicts (keys as
// str), arrays lists, integers int, other numbers float.
Value FromJson(const Json& json);

// repr(value) and str(value). They differ for str (str() is the text
// itself), datetime and date (isoformat-like text); inside containers
// every element is shown by repr(), as Python does.
std::string Repr(const Value& value);
std::string Str(const Value& value);

}  // namespace sbx::py
