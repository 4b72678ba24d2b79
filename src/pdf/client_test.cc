// The client and the real sandbox-pdf helper, over PDFs written by the test.
#include "pdf/client.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "core/unique_fd.h"
#include "pdf/test_pdfs.h"

namespace sbx::pdf {
namespace {

using testing::MakePdf;

UniqueFd MemFile(const std::string& data) {
  UniqueFd fd(::memfd_create("input", MFD_CLOEXEC));
  EXPECT_EQ(::write(fd.get(), data.data(), data.size()), static_cast<ssize_t>(data.size()));
  return fd;
}

Result<Reply> RunOn(const std::string& command, const std::vector<std::string>& pdfs,
                    std::vector<std::string> arguments = {}, bool writes = false, Limits limits = {}) {
  std::vector<UniqueFd> fds;
  Request request{command, std::move(arguments), {}, writes};
  for (const auto& pdf : pdfs) {
    fds.push_back(MemFile(pdf));
    request.inputs.push_back(fds.back().get());
  }
  return RunHelper(request, limits);
}

const std::string kThree = MakePdf({{"Alpha one"}, {"Beta two", "second line"}, {"Gamma three"}},
                                   {{"Title", "Test Title"}, {"Author", "Ada"}, {"CreationDate", "D:20240102030405Z"}});

TEST(PdfHelper, TextClampsTheRangeAsUpstream) {
  auto r = RunOn("text", {kThree}, {"--first", "0", "--last", "2"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->fields.dump(),
            R"({"page_count":3,"first":1,"last":2,"pages":["Alpha one\n","Beta two\nsecond line\n"]})");
  r = RunOn("text", {kThree}, {"--first", "9", "--last", "2"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields["first"], 2);
  EXPECT_EQ(r->fields["last"], 3);
}

TEST(PdfHelper, Info) {
  auto r = RunOn("info", {kThree});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->fields.dump(),
            R"({"page_count":3,"metadata":{"Author":"Ada","CreationDate":"D:20240102030405Z","Title":"Test Title"},)"
            R"("page_sizes":[[612.0,792.0],[612.0,792.0],[612.0,792.0]],"encrypted":false})");
}

TEST(PdfHelper, MergeAndExtractWritePdfs) {
  auto merged = RunOn("merge", {kThree, MakePdf({{"Delta"}})}, {}, true);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(merged->fields.dump(), R"({"page_counts":[3,1]})");
  auto text = RunOn("text", {merged->pdf}, {"--first", "1", "--last", "9"});
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(text->fields["pages"][3], "Delta\n");

  auto extracted = RunOn("extract", {kThree}, {"--pages", "3,0,1,3,7"}, true);
  ASSERT_TRUE(extracted) << extracted.error().message;
  EXPECT_EQ(extracted->fields.dump(), R"({"page_count":3,"extracted":[3,1,3]})");
  text = RunOn("text", {extracted->pdf}, {"--first", "1", "--last", "9"});
  ASSERT_TRUE(text);
  EXPECT_EQ(text->fields["pages"].dump(), R"(["Gamma three\n","Alpha one\n","Gamma three\n"])");

  auto none = RunOn("extract", {kThree}, {"--pages", "5"}, true);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->fields.dump(), R"({"page_count":3,"extracted":[]})");
  EXPECT_EQ(none->pdf, "");
}

TEST(PdfHelper, NotAPdf) {
  for (const char* command : {"text", "info", "extract", "merge"}) {
    auto r = RunOn(command, {"PK\x03\x04 this is a zip"}, {}, true);
    ASSERT_FALSE(r) << command;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.error().message, "the file is not a readable PDF (damaged, truncated or another format)") << command;
  }
}

TEST(PdfHelper, MergeNamesTheFailingInput) {
  int failed = -1;
  UniqueFd a = MemFile(kThree), b = MemFile("garbage");
  Request request{"merge", {}, {a.get(), b.get()}, true, &failed};
  auto r = RunHelper(request, Limits{});
  ASSERT_FALSE(r);
  EXPECT_EQ(failed, 1);
}

TEST(PdfHelper, InputAndOutputBounds) {
  Limits small;
  small.max_input_bytes = 100;
  auto r = RunOn("text", {kThree}, {}, false, small);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(r.error().message, "the file is larger than 100 bytes");
  Limits text;
  text.max_output_bytes = 12;
  r = RunOn("text", {kThree}, {"--first", "1", "--last", "3"}, false, text);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the text of the PDF is larger than 12 bytes");
}

TEST(PdfHelper, CancelledBeforeStart) {
  UniqueFd a = MemFile(kThree);
  auto r = RunHelper(Request{"info", {}, {a.get()}}, Limits{}, [] { return true; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(r.error().message, "cancelled");
}

TEST(PdfHelper, BadCommandIsAHelperFailure) {
  auto r = RunOn("nonsense", {kThree});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the PDF could not be read: the helper failed (exit status 64)");
}

// Stand-in helpers (shell scripts) for the endings a hostile PDF can force
// on the real one: the client's words for each, and no child left behind.
class FakeHelper : public ::testing::Test {
 protected:
  void Use(const std::string& script) {
    char tmpl[] = "/tmp/pdf-fake-helper-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const std::string path = dir_ + "/sandbox-pdf";
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(("#!/bin/sh\n" + script + "\n").c_str(), f);
    std::fclose(f);
    ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
    UseHelperPath(path);
  }
  void TearDown() override {
    UseHelperPath(SANDBOX_PDF_PATH);
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string dir_;
};

TEST_F(FakeHelper, WallClockTimeoutKillsIt) {
  Use("sleep 30");
  Limits limits;
  limits.timeout = std::chrono::milliseconds(1000);
  auto start = std::chrono::steady_clock::now();
  auto r = RunOn("info", {kThree}, {}, false, limits);
  ASSERT_FALSE(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(r.error().message, "reading the PDF took longer than 1 seconds (the helper was stopped)");
}

TEST_F(FakeHelper, CrashesAndKillsAreNamed) {
  Use("kill -SEGV $$");
  auto r = RunOn("info", {kThree});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the PDF could not be read: the helper crashed (SIGSEGV)");
  Use("kill -XCPU $$");
  r = RunOn("info", {kThree});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "reading the PDF used more than 30 seconds of CPU time (the helper was stopped)");
  Use("kill -KILL $$");
  r = RunOn("info", {kThree});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "reading the PDF was stopped: the helper was killed (its CPU time or the sandbox's memory ran out)");
}

TEST_F(FakeHelper, GarbageAndFloodsAreRefused) {
  Use("echo not json");
  auto r = RunOn("info", {kThree});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "the PDF helper's reply is not a JSON object");
  Use("yes");
  Limits small;
  small.max_output_bytes = 1000;
  r = RunOn("info", {kThree}, {}, false, small);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(r.error().message, "the PDF's text is larger than 1000 bytes");
}

TEST(PdfHelper, MissingHelper) {
  UseHelperPath("/nonexistent/sandbox-pdf");
  auto r = RunOn("info", {kThree});
  UseHelperPath(SANDBOX_PDF_PATH);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_EQ(r.error().message, "the PDF helper could not be started: sandbox-pdf: No such file or directory");
}

}  // namespace
}  // namespace sbx::pdf
