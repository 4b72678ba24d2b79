// Routes requests by method and path pattern.
//
// Patterns are literal segments and {name} captures of one whole segment,
// e.g. "/local-sandbox/{id}/dump". A trailing slash is significant: register
// both forms where both are served. Captured segments are percent-decoded.
// Unmatched paths answer 404 {"detail":"Not Found"}; a matched path with
// another method answers 405 {"detail":"Method Not Allowed"} with Allow.
#pragma once

#include <string>
#include <vector>

#include "http/exchange.h"
#include "http/server.h"

namespace sbx::http {

class Router {
 public:
  void Add(bhttp::verb method, const std::string& pattern, Handler handler);
  Task<void> Dispatch(Exchange& exchange) const;

 private:
  struct Route {
    bhttp::verb method;
    std::vector<std::string> segments;
    Handler handler;
  };
  std::vector<Route> routes_;
};

}  // namespace sbx::http
