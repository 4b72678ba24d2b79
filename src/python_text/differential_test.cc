// Differential tests: thousands of generated values rendered by this
// library and by Debian's CPython (/usr/bin/python3), compared byte for
// byte. A deterministic generator covers astral characters, lone
// surrogates, control characters, NaN/Infinity, -0.0, subnormals, huge and
// tiny floats, integers beyond 2**53, nesting and empty containers; values
// travel to Python as tagged JSON (strings as code point lists, floats as
// their bits), results come back as hex of their surrogatepass UTF-8.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "core/utf8.h"
#include "python_text/codec.h"
#include "python_text/json_dumps.h"
#include "python_text/repr.h"
#include "python_text/value.h"
#include "servers/test_support/interpreter.h"

namespace sbx::py {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

constexpr const char* kScript = R"PY(
import datetime, json, struct, sys

def dec(x):
    t = x[0]
    if t == "N": return None
    if t == "B": return bool(x[1])
    if t == "I": return int(x[1])
    if t == "F": return struct.unpack(">d", bytes.fromhex(x[1]))[0]
    if t == "S": return "".join(map(chr, x[1]))
    if t == "L": return [dec(v) for v in x[1]]
    if t == "T": return tuple(dec(v) for v in x[1])
    if t == "D": return {dec(k): dec(v) for k, v in x[1]}
    if t == "DA": return datetime.date(*x[1])
    if t == "DT":
        y, mo, d, h, mi, s, us, off = x[1]
        tz = None if off is None else datetime.timezone(datetime.timedelta(seconds=off))
        return datetime.datetime(y, mo, d, h, mi, s, us, tzinfo=tz)
    raise ValueError(t)

def run(rule, v):
    if rule == "repr": return repr(dec(v))
    if rule == "str": return str(dec(v))
    if rule == "dumps": return json.dumps(dec(v))
    if rule == "dumps_raw": return json.dumps(dec(v), ensure_ascii=False)
    if rule == "dumps_indent": return json.dumps(dec(v), indent=2)
    if rule == "dumps_indent0": return json.dumps(dec(v), indent=0, ensure_ascii=False)
    if rule == "dumps_sorted": return json.dumps(dec(v), sort_keys=True)
    if rule == "isoformat": return dec(v).isoformat()
    if rule in ("decode_error", "decode_replace"):
        b = bytes.fromhex(v)
        try:
            text = b.decode("utf-8")
            return text if rule == "decode_replace" else ""
        except UnicodeDecodeError as e:
            return b.decode("utf-8", "replace") if rule == "decode_replace" else str(e)
    if rule == "encode_error":
        try:
            dec(v).encode("utf-8")
            return ""
        except UnicodeEncodeError as e:
            return str(e)
    raise ValueError(rule)

cases = json.load(sys.stdin)
json.dump([run(r, v).encode("utf-8", "surrogatepass").hex() for r, v in cases], sys.stdout)
)PY";

using test::Rng;

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string Unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

// Code points whose Unicode category has been settled since long before
// the versions in play (Python 3.11's Unicode 14, ICU 72's Unicode 15):
// newer assignments would make str.isprintable differ for reasons of data,
// not of rules.
char32_t RandomCodePoint(Rng& r) {
  static const std::pair<char32_t, char32_t> kRanges[] = {
      {0x20, 0x7E},       {0x00, 0x1F},       {0x7F, 0xFF},       {0x100, 0x24F},     {0x370, 0x3FF},
      {0x400, 0x4FF},     {0x2000, 0x206F},   {0x3000, 0x303F},   {0x4E00, 0x9FA5},   {0xD800, 0xDFFF},
      {0xE000, 0xE0FF},   {0xFFF0, 0xFFFF},   {0x1F600, 0x1F64F}, {0x20000, 0x2A6D6}, {0xE0000, 0xE007F},
      {0x50000, 0x5FFFF}, {0x10FF00, 0x10FFFF}};
  if (r.OneIn(4)) return U"'\"\\\n\r\t\b\f "[r.Below(9)];
  const auto& [lo, hi] = kRanges[r.Below(std::size(kRanges))];
  return lo + static_cast<char32_t>(r.Below(hi - lo + 1));
}

std::string RandomString(Rng& r, std::size_t max_len = 12) {
  std::string s;
  std::size_t n = r.Below(max_len + 1);
  for (std::size_t k = 0; k < n; ++k) utf8::Append(s, RandomCodePoint(r));
  return s;
}

