#include "python_text/value.h"

#include "python_text/repr.h"

namespace sbx::py {
namespace {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

void AppendItems(std::string& out, const std::vector<Value>& items) {
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k) out += ", ";
    out += Repr(items[k]);
  }
}

}  // namespace

Value FromJson(const Json& json) {
  switch (json.type()) {
    case Json::value_t::object: {
      Dict d;
      d.reserve(json.size());
      for (auto it = json.begin(); it != json.end(); ++it) d.push_back({Value(it.key()), FromJson(it.value())});
      return d;
    }
    case Json::value_t::array: {
      List l;
      l.reserve(json.size());
      for (const auto& item : json) l.push_back(FromJson(item));
      return l;
    }
    case Json::value_t::string:
      return json.get<std::string>();
    case Json::value_t::boolean:
      return json.get<bool>();
    case Json::value_t::number_integer:
      return json.get<std::int64_t>();
    case Json::value_t::number_unsigned:
      return Int{false, json.get<std::uint64_t>()};
    case Json::value_t::number_float:
      return json.get<double>();
    default:
      return None{};
  }
}

std::string Repr(const Value& value) {
  return std::visit(
      Overload{
          [](None) -> std::string { return "None"; },
          [](bool b) -> std::string { return b ? "True" : "False"; },
          [](const Int& i) { return IntRepr(i.negative, i.magnitude); },
          [](double d) { return FloatRepr(d); },
          [](const std::string& s) { return Repr(std::string_view(s)); },
          [](const List& l) {
            std::string out = "[";
            AppendItems(out, l);
            return out + "]";
          },
          [](const Tuple& t) {
            std::string out = "(";
            AppendItems(out, t.items);
            // A 1-tuple keeps its comma: (1,).
            return out + (t.items.size() == 1 ? ",)" : ")");
          },
          [](const Dict& d) {
            std::string out = "{";
            for (std::size_t k = 0; k < d.size(); ++k) {
              if (k) out += ", ";
              out += Repr(d[k].key) + ": " + Repr(d[k].value);
            }
            return out + "}";
          },
          [](const Date& d) { return Repr(d); },
          [](const DateTime& d) { return Repr(d); },
      },
      value.v);
}

std::string Str(const Value& value) {
  if (const auto* s = std::get_if<std::string>(&value.v)) return *s;
  if (const auto* d = std::get_if<Date>(&value.v)) return Str(*d);
  if (const auto* d = std::get_if<DateTime>(&value.v)) return Str(*d);
  return Repr(value);
}

}  // namespace sbx::py
