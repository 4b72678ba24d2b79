#include "http/router.h"

#include <string_view>

namespace sbx::http {
namespace {

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> out;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  for (;;) {
    std::size_t slash = path.find('/');
    out.emplace_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

bool IsCapture(const std::string& segment) {
  return segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

void Router::Add(bhttp::verb method, const std::string& pattern, Handler handler) {
  routes_.push_back(Route{method, SplitPath(pattern), std::move(handler)});
}

Task<void> Router::Dispatch(Exchange& exchange) const {
  std::vector<std::string> segments = SplitPath(exchange.path());
  std::string allowed;
  for (const Route& route : routes_) {
    if (route.segments.size() != segments.size()) continue;
    std::map<std::string, std::string, std::less<>> params;
    bool match = true;
    for (std::size_t i = 0; i < segments.size() && match; ++i) {
      const std::string& want = route.segments[i];
      if (IsCapture(want)) {
        if (segments[i].empty()) match = false;
        else params[want.substr(1, want.size() - 2)] = PercentDecode(segments[i], false);
      } else {
        match = want == segments[i];
      }
    }
    if (!match) continue;
    if (route.method != exchange.method()) {
      std::string name(bhttp::to_string(route.method));
      if (allowed.find(name) == std::string::npos) allowed += (allowed.empty() ? "" : ", ") + name;
      continue;
    }
    exchange.params() = std::move(params);
    co_await route.handler(exchange);
    co_return;
  }
  if (!allowed.empty()) {
    Response r = JsonError(405, "Method Not Allowed");
    r.headers.emplace_back("Allow", allowed);
    co_await exchange.Send(std::move(r));
    co_return;
  }
  co_await exchange.Send(JsonError(404, "Not Found"));
}

}  // namespace sbx::http
