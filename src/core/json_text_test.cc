// AppendJsonString and AppendJson must write exactly what nlohmann's dump
// (with invalid UTF-8 replaced) writes: every reply of the agent used to go
// through it, and clients and golden files saw its bytes.
#include "core/json_text.h"

#include <gtest/gtest.h>

#include <random>

namespace sbx {
namespace {

std::string Reference(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Fast(std::string_view s) {
  std::string out = "prefix:";
  AppendJsonString(out, s);
  return out.substr(7);
}

TEST(JsonText, EscapesAsNlohmann) {
  for (std::string s : {std::string(), std::string("plain"), std::string("a\"b\\c/d"),
                        std::string("\b\f\n\r\t"), std::string("\x01\x1f\x7f", 3),
                        std::string("nul\0byte", 8), std::string("é ü € 𝄞 ￿"),
                        std::string("\xed\x9f\xbf \xee\x80\x80 \xf4\x8f\xbf\xbf"),
                        std::string(100000, 'x') + "\n"}) {
    EXPECT_EQ(Fast(s), Reference(Json(s))) << Json(s).dump(-1, ' ', true, Json::error_handler_t::replace);
  }
  EXPECT_EQ(Fast("a\"\n\x01"), R"("a\"\n\u0001")");
}

TEST(JsonText, InvalidUtf8IsReplacedAsNlohmannDoes) {
  for (std::string s : {std::string("\xff"), std::string("ok\xc3"), std::string("\xc0\xaf"),
                        std::string("\xe0\x80\x80"), std::string("\xed\xa0\x80 surrogate"),
                        std::string("\xf4\x90\x80\x80"), std::string("\xf8\x88\x80\x80\x80"),
                        std::string("a\xe2\x82z\"\n")}) {
    EXPECT_EQ(Fast(s), Reference(Json(s)));
  }
}

// Random strings over an alphabet heavy in the bytes that matter (quotes,
// controls, lead and continuation bytes).
TEST(JsonText, RandomStringsMatch) {
  std::mt19937 rng(12345);
  const std::string alphabet = std::string("ab\"\\\n\t\x01\x1f ", 10) + "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x80\xbf\xff\xed\xa0";
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    std::size_t n = rng() % 24;
    for (std::size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    ASSERT_EQ(Fast(s), Reference(Json(s))) << round;
  }
}

TEST(JsonText, AppendJsonWritesAnyValueAsDump) {
  Json v = Json::parse(R"({"b":[1,2.5,-0.0,null,true,"x\u0001"],"a":{"é":"\n"}})");
  std::string out;
  AppendJson(out, v);
  EXPECT_EQ(out, Reference(v));
  out.clear();
  AppendJson(out, Json("str\"ing"));
  EXPECT_EQ(out, R"("str\"ing")");
}

TEST(JsonText, IndentedAsDump) {
  for (const char* text : {R"({"entities":[{"type":"entity","name":"A\"b","observations":[]}],"relations":[]})",
                           R"([1,[2,[3,{}]],{"a":{"b":{"c":null}}},"x"])", R"("just a string")", R"({})",
                           R"([])", R"({"k":[{},[],0.5,-3,true]})"}) {
    Json v = Json::parse(text);
    for (int indent : {0, 1, 2, 4}) {
      std::string out;
      AppendJsonIndented(out, v, indent);
      EXPECT_EQ(out, v.dump(indent, ' ', false, Json::error_handler_t::replace)) << text << " " << indent;
    }
  }
}

}  // namespace
}  // namespace sbx
