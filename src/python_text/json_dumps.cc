#include "python_text/json_dumps.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/utf8.h"
#include "python_text/repr.h"

namespace sbx::py {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnit(std::string& out, unsigned unit) {
  const char esc[6] = {'\\', 'u', kHex[unit >> 12 & 15], kHex[unit >> 8 & 15], kHex[unit >> 4 & 15], kHex[unit & 15]};
  out.append(esc, 6);
}

// One str as a JSON string literal (CPython's encode_basestring[_ascii]).
void AppendString(std::string& out, std::string_view s, bool ensure_ascii) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    char32_t cp = utf8::Next(s, i, utf8::Surrogates::kAllow);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (cp < 0x20 || (ensure_ascii && cp >= 0x7F)) {
      if (cp < 0x10000) {
        AppendUnit(out, cp);
      } else {
        char32_t v = cp - 0x10000;
        AppendUnit(out, 0xD800 | (v >> 10));
        AppendUnit(out, 0xDC00 | (v & 0x3FF));
      }
    } else if (cp == utf8::kReplacement && i - start == 1) {
      utf8::Append(out, cp);  // an ill-formed byte
    } else {
      out.append(s.data() + start, i - start);
    }
  }
  out += '"';
}

// float.__repr__ with JSON's words for the values it has none for.
std::string FloatText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
  return FloatRepr(d);
}

class Writer {
 public:
  explicit Writer(const DumpsOptions& o) : o_(o) {}
  std::string out;

  void Open(char bracket, int depth) {
    out += bracket;
    if (o_.indent) Newline(depth + 1);
  }
  void Separator(int depth) {
    out += o_.indent ? "," : ", ";
    if (o_.indent) Newline(depth + 1);
  }
  void Close(char bracket, int depth) {
    if (o_.indent) Newline(depth);
    out += bracket;
  }
  void String(std::string_view s) { AppendString(out, s, o_.ensure_ascii); }
  const DumpsOptions& options() const { return o_; }

 private:
  void Newline(int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(*o_.indent) * static_cast<std::size_t>(depth), ' ');
  }
  const DumpsOptions& o_;
};

[[noreturn]] void NotSerializable(const char* type) {
  throw std::invalid_argument(std::string("Object of type ") + type + " is not JSON serializable");
}

std::string KeyText(const Value& key) {
  if (const auto* s = std::get_if<std::string>(&key.v)) return *s;
  if (const auto* d = std::get_if<double>(&key.v)) return FloatText(*d);
  if (const auto* b = std::get_if<bool>(&key.v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<Int>(&key.v)) return IntRepr(i->negative, i->magnitude);
  if (std::holds_alternative<None>(key.v)) return "null";
  const char* type = std::holds_alternative<Tuple>(key.v) ? "tuple" : std::holds_alternative<Date>(key.v) ? "date"
                     : std::holds_alternative<DateTime>(key.v) ? "datetime" : "list";
  throw std::invalid_argument(std::string("keys must be str, int, float, bool or None, not ") + type);
}

void Dump(Writer& w, const Value& value, int depth);

void DumpItems(Writer& w, const std::vector<Value>& items, int depth) {
  if (items.empty()) {
    w.out += "[]";
    return;
  }
  w.Open('[', depth);
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k) w.Separator(depth);
    Dump(w, items[k], depth + 1);
  }
  w.Close(']', depth);
}

void DumpDict(Writer& w, const Dict& dict, int depth) {
  if (dict.empty()) {
    w.out += "{}";
    return;
  }
  std::vector<const DictItem*> items;
  for (const auto& item : dict) items.push_back(&item);
  if (w.options().sort_keys) {
    for (const DictItem* item : items)
      if (!std::holds_alternative<std::string>(item->key.v))
        throw std::invalid_argument("sort_keys: only str keys are supported");
    // UTF-8 (and WTF-8) byte order is code point order, as str compares.
    std::stable_sort(items.begin(), items.end(), [](const DictItem* a, const DictItem* b) {
      return std::get<std::string>(a->key.v) < std::get<std::string>(b->key.v);
    });
  }
  w.Open('{', depth);
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k) w.Separator(depth);
    w.String(KeyText(items[k]->key));
    w.out += ": ";
    Dump(w, items[k]->value, depth + 1);
  }
  w.Close('}', depth);
}

void Dump(Writer& w, const Value& value, int depth) {
  const auto& v = value.v;
  if (std::holds_alternative<None>(v)) w.out += "null";
  else if (const auto* b = std::get_if<bool>(&v)) w.out += *b ? "true" : "false";
  else if (const auto* i = std::get_if<Int>(&v)) w.out += IntRepr(i->negative, i->magnitude);
  else if (const auto* d = std::get_if<double>(&v)) w.out += FloatText(*d);
  else if (const auto* s = std::get_if<std::string>(&v)) w.String(*s);
  else if (const auto* l = std::get_if<List>(&v)) DumpItems(w, *l, depth);
  else if (const auto* t = std::get_if<Tuple>(&v)) DumpItems(w, t->items, depth);
  else if (const auto* m = std::get_if<Dict>(&v)) DumpDict(w, *m, depth);
  else NotSerializable(std::holds_alternative<Date>(v) ? "date" : "datetime");
}

void DumpJson(Writer& w, const Json& v, int depth) {
  switch (v.type()) {
    case Json::value_t::object:
    case Json::value_t::array: {
      const bool is_object = v.is_object();
      if (v.empty()) {
        w.out += is_object ? "{}" : "[]";
        return;
      }
      if (is_object && w.options().sort_keys) {
        DumpDict(w, std::get<Dict>(FromJson(v).v), depth);
        return;
      }
      w.Open(is_object ? '{' : '[', depth);
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) w.Separator(depth);
        first = false;
        if (is_object) {
          w.String(it.key());
          w.out += ": ";
        }
        DumpJson(w, it.value(), depth + 1);
      }
      w.Close(is_object ? '}' : ']', depth);
      return;
    }
    case Json::value_t::string:
      w.String(v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      w.out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_float:
      w.out += FloatText(v.get<double>());
      return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      w.out += v.dump();
      return;
    default:
      w.out += "null";
      return;
  }
}

}  // namespace

std::string Dumps(const Value& value, const DumpsOptions& options) {
  Writer w(options);
  Dump(w, value, 0);
  return std::move(w.out);
}

std::string Dumps(const Json& value, const DumpsOptions& options) {
  Writer w(options);
  DumpJson(w, value, 0);
  return std::move(w.out);
}

}  // namespace sbx::py
