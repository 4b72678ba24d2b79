#include "api/errors.h"

#include <gtest/gtest.h>

#include <string>

namespace sbx::api {
namespace {

TEST(ErrorResponseTest, EachCodeHasItsStatusAndTheMessageAsDetail) {
  struct Case {
    ErrorCode code;
    unsigned status;
  };
  for (const Case& c : {Case{ErrorCode::kInvalidArgument, 400}, Case{ErrorCode::kUnauthenticated, 401},
                        Case{ErrorCode::kForbidden, 403}, Case{ErrorCode::kNotFound, 404},
                        Case{ErrorCode::kConflict, 409}, Case{ErrorCode::kTooLarge, 413},
                        Case{ErrorCode::kUnavailable, 503}}) {
    http::Response r = ErrorResponse(MakeError(c.code, "what \"went\" wrong"));
    EXPECT_EQ(r.status, c.status);
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_EQ(r.body, R"({"detail":"what \"went\" wrong"})");
  }
}

TEST(ErrorResponseTest, InternalErrorsHideHostDetails) {
  http::Response r = ErrorResponse(MakeError(ErrorCode::kInternal, "open /var/lib/sbx/x: EACCES"));
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(r.body, R"({"detail":"Internal server error; the sandboxd log has the details"})");
}

}  // namespace
}  // namespace sbx::api
