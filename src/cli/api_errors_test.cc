#include "cli/api_errors.h"

#include <gtest/gtest.h>

namespace sbx::cli {
namespace {

TEST(FormatErrorDetail, StringDetail) {
  EXPECT_EQ(FormatHttpError(404, R"({"detail":"Local sandbox abc not found"})"),
            "HTTP 404: Local sandbox abc not found");
}

TEST(FormatErrorDetail, ValidationListAsLocColonMsg) {
  const char* body = R"({"detail":[
    {"type":"missing","loc":["body","server_names"],"msg":"Field required","input":{}},
    {"type":"enum","loc":["body","server_names",1],"msg":"Input should be 'filesystem' or 'git'",
     "input":"gti","ctx":{"expected":"'filesystem' or 'git'"}}]})";
  EXPECT_EQ(FormatHttpError(422, body),
            "HTTP 422: body.server_names: Field required; "
            "body.server_names.1: Input should be 'filesystem' or 'git'");
}

TEST(FormatErrorDetail, ValidationItemWithoutLoc) {
  EXPECT_EQ(FormatErrorDetail(R"({"detail":[{"type":"x","loc":[],"msg":"bad"}]})"), "bad");
}

TEST(FormatErrorDetail, OtherShapes) {
  EXPECT_EQ(FormatErrorDetail(R"({"detail":{"why":"x"}})"), R"({"why":"x"})");
  EXPECT_EQ(FormatErrorDetail(R"({"error":"x"})"), R"({"error":"x"})");
  EXPECT_EQ(FormatErrorDetail(R"({"detail":[]})"), "(no detail)");
}

TEST(FormatErrorDetail, NonJsonBodyOnOneLine) {
  EXPECT_EQ(FormatErrorDetail("<html>\n  <h1>502 Bad Gateway</h1>\n</html>\n"),
            "<html> <h1>502 Bad Gateway</h1> </html>");
  EXPECT_EQ(FormatErrorDetail(""), "(empty response body)");
  std::string longer(1000, 'x');
  EXPECT_EQ(FormatErrorDetail(longer).size(), 303u);
}

}  // namespace
}  // namespace sbx::cli
