#include "api/acquire_request.h"

#include <algorithm>

#include "sandbox/server_names.h"

namespace sbx::api {
namespace {

const char kListBranch[] = "list[LocalSandboxMCPServer]";
const char kAllBranch[] = "literal['ALL']";

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// server_names is list[LocalSandboxMCPServer] | Literal['ALL']: like pydantic's
// smart union, a failure reports the errors of both branches.
// A name of the enum that this deployment cannot serve: a 422 of the same
// shape as the enum's own error, at the name's index, so a client sees which
// server and why before any sandbox exists.
bool CheckServed(const std::vector<std::string>& names, const std::vector<std::string>& served,
                 const Json& loc_base, ValidationErrors& errors) {
  bool ok = true;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (std::find(served.begin(), served.end(), names[i]) != served.end()) continue;
    Json loc = loc_base;
    loc.push_back(i);
    errors.Add("server_unavailable", std::move(loc),
               "Server '" + names[i] + "' is not available in this deployment: this build of sandboxd does not "
               "include it (available: " + JoinNames(served) + ")",
               names[i]);
    ok = false;
  }
  return ok;
}

std::optional<std::vector<std::string>> ParseServerNames(const Json& value, ValidationErrors& errors,
                                                         const std::vector<std::string>& served) {
  if (value.is_string() && value.get<std::string>() == "ALL") return served;
  const Json base = Json::array({"body", "server_names"});
  auto loc = [&](auto... extra) {
    Json l = base;
    (l.push_back(extra), ...);
    return l;
  };
  std::vector<std::string> names;
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      auto name = ValidateEnum(value[i], sandbox::KnownServerNames(), loc(kListBranch, i), errors);
      if (name) names.push_back(*name);
    }
    if (names.size() == value.size()) {
      if (!CheckServed(names, served, Json::array({"body", "server_names"}), errors)) return std::nullopt;
      return names;
    }
  } else {
    errors.Add("list_type", loc(kListBranch), "Input should be a valid list", value);
  }
  errors.Add("literal_error", loc(kAllBranch), "Input should be 'ALL'", value,
             Json{{"expected", "'ALL'"}});
  return std::nullopt;
}

}  // namespace

std::optional<sandbox::AcquireRequest> ParseAcquireRequest(const Json& body, ValidationErrors& errors,
                                                           const std::vector<std::string>& served) {
  if (body.is_null()) {  // FastAPI treats a JSON null body as an absent one
    errors.Add("missing", Json::array({"body"}), "Field required", nullptr);
    return std::nullopt;
  }
  if (!body.is_object()) {
    errors.Add("model_attributes_type", Json::array({"body"}),
               "Input should be a valid dictionary or object to extract fields from", body);
    return std::nullopt;
  }
  sandbox::AcquireRequest request;
  bool ok = true;

  if (!body.contains("server_names")) {
    errors.Add("missing", Json::array({"body", "server_names"}), "Field required", body);
    ok = false;
  } else if (auto names = ParseServerNames(body["server_names"], errors, served)) {
    request.server_names = std::move(*names);
  } else {
    ok = false;
  }

  if (body.contains("benchmark") && !body["benchmark"].is_null()) {
    auto b = ValidateEnum(body["benchmark"], sandbox::KnownBenchmarks(),
                          Json::array({"body", "benchmark"}), errors);
    if (b) request.benchmark = *b;
    else ok = false;
  }

  if (body.contains("test_account_email")) {
    auto email = ValidateOptionalString(body["test_account_email"],
                                        Json::array({"body", "test_account_email"}), errors);
    if (email) request.test_account_email = *email;
    else ok = false;
  }

  request.ttl_seconds = kDefaultTtlSeconds;
  if (body.contains("ttl_seconds")) {
    const Json& ttl = body["ttl_seconds"];
    const Json loc = Json::array({"body", "ttl_seconds"});
    if (ttl.is_null()) {
      request.ttl_seconds.reset();
    } else if (auto v = ValidateInt(ttl, loc, errors);
               v && ValidateRange(*v, ttl, loc, kMinTtlSeconds, kMaxTtlSeconds, errors)) {
      request.ttl_seconds = *v;
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return request;
}

}  // namespace sbx::api
