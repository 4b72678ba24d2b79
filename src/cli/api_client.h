// The sandboxd REST API as sandboxctl calls it: base URL + API key + JSON.
//
// Every failure is an Error whose message is ready to print after "error: ":
// kUnavailable for transport failures (exit 2), kInvalidArgument carrying
// "HTTP <status>: <detail>" for non-2xx answers, kInternal for a 2xx answer
// that is not the JSON promised (exit 1 for both).
#pragma once

#include <string>
#include <string_view>

#include "cli/http_client.h"
#include "cli/url.h"
#include "core/json.h"
#include "core/result.h"

namespace sbx::cli {

class ApiClient {
 public:
  // `api_key` may be empty: the request then goes without Authorization and
  // a 401 comes back with a hint on how to pass a key.
  ApiClient(Url base, std::string api_key);

  // Calls `path` (starting with '/', below the base URL's prefix) and parses
  // the JSON answer. `body` is sent as JSON when given; a POST without one
  // sends an empty body.
  Result<Json> Call(Method method, std::string_view path, const Json* body = nullptr) const;

  // Where a signed URL the server returned points (relative to the base).
  Result<Url> Resolve(std::string_view reference) const { return ResolveUrl(base_, reference); }

  const Url& base() const { return base_; }

  // The error for a non-2xx response: "HTTP <status>: <detail>", plus a hint
  // on a 401 when no key was configured.
  Error HttpError(const HttpResponse& response) const;

 private:
  Url base_;
  std::string api_key_;
};

// The exit status for a failure: 2 when the server could not be reached,
// 1 for everything else.
int ExitCodeFor(const Error& error);

}  // namespace sbx::cli
