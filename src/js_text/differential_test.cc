// Differential tests: thousands of generated values rendered by this
// library and by Debian's Node (/usr/bin/node), compared exactly. A
// deterministic generator covers astral characters, lone surrogates,
// control characters, NaN/Infinity, -0, subnormals, huge and tiny numbers,
// nesting and empty containers; values travel to Node as tagged JSON
// (strings as code point lists, numbers as their bits), results come back
// as code point lists.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/utf8.h"
#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/number.h"
#include "servers/test_support/interpreter.h"

namespace sbx::js {
namespace {

constexpr const char* kNode = "/usr/bin/node";

constexpr const char* kScript = R"JS(
const number = (hex) => new DataView(Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16)).buffer).getFloat64(0);
function dec(x) {
  switch (x[0]) {
    case "N": return null;
    case "B": return !!x[1];
    case "F": return number(x[1]);
    case "S": return String.fromCodePoint(...x[1]);
    case "L": return x[1].map(dec);
    case "O": return Object.fromEntries(x[1].map(([k, v]) => [dec(k), dec(v)]));
  }
  throw new Error(x[0]);
}
function run([rule, v, arg]) {
  switch (rule) {
    case "stringify": return JSON.stringify(dec(v), null, arg);
    case "number": return String(number(v));
    case "toFixed": return number(v).toFixed(arg);
    case "iso": return new Date(v).toISOString();
  }
  throw new Error(rule);
}
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => Array.from(run(c), (ch) => ch.codePointAt(0)))));
)JS";

using test::Rng;

char32_t RandomCodePoint(Rng& r) {
  static const std::pair<char32_t, char32_t> kRanges[] = {
      {0x20, 0x7E}, {0x00, 0x1F}, {0x7F, 0xFF}, {0x2000, 0x206F}, {0xD800, 0xDFFF}, {0xFEFF, 0xFFFF},
      {0x4E00, 0x9FFF}, {0x1F600, 0x1F64F}, {0x10000, 0x10FFFF}};
  if (r.OneIn(4)) return U"'\"\\\n\r\t\b\f/"[r.Below(9)];
  const auto& [lo, hi] = kRanges[r.Below(std::size(kRanges))];
  return lo + static_cast<char32_t>(r.Below(hi - lo + 1));
}

// A string in WTF-8. A lone high surrogate followed by a low one would be
// one pair to JavaScript: such neighbours are kept apart.
std::string RandomString(Rng& r, std::size_t max_len = 10) {
  std::string s;
  bool after_high = false;
  for (std::size_t n = r.Below(max_len + 1); n > 0; --n) {
    char32_t c = RandomCodePoint(r);
    if (after_high && c >= 0xDC00 && c <= 0xDFFF) c = 'x';
    after_high = c >= 0xD800 && c <= 0xDBFF;
    utf8::Append(s, c);
  }
  return s;
}

double RandomNumber(Rng& r) {
  static const double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 5e-324, 2.2250738585072014e-308,
                                    1.7976931348623157e308, 1e21, 999999999999999900000.0, 1e-7, 1.5e-7, 1e-6,
                                    0.1, 1.0 / 3, 9007199254740993.0, 123e-20, 4.35, 1.005, 0.5, 2.5};
  switch (r.Below(5)) {
    case 0: return kSpecial[r.Below(std::size(kSpecial))];
    case 1: {
      return test::DoubleFromBits(r.Next());
    }
    case 2: return std::ldexp(static_cast<double>(r.Below(1ull << 52)), -1074) * (r.OneIn(2) ? -1 : 1);
    case 3: return static_cast<double>(r.Below(100000)) * std::pow(10.0, static_cast<double>(r.Below(60)) - 30.0);
    default:
      return std::ldexp(1.0 + static_cast<double>(r.Below(1u << 20)) / (1u << 20), static_cast<int>(r.Below(160)) - 80);
  }
}

// A key JavaScript keeps in insertion order: never an array index.
std::string RandomKey(Rng& r) {
  std::string key = RandomString(r, 5);
  return key.find_first_not_of("0123456789") == std::string::npos ? key + "k" : key;
}

