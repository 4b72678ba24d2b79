// GitPython's parsers reproduced here: ref name rules, commit headers
// (actor regexes), the patch header regex, and rev_parse on a repository.
// Expectations were printed by GitPython 3.1.54 on the same inputs.
#include "servers/git/git_objects.h"
#include "servers/git/patch_index.h"
#include "servers/git/failure.h"
#include "servers/git/refs.h"
#include "servers/git/repository.h"
#include "servers/git/rev_parse.h"
#include "servers/git/test_support.h"

namespace sbx::servers::git::testing {
namespace {

TEST(RefNames, CheckRefNameValidMessages) {
  const std::string chars =
      "contain spaces, tildes (~), carets (^), colons (:), question marks (?), asterisks (*), open brackets ([) or "
      "backslashes (\\)";
  auto problem = [](const std::string& name) { return RefNameProblem(name).value_or("OK"); };
  EXPECT_EQ(problem("refs/heads/ok"), "OK");
  EXPECT_EQ(problem("refs/heads/@"), "OK");
  EXPECT_EQ(problem("refs/heads/a b"), "Invalid reference 'refs/heads/a b': references cannot " + chars);
  EXPECT_EQ(problem("refs/heads/a~1"), "Invalid reference 'refs/heads/a~1': references cannot " + chars);
  EXPECT_EQ(problem("refs/heads/.x"),
            "Invalid reference 'refs/heads/.x': references cannot start with a period (.) or contain '/.'");
  EXPECT_EQ(problem("refs/heads/a..b"), "Invalid reference 'refs/heads/a..b': references cannot contain '..'");
  EXPECT_EQ(problem("refs/heads//x"), "Invalid reference 'refs/heads//x': references cannot contain '//'");
  EXPECT_EQ(problem("/refs"), "Invalid reference '/refs': references cannot start with forward slashes '/'");
  EXPECT_EQ(problem("refs/heads/a@{b"), "Invalid reference 'refs/heads/a@{b': references cannot contain '@{'");
  EXPECT_EQ(problem("refs/heads/\x01"),
            "Invalid reference 'refs/heads/\x01': references cannot contain ASCII control characters");
  EXPECT_EQ(problem("refs/heads/x."), "Invalid reference 'refs/heads/x.': references cannot end with a period (.)");
  EXPECT_EQ(problem("refs/heads/x/"),
            "Invalid reference 'refs/heads/x/': references cannot end with a forward slash (/)");
  EXPECT_EQ(problem("@"), "Invalid reference '@': references cannot be '@'");
  EXPECT_EQ(problem("refs/heads/a.lock/b"),
            "Invalid reference 'refs/heads/a.lock/b': references cannot have slash-separated components that end "
            "with '.lock'");
}

std::string AuthorOf(const std::string& line) {
  CommitInfo c = ParseCommit("0", "tree t\n" + line + "committer C <c> 1 +0000\n\nmsg");
  return ActorRepr(c.author) + " " + std::to_string(c.authored.timestamp) + " " + std::to_string(c.authored.offset_east);
}

TEST(CommitParsing, ActorRegexesLikeGitPython) {
  EXPECT_EQ(AuthorOf("author A U Thor <a@x> 1700000000 +0100\n"), "<git.Actor \"A U Thor <a@x>\"> 1700000000 3600");
  EXPECT_EQ(AuthorOf("author  <e> 1 +0000\n"), "<git.Actor \" <e>\"> 1 0");
  EXPECT_EQ(AuthorOf("author NoEmail 5 -0030\n"), "<git.Actor \"NoEmail <None>\"> 5 -1800");
  EXPECT_EQ(AuthorOf("author <only@email> 7 +0000\n"), "<git.Actor \"only@email <None>\"> 7 0");
  EXPECT_EQ(AuthorOf("author Name <a> <b> 9 +0000\n"), "<git.Actor \"Name <a> <b>\"> 9 0");
  EXPECT_EQ(AuthorOf("author Broken line\n"), "<git.Actor \"Broken line <None>\"> 0 0");
  EXPECT_EQ(AuthorOf("author X <x> notanumber +0000\n"), "<git.Actor \"X <x>\"> 0 0");
  EXPECT_EQ(AuthorOf("author Trail <t@x> 1700000000 +0100 extra\n"), "<git.Actor \"Trail <t@x>\"> 1700000000 3600");
}

TEST(CommitParsing, HeadersEncodingAndMessage) {
  CommitInfo c = ParseCommit("s",
                             "tree abc\nparent p1\nparent p2\nauthor A <a> 1 +0000\ncommitter C <c> 2 -0100\n"
                             "mergetag object x\n type commit\n tag t\nencoding ISO-8859-1\n"
                             "gpgsig -----BEGIN-----\n sig\n -----END-----\n\ncaf\xe9\n");
  EXPECT_EQ(c.tree, "abc");
  EXPECT_EQ(c.parents, (std::vector<std::string>{"p1", "p2"}));
  EXPECT_EQ(c.encoding, "ISO-8859-1");
  EXPECT_EQ(c.message, "caf\xc3\xa9\n");
  EXPECT_EQ(c.committed.offset_east, -3600);
  // No blank line after the headers: the message is empty.
  EXPECT_EQ(ParseCommit("s", "tree t\nauthor A <a> 1 +0000\ncommitter C <c> 1 +0000\n").message, "");
}

std::string Cut(const std::string& text) {
  std::string out;
  for (const auto& d : ParsePatchIndex(text))
    out += "[" + d.a_path.value_or("None") + "|" + d.b_path.value_or("None") + "|" + d.diff + "]";
  return out;
}

TEST(PatchIndex, CutLikeReHeader) {
  EXPECT_EQ(Cut("diff --git a/x b/x\nindex 111..222 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
            "[x|x|@@ -1 +1 @@\n-a\n+b\n]");
  EXPECT_EQ(Cut("abc123\ndiff --git a/n b/n\nnew file mode 100644\nindex 0000000..222\n--- /dev/null\n+++ b/n\n"
                "@@ -0,0 +1 @@\n+n\ndiff --git a/d b/d\ndeleted file mode 100644\nindex 111..0000000\n--- a/d\n"
                "+++ /dev/null\n@@ -1 +0,0 @@\n-d\n"),
            "[None|n|@@ -0,0 +1 @@\n+n\n][d|None|@@ -1 +0,0 @@\n-d\n]");
  EXPECT_EQ(Cut("diff --git a/old name b/new name\nsimilarity index 90%\nrename from old name\nrename to new name\n"
                "index 1..2 100644\n--- a/old name\n+++ b/new name\n@@ -1 +1 @@\n-x\n+y\n"),
            "[old name|new name|@@ -1 +1 @@\n-x\n+y\n]");
  EXPECT_EQ(Cut("diff --git a/m b/m\nold mode 100644\nnew mode 100755\n"), "[m|m|]");
  EXPECT_EQ(Cut("diff --git \"a/t\\303\\251st\" \"b/t\\303\\251st\"\nnew file mode 100644\nindex 0..1\n--- /dev/null\n"
                "+++ \"b/t\\303\\251st\"\n@@ -0,0 +1 @@\n+h\n"),
            "[None|t\xc3\xa9st|@@ -0,0 +1 @@\n+h\n]");
  EXPECT_EQ(Cut("diff --git a/a b/a b/a b/a\nindex 1..2\n--- a/a b/a\t\n+++ b/a b/a\t\n@@ x\n"), "[a b/a|a b/a|@@ x\n]");
  EXPECT_EQ(Cut("diff --git a/bin b/bin\nnew file mode 100644\nindex 0..1\nBinary files /dev/null and b/bin differ\n"),
            "[bin|bin|Binary files /dev/null and b/bin differ\n]");
  EXPECT_EQ(Cut("diff --git a/r b/s\nsimilarity index 100%\nrename from r\nrename to s\n"), "[r|s|]");
  EXPECT_EQ(Cut(""), "");
}

class RevParseTest : public GitTest {
 protected:
  void SetUp() override {
    GitTest::SetUp();
    dir_ = root_ + "/repo";
    Git(root_, {"init", "-q", "-b", "main", dir_});
    for (int i = 0; i < 4; ++i) {
      Write("repo/f.txt", std::to_string(i) + "\n");
      Git(dir_, {"add", "."});
      Git(dir_, {"commit", "-q", "-m", "c" + std::to_string(i)}, "", std::to_string(1700000000 + i * 60) + " +0000");
    }
    Git(dir_, {"tag", "-a", "v2", "-m", "ann", "HEAD~1"});
    Git(dir_, {"tag", "-a", "v2b", "-m", "tag of tag", "v2"});
    Git(dir_, {"checkout", "-q", "-b", "other", "HEAD~2"});
    Git(dir_, {"checkout", "-q", "main"});
  }
  // What RevParse gives: "main~N" for the commits of main, "<type> <sha>"
  // for other objects, "error: <text>" for failures.
  std::string Parsed(const std::string& rev) {
    try {
      Repository repo(options_, dir_, nullptr);
      ObjectHeader o = RevParse(repo, rev);
      for (int i = 0; i < 4; ++i)
        if (o.sha == Head(dir_, "main~" + std::to_string(i))) return "main~" + std::to_string(i);
      return o.type + " " + o.sha;
    } catch (const ToolFailure& f) {
      return "error: " + f.message;
    }
  }
  std::string dir_;
};

TEST_F(RevParseTest, ResolvesLikeGitPython) {
  const std::pair<const char*, const char*> cases[] = {
      {"main@{1}", "main~1"},      {"main@{+1}", "main~1"},       {"HEAD@{2}", "main~0"},
      {"@{0}", "main~0"},          {"@{-1}", "main~2"},           {"v2b^{}", "main~1"},
      {"v2b~1", "main~2"},         {":/!-c3", "main~1"},          {"HEAD^{/c1}", "main~2"},
      {"main^{/c2}~1", "main~2"},  {"HEAD^^^", "main~3"},         {"HEAD@{1700000100}", "main~0"},
      {"main@{2023-11-14 22:14:00}", "main~3"},
  };
  for (const auto& [rev, want] : cases) EXPECT_EQ(Parsed(rev), want) << rev;
  EXPECT_EQ(Parsed("v2b^{tag}"), "tag " + Head(dir_, "v2b"));
  EXPECT_EQ(Parsed("v2"), "tag " + Head(dir_, "v2"));
  EXPECT_EQ(Parsed("HEAD:"), "tree " + Head(dir_, "HEAD^{tree}"));
  EXPECT_EQ(Parsed("HEAD^{tree}"), "tree " + Head(dir_, "HEAD^{tree}"));
  EXPECT_EQ(Parsed(":f.txt"), "blob " + Head(dir_, ":f.txt"));
  EXPECT_EQ(Parsed(":0:f.txt"), "blob " + Head(dir_, ":f.txt"));
  EXPECT_EQ(Parsed(Head(dir_).substr(0, 7)), "main~0");
}

TEST_F(RevParseTest, ErrorsLikeGitPython) {
  const std::pair<const char*, const char*> cases[] = {
      {":/!x", "Need one character after /!, typically -"},
      {":/", "Revision search requires a pattern"},
      {":/c[", "Invalid commit message regex 'c['"},
      {"v1.0-1-gabc", "Ref 'v1.0-1-gabc' did not resolve to an object"},
      {"HEAD:f.txt:x", "\"Blob or Tree named 'f.txt:x' not found\""},
      {"main@{-1}", "Previous checkout selectors do not take an explicit ref"},
      {"@{-0}", "Negative zero is invalid in reflog selector"},
      {"@{-x}", "Invalid previous checkout selector: -x"},
      {"@{-9}", "Invalid previous checkout selector: -9"},
      {"HEAD@", "Ref 'HEAD@' did not resolve to an object"},
      {"@x", "Ref '@x' did not resolve to an object"},
      {"HEAD~1^2",
       "Ref 'Invalid revision spec 'HEAD~1^2' - not enough parent commits to reach '^2'' did not resolve to an object"},
      {"other@{u}", "Ref 'other@{upstream}' did not resolve to an object"},
      {"main@{99}", "Invalid revlog index: 99"},
      {"HEAD@{yesterday}", "Support for additional @{...} modes not implemented"},
      {"v2b^{blob}", "Could not accommodate requested object type 'blob', got commit"},
      {":3:f.txt", "Ref 'Path 'f.txt' did not exist in the index at stage 3' did not resolve to an object"},
  };
  for (const auto& [rev, want] : cases) EXPECT_EQ(Parsed(rev), std::string("error: ") + want) << rev;
}

}  // namespace
}  // namespace sbx::servers::git::testing
