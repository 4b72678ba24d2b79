#include "api/errors.h"

#include <spdlog/spdlog.h>

namespace sbx::api {

http::Response ErrorResponse(const Error& error) {
  switch (error.code) {
    case ErrorCode::kInvalidArgument: return http::JsonError(400, error.message);
    case ErrorCode::kUnauthenticated: return http::JsonError(401, error.message);
    case ErrorCode::kForbidden: return http::JsonError(403, error.message);
    case ErrorCode::kNotFound: return http::JsonError(404, error.message);
    case ErrorCode::kConflict: return http::JsonError(409, error.message);
    case ErrorCode::kTooLarge: return http::JsonError(413, error.message);
    case ErrorCode::kUnavailable: return http::JsonError(503, error.message);
    case ErrorCode::kInternal: break;
  }
  spdlog::error("internal error: {}", error.message);
  return http::JsonError(500, "Internal server error; the sandboxd log has the details");
}

}  // namespace sbx::api