// The value and its tagged form for Node.
std::pair<Json, Json> RandomValue(Rng& r, int depth) {
  auto str = [](const std::string& s) {
    Json cps = Json::array();
    for (std::size_t k = 0; k < s.size();) cps.push_back(static_cast<std::uint32_t>(utf8::Next(s, k, utf8::Surrogates::kAllow)));
    return Json::array({"S", cps});
  };
  switch (r.Below(depth >= 3 ? 5 : 8)) {
    case 0: return {nullptr, Json::array({"N"})};
    case 1: {
      bool b = r.OneIn(2);
      return {b, Json::array({"B", b ? 1 : 0})};
    }
    case 2: {
      double d = RandomNumber(r);
      return {d, Json::array({"F", test::DoubleBits(d)})};
    }
    case 3:
    case 4: {
      std::string s = RandomString(r);
      return {s, str(s)};
    }
    case 5:
    case 6: {
      Json ours = Json::array(), tagged = Json::array();
      for (std::uint64_t n = r.Below(4); n > 0; --n) {
        auto [o, t] = RandomValue(r, depth + 1);
        ours.push_back(o);
        tagged.push_back(t);
      }
      return {ours, Json::array({"L", tagged})};
    }
    default: {
      Json ours = Json::object(), tagged = Json::array();
      std::set<std::string> seen;
      for (std::uint64_t n = r.Below(4); n > 0; --n) {
        std::string key = RandomKey(r);
        if (!seen.insert(key).second) continue;
        auto [o, t] = RandomValue(r, depth + 1);
        ours[key] = o;
        tagged.push_back(Json::array({str(key), t}));
      }
      return {ours, Json::array({"O", tagged})};
    }
  }
}

struct Case {
  Json input;
  std::string ours;
};

TEST(JsDifferential, MatchesNode) {
  if (!test::HaveInterpreter(kNode)) GTEST_SKIP() << kNode << " is not installed: no V8 to compare with";
  Rng r(20240614);
  std::vector<Case> cases;
  for (int k = 0; k < 3000; ++k) {
    auto [value, tagged] = RandomValue(r, 0);
    cases.push_back({Json::array({"stringify", tagged, 0}), Stringify(value)});
    int indent = static_cast<int>(1 + r.Below(12));
    cases.push_back({Json::array({"stringify", tagged, indent}), Stringify(value, indent)});
    double d = RandomNumber(r);
    cases.push_back({Json::array({"number", test::DoubleBits(d)}), NumberToString(d)});
    double fixed = static_cast<double>(static_cast<std::int64_t>(r.Below(2'000'000'000))) / std::pow(10.0, static_cast<double>(r.Below(12))) * (r.OneIn(2) ? -1 : 1);
    int digits = static_cast<int>(r.Below(21));
    cases.push_back({Json::array({"toFixed", test::DoubleBits(fixed), digits}), ToFixed(fixed, digits)});
    auto ms = static_cast<std::int64_t>(r.Below(2 * 8'640'000'000'000'000ull + 1)) - 8'640'000'000'000'000LL;
    if (r.OneIn(2)) ms /= static_cast<std::int64_t>(1 + r.Below(100000));
    cases.push_back({Json::array({"iso", ms}), ToIsoString(ms)});
  }
  Json input = Json::array();
  for (const auto& c : cases) input.push_back(c.input);
  Json answers = test::RunInterpreter(kNode, kScript, input);
  ASSERT_EQ(answers.size(), cases.size());
  int mismatches = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::string theirs;
    for (const auto& cp : answers[k]) utf8::Append(theirs, cp.get<char32_t>());
    if (theirs == cases[k].ours) continue;
    if (++mismatches <= 15)
      ADD_FAILURE() << "case " << k << " " << cases[k].input.dump() << "\n  ours: " << cases[k].ours
                    << "\n  Node: " << theirs;
  }
  EXPECT_EQ(mismatches, 0) << "of " << cases.size() << " cases";
}

}  // namespace
}  // namespace sbx::js
