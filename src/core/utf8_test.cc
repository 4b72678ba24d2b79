// The UTF-8 helpers every server shares: decoding, and the counts and cuts
// bounded outputs and schema checks make.
#include "core/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace sbx::utf8 {
namespace {

TEST(Utf8Test, DecodeReadsEachFormAndRefusesIllFormedBytes) {
  std::string s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";  // a é € 😀
  std::size_t i = 0;
  EXPECT_EQ(Next(s, i), U'a');
  EXPECT_EQ(Next(s, i), U'\u00e9');
  EXPECT_EQ(Next(s, i), U'\u20ac');
  EXPECT_EQ(Next(s, i), U'\U0001F600');
  EXPECT_EQ(i, s.size());
  EXPECT_TRUE(IsWellFormed(s));
  EXPECT_FALSE(IsWellFormed("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsWellFormed("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsWellFormed("\xf4\x90\x80\x80"));  // beyond U+10FFFF
  EXPECT_FALSE(IsWellFormed("\xe2\x82"));          // cut short
  EXPECT_EQ(ReplaceInvalid("a\xe2\x82z\xff"), "a\xef\xbf\xbdz\xef\xbf\xbd");
}

TEST(Utf8Test, CountCodePointsCountsCharactersNotBytes) {
  EXPECT_EQ(CountCodePoints(""), 0u);
  EXPECT_EQ(CountCodePoints("abc"), 3u);
  EXPECT_EQ(CountCodePoints("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 3u);
  EXPECT_EQ(CountCodePoints("\x80\x80"), 0u);  // stray continuation bytes start nothing
}

TEST(Utf8Test, NextBoundarySkipsContinuationBytes) {
  std::string s = "x\xe2\x82\xac" "y";
  EXPECT_EQ(NextBoundary(s, 0), 0u);
  EXPECT_EQ(NextBoundary(s, 1), 1u);
  EXPECT_EQ(NextBoundary(s, 2), 4u);
  EXPECT_EQ(NextBoundary(s, 3), 4u);
  EXPECT_EQ(NextBoundary(s, 5), 5u);
  EXPECT_EQ(NextBoundary("\x80\x80", 0), 2u);
}

TEST(Utf8Test, DropIncompleteTailKeepsWholeCharactersOnly) {
  auto dropped = [](std::string s) {
    DropIncompleteTail(s);
    return s;
  };
  EXPECT_EQ(dropped("ab"), "ab");
  EXPECT_EQ(dropped("a\xe2\x82\xac"), "a\xe2\x82\xac");  // complete
  EXPECT_EQ(dropped("a\xe2\x82"), "a");                  // two of three bytes
  EXPECT_EQ(dropped("a\xf0\x9f\x98"), "a");              // three of four
  EXPECT_EQ(dropped("a\xc3"), "a");                      // a lone lead byte
  EXPECT_EQ(dropped("\x80\x80"), "\x80\x80");            // nothing to attach to: left as is
  EXPECT_EQ(dropped(""), "");
}

}  // namespace
}  // namespace sbx::utf8
