// Maps error values to HTTP responses with a {"detail": ...} body.
#pragma once

#include "core/result.h"
#include "http/exchange.h"

namespace sbx::api {

// kInvalidArgument 400, kUnauthenticated 401, kForbidden 403, kNotFound 404,
// kConflict 409, kTooLarge 413, kUnavailable 503, kInternal 500. Internal
// errors are logged in full and answered without host details.
http::Response ErrorResponse(const Error& error);

}  // namespace sbx::api
