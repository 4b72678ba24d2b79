// Small pieces every REST handler uses: authentication in front of a
// handler, and sending JSON.
#pragma once

#include <functional>

#include "api/auth.h"
#include "api/context.h"
#include "core/json.h"
#include "http/exchange.h"

namespace sbx::api {

using AuthedHandler = std::function<Task<void>(http::Exchange&, const Principal&)>;

// Runs `handler` only for a valid bearer key (401 otherwise); with
// `admin_only`, only for an admin key (403 otherwise).
http::Handler WithAuth(ApiContext& context, AuthedHandler handler, bool admin_only = false);

// Binds a handler function `fn(ApiContext&, Exchange&, const Principal&)`
// to a route behind WithAuth.
template <class Fn>
http::Handler Bind(ApiContext& context, Fn fn, bool admin_only = false) {
  return WithAuth(
      context,
      [&context, fn](http::Exchange& ex, const Principal& who) { return fn(context, ex, who); },
      admin_only);
}

Task<void> SendJson(http::Exchange& exchange, unsigned status, const Json& body);

// Reads a JSON body bounded by the context's limit. On failure (too large,
// connection lost) it has already answered and returns nullopt.
Task<std::optional<std::string>> ReadJsonBody(http::Exchange& exchange, const ApiContext& context);

}  // namespace sbx::api