double RandomFloat(Rng& r) {
  static const double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 5e-324, 2.2250738585072014e-308,
                                    2.225073858507201e-308, 1.7976931348623157e308, 1e16, 1e15, 9999999999999998.0,
                                    1e-4, 1e-5, 0.1, 1.0 / 3, 9007199254740993.0, 1e21, 1e22, 123456789012345680.0};
  switch (r.Below(5)) {
    case 0:
      return kSpecial[r.Below(std::size(kSpecial))];
    case 1: {  // any bit pattern (NaN payloads included)
      return test::DoubleFromBits(r.Next());
    }
    case 2:  // subnormals
      return std::ldexp(static_cast<double>(r.Below(1ull << 52)), -1074) * (r.OneIn(2) ? -1 : 1);
    case 3:  // short decimals around every exponent
      return static_cast<double>(r.Below(100000)) * std::pow(10.0, static_cast<double>(r.Below(60)) - 30.0);
    default:  // the boundaries of the plain forms
      return std::ldexp(1.0 + static_cast<double>(r.Below(1u << 20)) / (1u << 20),
                        static_cast<int>(r.Below(140)) - 70);
  }
}

Int RandomInt(Rng& r) {
  switch (r.Below(4)) {
    case 0: return {r.OneIn(2), r.Below(100)};
    case 1: return {r.OneIn(2), (1ull << 53) + r.Below(5) - 2};
    case 2: return {r.OneIn(2), ~0ull - r.Below(3)};
    default: return {r.OneIn(2), r.Next() >> r.Below(64)};
  }
}

DateTime RandomDateTime(Rng& r) {
  DateTime dt;
  dt.date = {static_cast<int>(1 + r.Below(9999)), static_cast<int>(1 + r.Below(12)), static_cast<int>(1 + r.Below(28))};
  dt.hour = static_cast<int>(r.Below(24));
  dt.minute = static_cast<int>(r.Below(60));
  dt.second = r.OneIn(3) ? 0 : static_cast<int>(r.Below(60));
  dt.microsecond = r.OneIn(2) ? 0 : static_cast<int>(r.Below(1000000));
  if (!r.OneIn(3)) {
    int off = r.OneIn(4) ? 0 : static_cast<int>(r.Below(48 * 60)) * 60 - 24 * 3600 + 60;
    if (r.OneIn(5)) off += static_cast<int>(r.Below(59)) + 1;
    if (off >= 86400) off = 86399;
    dt.utc_offset = off;
  }
  return dt;
}

// What a value may hold: json.dumps refuses dates and container keys, and
// sort_keys only sorts str keys here.
enum class Kind { kAny, kJson, kJsonStrKeys };

Value RandomValue(Rng& r, Kind kind, int depth);

Value RandomKey(Rng& r, Kind kind, std::set<std::string>& seen) {
  for (;;) {
    Value key;
    std::string canonical;
    std::uint64_t pick = kind == Kind::kJsonStrKeys ? 0 : r.Below(kind == Kind::kAny ? 6 : 5);
    if (pick <= 1) {
      key = RandomString(r, 6);
      canonical = "s" + std::get<std::string>(key.v);
    } else if (pick == 2) {
      // Python folds equal numbers (and True/1) into one key: keep them apart.
      Int i{r.OneIn(2), 2 + r.Below(1000)};
      key = i;
      canonical = "n" + IntRepr(i.negative, i.magnitude);
    } else if (pick == 3) {
      double d = static_cast<double>(r.Below(1000)) + 0.5;
      key = d;
      canonical = "n" + FloatRepr(d);
    } else if (pick == 4) {
      if (r.OneIn(2)) key = None{}, canonical = "None";
      else key = r.OneIn(2), canonical = std::get<bool>(key.v) ? "True" : "False";
    } else {
      key = Tuple{{RandomString(r, 3), Value(static_cast<int>(r.Below(5)) + 2)}};
      canonical = "t" + Repr(key);
    }
    if (seen.insert(canonical).second) return key;
  }
}

Value RandomValue(Rng& r, Kind kind, int depth) {
  std::uint64_t pick = r.Below(depth >= 3 ? 7 : 11);
  switch (pick) {
    case 0: return None{};
    case 1: return r.OneIn(2);
    case 2: return RandomInt(r);
    case 3: return RandomFloat(r);
    case 4:
    case 5: return RandomString(r);
    case 6:
      if (kind != Kind::kAny) return RandomString(r);
      if (r.OneIn(2)) return Date{static_cast<int>(1 + r.Below(9999)), static_cast<int>(1 + r.Below(12)),
                                  static_cast<int>(1 + r.Below(28))};
      return RandomDateTime(r);
    case 7:
    case 8: {
      List l;
      for (std::uint64_t n = r.Below(4); n > 0; --n) l.push_back(RandomValue(r, kind, depth + 1));
      if (pick == 8) return Tuple{std::move(l)};
      return l;
    }
    default: {
      Dict d;
      std::set<std::string> seen;
      for (std::uint64_t n = r.Below(4); n > 0; --n) d.push_back({RandomKey(r, kind, seen), RandomValue(r, kind, depth + 1)});
      return d;
    }
  }
}

