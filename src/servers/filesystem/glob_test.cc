// minimatch and brace-expansion semantics, checked against the npm packages:
// every expectation below is what minimatch 10.2.6 ({dot: true}) and
// brace-expansion 5.0.13 answered on Node 20.
#include <gtest/gtest.h>

#include "core/utf8.h"
#include "js_text/json.h"
#include "servers/filesystem/brace_expansion.h"
#include "servers/filesystem/glob_regex.h"
#include "servers/filesystem/minimatch.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::filesystem {
namespace {

enum Expect { kMatch, kNoMatch, kThrows };

struct GlobCase {
  const char* path;
  const char* pattern;
  Expect expect;
};

// A sample of the 11,000 cases compared during development (all agreed).
const GlobCase kGlobCases[] = {
    {"*", "!(*.b|a)[[:alpha:]][ab][ab]*", kMatch},
    {"*", "!|b*(b)[ab]", kMatch},
    {"b", "?", kMatch},
    {"a/b", "![ab]", kMatch},
    {".a", "!(*.b|a)\\*+(a|.b)", kMatch},
    {"ab", "!(a)![[:alpha:]])?(a|b)", kMatch},
    {"a/.b", "!@(a|b)a!(*.b|a)+(a|.b)", kMatch},
    {"x.TXT", "[^a]*", kMatch},
    {"a(b).txt", "*!(a)", kMatch},
    {"ab/ba/a", "**", kMatch},
    {"b", "**", kMatch},
    {"abb", "!(*.b|a)/x[[:alpha:]]", kMatch},
    {"b", "*{a,b}", kMatch},
    {".", "!(*.b|a)[[:alpha:]]\\*", kMatch},
    {"*", "!ba[!a]a", kMatch},
    {"a(b).txt", "!(*.log|*.txt)", kMatch},
    {"xfoo", "[[:alpha:]]*", kMatch},
    {"ba", "*", kMatch},
    {"a10", "[a-z0-9]*", kMatch},
    {"😀.png", "!(a|b)*", kMatch},
    {"foobar", "!(*.log|*.txt)", kMatch},
    {"a/.b", "!(a)@(a|b)!", kMatch},
    {"b/a/b", "!(*.b|a)a", kMatch},
    {"ab/ba/a", "!(a)./a)", kMatch},
    {"xa", "**[[:alpha:]]*(b)", kMatch},
    {"dir/sub/.hidden", "!*.txt", kMatch},
    {".a/b", "**", kMatch},
    {"b", "!(*.b|a)", kMatch},
    {"abb", "!(![!a]", kMatch},
    {".", "!(*.b|a)[[:alpha:]](@(a|b)", kMatch},
    {"x", "[!a]", kMatch},
    {"a/b/c", "!!!(*.b|a)!", kMatch},
    {"aab", "!**.?(a|b)?(a|b)", kMatch},
    {"a,b", "[a-z0-9]*", kMatch},
    {"a/b", "!(/!(*.b|a)", kMatch},
    {"b.js", "[a-c]*", kMatch},
    {"b/a/b", "!(a)(*(b)\\*.", kMatch},
    {"src/node_modules/y.js", "!(a|b)*", kMatch},
    {"src/node_modules/y.js", "**/*.js", kMatch},
    {"dir/sub/c.js", "!*.txt", kMatch},
    {"x.TXT", "[[:alpha:]]*", kMatch},
    {"a", "[a-z0-9]*", kMatch},
    {".b", "***(b)", kMatch},
    {"dir/a.txt", "**/*.txt", kMatch},
    {"a", "!?(a|b)[ab].a[[:alpha:]]", kMatch},
    {"a/b/c", "!(a)", kMatch},
    {"tests/unit/x.test.ts", "tests/**", kMatch},
    {"b", "!(a)@(a|b)x*(b)", kMatch},
    {"ba", "!(a)", kMatch},
    {".env", "**", kMatch},
    {"abb", "@(a|b)**", kMatch},
    {"ab", "*!(a)", kMatch},
    {"x", "!?!(a)[ab]**", kMatch},
    {"a2", "[[:alpha:]]*", kMatch},
    {"a/.b", "!**{a,b}", kMatch},
    {"a.txt", "[a-c]*", kMatch},
    {"ab/ba/a", "!(*.b|a)", kMatch},
    {"foobar", "**", kMatch},
    {"b", "!(a)!(a)", kMatch},
    {".", "!\\*", kMatch},
    {"ad.ts", "!(*.txt)", kMatch},
    {"ab", "!(a)/", kMatch},
    {"a.b", "+(a|.b)", kMatch},
    {"foo", "*!(a)", kMatch},
    {"xa", "[!a]?(a|b)", kMatch},
    {"a{b}c", "[[:alpha:]]*", kMatch},
    {"file.test.js", "!(*.log|*.txt)", kMatch},
    {"a", "[a-*(b).[ab]", kMatch},
    {"ab", "!(foo)", kMatch},
    {"abb", "*[[:alpha:]]", kMatch},
    {"a1", "*!(a)", kMatch},
    {"dir/a.txt", "dir/*", kMatch},
    {".git", "!(a|b)*", kMatch},
    {"xa", "!(a).a", kMatch},
    {".a", "*(b)*", kMatch},
    {"logs/b.log", "!(*.txt)", kMatch},
    {"ba", "!(*.b|a){a,b}?(a|b).ax", kMatch},
    {"logs/b.log", "!(foo)", kMatch},
    {"a2", "*", kMatch},
    {"b", "*", kMatch},
    {".git", "**/.*", kMatch},
    {"b.js", "!(foo)", kMatch},
    {"aaa/bbb", "!x@(a|b)[a-[[:alpha:]]", kMatch},
    {"a.txt", "*", kMatch},
    {"a.b.c", "[a-z0-9]*", kMatch},
    {"a.b.c", "*.*", kMatch},
    {"node_modules", "*!(a)", kMatch},
    {"abb", "![ab]", kMatch},
    {"ba", "[ab]?", kMatch},
    {"x", "*", kMatch},
    {"b", "[a-*(b)!(*.b|a)[[:alpha:]]", kMatch},
    {"a", "!(a)", kMatch},
    {".git/config", "!*.txt", kMatch},
    {"ab", "!.", kMatch},
    {".env", "[^a]*", kMatch},
    {"aab", "+(a|.b)*(b)", kMatch},
    {"a", "!", kMatch},
    {"ac.ts", "[[:alpha:]]*", kMatch},
    {"...", "*(.)*", kMatch},
    {"foobar", "[[:alpha:]]*", kMatch},
    {"file.test.js", "!(*.txt)", kMatch},
    {"...", "!(foo)", kMatch},
    {"b.js", "[!a]*", kMatch},
    {"b", "!(a)@(a|b)?", kMatch},
    {"é.txt", "**", kMatch},
    {"é.txt", "*!(a)", kMatch},
    {"a\\b", "!*.txt", kMatch},
    {"aab", "!", kMatch},
    {"a.log", "{a,b}.*", kMatch},
    {"a.txt", "*(.)*", kMatch},
    {".git/config", "#foo", kNoMatch},
    {"*", ".{a,b}.*(b)", kNoMatch},
    {"a/b", "{a,b}", kNoMatch},
    {"ab", "[[]x].txt", kNoMatch},
    {"b/a/b", "\\**(b)|.a", kNoMatch},
    {"a\\b", "*(a|b)c", kNoMatch},
    {"aaa/bbb", "[!a]", kNoMatch},
    {"xa", "/?(a|b)[a-", kNoMatch},
    {"a\\b", "[a-", kNoMatch},
    {"a-b", "[[:digit:]]", kNoMatch},
    {"ba", "?\?(a|b)!(a)\\*[ab]", kNoMatch},
    {"x", "|+(a|.b)", kNoMatch},
    {"😀.png", "**/*.test.{js,ts}", kNoMatch},
    {"a/b", "/x?(a|b)[ab]", kNoMatch},
    {"b", "([ab][!a]!", kNoMatch},
    {"ad.ts", "dir/sub/*", kNoMatch},
    {"a.txt", "**/node_modules/**", kNoMatch},
    {".a", "[ab]", kNoMatch},
    {"aab", "|**@(a|b)!", kNoMatch},
    {"dir/a.txt", "\\[x\\].txt", kNoMatch},
    {"ad.ts", "", kNoMatch},
    {"a\\b", "#foo", kNoMatch},
    {"a/b/c", "[a-(", kNoMatch},
    {"deep/a/b/c/d.txt", "*.+(txt|js)", kNoMatch},
    {"node_modules/x/index.js", "{a,b}.*", kNoMatch},
    {"x.TXT", "?\?", kNoMatch},
    {"ad.ts", "é*", kNoMatch},
    {".a", ".x!(a)+(a|.b)b", kNoMatch},
    {"x/y/z", "*(a|b)c", kNoMatch},
    {"b.js", "[a-", kNoMatch},
    {"ba", "{a,b}.a", kNoMatch},
    {"ab", "[!a](", kNoMatch},
    {"ba", "[!a]*(b)[[:alpha:]][[:alpha:]]", kNoMatch},
    {"foobar", "*/*/*", kNoMatch},
    {"foobar", "*́.txt", kNoMatch},
    {"logs/b.log", "[abc].txt", kNoMatch},
    {"ac.ts", "**/unit/**", kNoMatch},
    {"test", "a[b-a]c", kNoMatch},
    {"dir", "[!]]", kNoMatch},
    {"ba", "?+(a|.b)!(a)x", kNoMatch},
    {"aaa/bbb", "+(a|.b)?*", kNoMatch},
    {"aaa/bbb", "*(b)[[:alpha:]]!(*.b|a)", kNoMatch},
    {"a,b", "{}", kNoMatch},
    {"a.a/b.b", "+(a|.b)", kNoMatch},
    {"[x].txt", "**/.*", kNoMatch},
    {"b", ".a?(a|b)", kNoMatch},
    {"a", "deep/**/c/**/d.txt", kNoMatch},
    {".env", "x/**/z", kNoMatch},
    {"a..b", "[!a][[:alpha:]]x[ab]!(a)", kNoMatch},
    {"a10", "a{1..3}", kNoMatch},
    {"tests/unit/x.test.ts", "a/**/", kNoMatch},
    {"a\\b", "*́.txt", kNoMatch},
    {"dir/.env", "*.log", kNoMatch},
    {"a.b", "/{a,b}.a\\*.", kNoMatch},
    {"a{b}c", "*(", kNoMatch},
    {"abb", "[a-x[[:alpha:]](@(a|b)", kNoMatch},
    {"ab", "?(a|b))|{a,b})", kNoMatch},
    {"xfoo", "[[:digit:]]", kNoMatch},
    {"a.b", "b!(a).x(", kNoMatch},
    {"src/node_modules/y.js", "node_modules", kNoMatch},
    {"é.txt", "/a.txt", kNoMatch},
    {"é.txt", "*.t\\xt", kNoMatch},
    {"node_modules", "{a,b", kNoMatch},
    {"ab/ba/a", "x)[[:alpha:]]", kNoMatch},
    {"...", "**/unit/**", kNoMatch},
    {"test", "foo", kNoMatch},
    {"ab/ba/a", "?[[:alpha:]]", kNoMatch},
    {"x/y/z", "**/.*", kNoMatch},
    {"a/.b", "[[:alpha:]]?(a|b))", kNoMatch},
    {"a.a/b.b", "x", kNoMatch},
    {"a..b", "*(b)(.a*.", kNoMatch},
    {"a..b", "*(b)", kNoMatch},
    {"ab", "?", kNoMatch},
    {"foo", "{a,b", kNoMatch},
    {"a,b", "**/.hidden", kNoMatch},
    {"a10", "a{a..c}", kNoMatch},
    {"ba", "[ab]b[a-!(*.b|a)", kNoMatch},
    {".b", "/b", kNoMatch},
    {"foobar", "./a.txt", kNoMatch},
    {".a/b", "*(b)*(b)", kNoMatch},
    {"ad.ts", "a\\b", kNoMatch},
    {"ac.ts", "foo", kNoMatch},
    {"dir", "*.+(txt|js)", kNoMatch},
    {"foo", "+()", kNoMatch},
    {"a/b/c", "*(b)*(b)!?(a|b)(", kNoMatch},
    {"ab/ba/a", "**!(*.b|a))|[[:alpha:]]", kNoMatch},
    {"b/a/b", "b*b", kNoMatch},
    {"tests/unit/x.test.ts", "[!]]", kNoMatch},
    {".git/config", "{x,y}/**", kNoMatch},
    {"node_modules/x/index.js", "*(.)*", kNoMatch},
    {"ab", "a{b,c}d", kNoMatch},
    {"a/b", "\\*\\**", kNoMatch},
    {"a.b", ".a", kNoMatch},
    {"a/b/c", "|/", kNoMatch},
    {"a/b", "\\*", kNoMatch},
    {"a-b", "x/**/z", kNoMatch},
    {"logs/b.log", "e*", kNoMatch},
    {"*", "+(a|.b)[!a]", kNoMatch},
    {"[x].txt", "?\?.png", kNoMatch},
    {"aaa/bbb", "?/.", kNoMatch},
    {".a", ")?(a|b)", kNoMatch},
    {"a/b/c", "([ab]!", kNoMatch},
    {"[x].txt", "..", kNoMatch},
    {"node_modules", "*.*", kNoMatch},
    {"dir/a.txt", "a{b,c}d", kNoMatch},
    {"a", ".**", kNoMatch},
    {".a/b", "|*(b)[!a]*(b)", kNoMatch},
    {"x", ".", kNoMatch},
    {"dir/sub/.hidden", "a[b-a]c", kNoMatch},
    {"dir/a.txt", "[a-", kNoMatch},
    {"a.txt", "[[:alpha:]] b.txt", kThrows},
    {"b.js", "[[:alpha:]] b.txt", kThrows},
    {"dir", "[[:alpha:]] b.txt", kThrows},
    {"dir/a.txt", "[[:alpha:]] b.txt", kThrows},
    {"dir/sub/c.js", "[[:alpha:]] b.txt", kThrows},
    {"dir/sub/.hidden", "[[:alpha:]] b.txt", kThrows},
    {"a.txt", "*.txt", kMatch},
    {"dir/sub/c.js", "**/*.js", kMatch},
    {"b.js", "*.txt", kNoMatch},
    {"src/node_modules/y.js", "**/node_modules/**", kMatch},
    {"node_modules", "**/node_modules/**", kNoMatch},
    {"foobar", "foo", kNoMatch},
    {"a.txt", "!*.txt", kNoMatch},
    {"b.js", "!*.txt", kMatch},
    {"a.txt", "#*", kNoMatch},
    {".env", "*", kMatch},
    {"dir/.env", "**/*", kMatch},
    {"x.TXT", "*.txt", kNoMatch},
    {"a.t\\xt", "*.t\\xt", kMatch},  // the "*.ext" fast path compares literally
    {"a.txt", "*.{js,txt}", kMatch},
    {"a10", "a{1..10..3}", kMatch},
    {"deep/a/b/c/d.txt", "deep/**/c/**/d.txt", kMatch},
    {"abc", "+(a|b|c)", kMatch},
    {"foo", "!(foo)", kMatch},  // a leading "!" negates "(foo)"
    {"é.txt", "[[:alpha:]]*", kMatch},
};

TEST(MinimatchTest, MatchesLikeTheNpmPackage) {
  for (const auto& c : kGlobCases) {
    if (c.expect == kThrows) {
      EXPECT_THROW(GlobMatch(c.path, c.pattern), FsError) << c.path << " " << c.pattern;
      continue;
    }
    bool want = c.expect == kMatch;
    EXPECT_EQ(GlobMatch(c.path, c.pattern), want) << "path " << c.path << " pattern " << c.pattern;
  }
}

TEST(MinimatchTest, ErrorsCarryMinimatchAndV8Messages) {
  try {
    GlobMatch("a b.txt", "[[:alpha:]] b.txt");
    ADD_FAILURE() << "no throw";
  } catch (const FsError& e) {
    EXPECT_EQ(e.message(),
              "Invalid regular expression: /^(?!(?:^|/)\\.\\.?(?:$|/))[\\p{L}\\p{Nl}]\\ "
              "b\\.txt$/u: Invalid escape");
  }
  try {
    GlobMatch("x", std::string(65537, 'a'));
    ADD_FAILURE() << "no throw";
  } catch (const FsError& e) {
    EXPECT_EQ(e.message(), "pattern is too long");
  }
}

TEST(MinimatchTest, HostilePatternsStayCheap) {
  // Nested quantifiers that make a backtracking engine explode.
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "*(a|aa)";
  pattern += "b";
  EXPECT_FALSE(GlobMatch(std::string(200, 'a'), pattern));
  EXPECT_FALSE(GlobMatch(std::string(250, 'a'), "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"));
}

TEST(JsRegexTest, SubsetSemantics) {
  std::string error;
  auto re = JsRegex::Compile(u"^(?:a|b)+?c$", false, error);
  ASSERT_TRUE(re);
  EXPECT_TRUE(re->Test(u"abac"));
  EXPECT_FALSE(re->Test(u"abca"));
  auto dot = JsRegex::Compile(u"^.$", false, error);
  EXPECT_TRUE(dot->Test(u"x"));
  EXPECT_FALSE(dot->Test(u"\n"));
  EXPECT_FALSE(dot->Test(utf8::ToUtf16("\xF0\x9F\x98\x80")));  // two UTF-16 units without the u flag
  auto u = JsRegex::Compile(u"^.$", true, error);
  EXPECT_TRUE(u->Test(utf8::ToUtf16("\xF0\x9F\x98\x80")));
  auto look = JsRegex::Compile(u"^(?!\\.)[^/]*?$", false, error);
  EXPECT_TRUE(look->Test(u"a.b"));
  EXPECT_FALSE(look->Test(u".ab"));
  auto prop = JsRegex::Compile(u"^[\\p{Lu}\\d]+$", true, error);
  EXPECT_TRUE(prop->Test(u"\u00c9X9"));
  EXPECT_FALSE(prop->Test(u"e"));
  EXPECT_FALSE(JsRegex::Compile(u"^\\-$", true, error));
  EXPECT_EQ(error, "Invalid regular expression: /^\\-$/u: Invalid escape");
  EXPECT_FALSE(JsRegex::Compile(u"a(", false, error));
  EXPECT_EQ(error, "Invalid regular expression: /a(/: Unterminated group");
}

struct BraceCase {
  const char* pattern;
  const char* expansion;  // JSON array
};

const BraceCase kBraceCases[] = {
    {"a{b,c}d", "[\"abd\",\"acd\"]"},
    {"{a,b}{c,d}", "[\"ac\",\"ad\",\"bc\",\"bd\"]"},
    {"a{1..5}", "[\"a1\",\"a2\",\"a3\",\"a4\",\"a5\"]"},
    {"a{01..10}",
     "[\"a01\",\"a02\",\"a03\",\"a04\",\"a05\",\"a06\",\"a07\",\"a08\",\"a09\",\"a10\"]"},
    {"a{-3..3}", "[\"a-3\",\"a-2\",\"a-1\",\"a0\",\"a1\",\"a2\",\"a3\"]"},
    {"a{10..1..3}", "[\"a10\",\"a7\",\"a4\",\"a1\"]"},
    {"{a..e}", "[\"a\",\"b\",\"c\",\"d\",\"e\"]"},
    {"{e..a..2}", "[\"e\",\"c\",\"a\"]"},
    {"x{a,{b,c},d}y", "[\"xay\",\"xby\",\"xcy\",\"xdy\"]"},
    {"{{a,b}}", "[\"{a}\",\"{b}\"]"},
    {"{a,b", "[\"{a,b\"]"},
    {"a}", "[\"a}\"]"},
    {"{}", "[\"{}\"]"},
    {"{},a}", "[\"{},a}\"]"},
    {"a{},b}c", "[\"a}c\",\"abc\"]"},
    {"{a},b}", "[\"a}\",\"b\"]"},
    {"${a,b}", "[\"${a,b}\"]"},
    {"a{,b}", "[\"a\",\"ab\"]"},
    {"{,a}", "[\"a\"]"},
    {"{a,}", "[\"a\"]"},
    {"a\\{b,c}", "[\"a{b,c}\"]"},
    {"a{b\\,c,d}", "[\"ab,c\",\"ad\"]"},
    {"{a,b}{1..3}", "[\"a1\",\"a2\",\"a3\",\"b1\",\"b2\",\"b3\"]"},
    {"{1..3}{a..b}", "[\"1a\",\"1b\",\"2a\",\"2b\",\"3a\",\"3b\"]"},
    {"a{b,c{d,e}f}g", "[\"abg\",\"acdfg\",\"acefg\"]"},
    {"{a..z..5}", "[\"a\",\"f\",\"k\",\"p\",\"u\",\"z\"]"},
    {"{A..c}",
     "[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\",\"H\",\"I\",\"J\",\"K\",\"L\",\"M\",\"N\",\"O\","
     "\"P\",\"Q\",\"R\",\"S\",\"T\",\"U\",\"V\",\"W\",\"X\",\"Y\",\"Z\",\"[\",\"\",\"]\",\"^\",\"_"
     "\",\"`\",\"a\",\"b\",\"c\"]"},
    {"{0..0}", "[\"0\"]"},
    {"{1..1..0}", "[\"1\"]"},
    {"{a,b}/{c,d}", "[\"a/c\",\"a/d\",\"b/c\",\"b/d\"]"},
    {"**/*.{js,ts}", "[\"**/*.js\",\"**/*.ts\"]"},
    {"{\\\\,a}", "[\"\\\\\",\"a\"]"},
    {"{a\\.b,c}", "[\"a.b\",\"c\"]"},
    {"{x..\\}", "[\"{x..}\"]"},
    {"a{1.5}", "[\"a{1.5}\"]"},
    {"{1..2..x}", "[\"{1..2..x}\"]"},
};

TEST(BraceExpansionTest, ExpandsLikeTheNpmPackage) {
  for (const auto& c : kBraceCases) {
    std::string got = "[";
    bool first = true;
    for (const auto& e : BraceExpand(utf8::ToUtf16(c.pattern))) {
      if (!first) got += ",";
      got += js::JsonQuote(utf8::FromUtf16(e));
      first = false;
    }
    got += "]";
    EXPECT_EQ(got, c.expansion) << c.pattern;
  }
}

TEST(BraceExpansionTest, BoundsLikeThePackage) {
  std::u16string many;
  for (int i = 0; i < 20; ++i) many += u"{a,b}";
  EXPECT_EQ(BraceExpand(many).size(), 100000u);  // capped at EXPANSION_MAX
}

}  // namespace
}  // namespace sbx::servers::filesystem