Json Encode(const Value& value) {
  const auto& v = value.v;
  if (std::holds_alternative<None>(v)) return Json::array({"N"});
  if (const auto* b = std::get_if<bool>(&v)) return Json::array({"B", *b ? 1 : 0});
  if (const auto* i = std::get_if<Int>(&v)) return Json::array({"I", IntRepr(i->negative, i->magnitude)});
  if (const auto* d = std::get_if<double>(&v)) return Json::array({"F", test::DoubleBits(*d)});
  if (const auto* s = std::get_if<std::string>(&v)) {
    Json cps = Json::array();
    for (std::size_t k = 0; k < s->size();) cps.push_back(static_cast<std::uint32_t>(utf8::Next(*s, k, utf8::Surrogates::kAllow)));
    return Json::array({"S", cps});
  }
  auto items = [](const std::vector<Value>& xs) {
    Json a = Json::array();
    for (const auto& x : xs) a.push_back(Encode(x));
    return a;
  };
  if (const auto* l = std::get_if<List>(&v)) return Json::array({"L", items(*l)});
  if (const auto* t = std::get_if<Tuple>(&v)) return Json::array({"T", items(t->items)});
  if (const auto* m = std::get_if<Dict>(&v)) {
    Json a = Json::array();
    for (const auto& [key, val] : *m) a.push_back(Json::array({Encode(key), Encode(val)}));
    return Json::array({"D", a});
  }
  if (const auto* d = std::get_if<Date>(&v)) return Json::array({"DA", {d->year, d->month, d->day}});
  const auto& dt = std::get<DateTime>(v);
  Json off = dt.utc_offset ? Json(*dt.utc_offset) : Json(nullptr);
  return Json::array({"DT", {dt.date.year, dt.date.month, dt.date.day, dt.hour, dt.minute, dt.second, dt.microsecond, off}});
}

std::string RandomBytes(Rng& r) {
  // Mostly UTF-8 with a few stray, cut or overlong bytes.
  std::string s;
  for (std::uint64_t n = r.Below(8); n > 0; --n) {
    if (r.OneIn(3)) s += static_cast<char>(r.Below(256));
    else utf8::Append(s, RandomCodePoint(r));
  }
  if (r.OneIn(4) && !s.empty()) s.pop_back();
  return s;
}

struct Case {
  std::string rule;
  Json input;
  std::string ours;
};

void Add(std::vector<Case>& cases, std::string rule, const Value& v, std::string ours) {
  cases.push_back({std::move(rule), Encode(v), std::move(ours)});
}

TEST(PythonDifferential, MatchesCPython) {
  if (!test::HaveInterpreter(kPython)) GTEST_SKIP() << kPython << " is not installed: no CPython to compare with";
  Rng r(20240614);
  std::vector<Case> cases;
  for (int k = 0; k < 3000; ++k) {
    Value any = RandomValue(r, Kind::kAny, 0);
    Add(cases, "repr", any, Repr(any));
    Add(cases, "str", any, Str(any));
    Value json = RandomValue(r, Kind::kJson, 0);
    Add(cases, "dumps", json, Dumps(json));
    Add(cases, "dumps_raw", json, Dumps(json, {.indent = std::nullopt, .ensure_ascii = false}));
    Add(cases, "dumps_indent0", json, Dumps(json, {.indent = 0, .ensure_ascii = false}));
    Value keyed = RandomValue(r, Kind::kJsonStrKeys, 0);
    Add(cases, "dumps_indent", keyed, Dumps(keyed, {.indent = 2}));
    Add(cases, "dumps_sorted", keyed, Dumps(keyed, {.indent = std::nullopt, .ensure_ascii = true, .sort_keys = true}));
    DateTime dt = RandomDateTime(r);
    Add(cases, "isoformat", dt, IsoFormat(dt));
    Value text = RandomString(r, 8);
    Add(cases, "encode_error", text, Utf8EncodeError(std::get<std::string>(text.v)).value_or(""));
    std::string bytes = RandomBytes(r);
    cases.push_back({"decode_error", Hex(bytes), Utf8DecodeError(bytes).value_or("")});
    cases.push_back({"decode_replace", Hex(bytes), DecodeUtf8Replace(bytes)});
  }
  Json input = Json::array();
  for (const auto& c : cases) input.push_back(Json::array({c.rule, c.input}));
  Json answers = test::RunInterpreter(kPython, kScript, input);
  ASSERT_EQ(answers.size(), cases.size());
  int mismatches = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::string theirs = Unhex(answers[k].get<std::string>());
    if (theirs == cases[k].ours) continue;
    if (++mismatches <= 15)
      ADD_FAILURE() << "case " << k << " (" << cases[k].rule << ") " << cases[k].input.dump() << "\n  ours:    "
                    << cases[k].ours << "\n  CPython: " << theirs;
  }
  EXPECT_EQ(mismatches, 0) << "of " << cases.size() << " cases";
}

}  // namespace
}  // namespace sbx::py
