#include "api/acquire_request.h"

#include "sandbox/server_names.h"

namespace sbx::api {
namespace {

const char kListBranch[] = "list[LocalSandboxMCPServer]";
const char kAllBranch[] = "literal['ALL']";

// server_names is list[LocalSandboxMCPServer] | Literal['ALL']: like pydantic's
// smart union, a failure reports the errors of both branches.
std::optional<std::vector<std::string>> ParseServerNames(const Json& value, ValidationErrors& errors) {
  if (value.is_string() && value.get<std::string>() == "ALL") return sandbox::KnownServerNames();
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
    if (names.size() == value.size()) return names;
  } else {
    errors.Add("list_type", loc(kListBranch), "Input should be a valid list", value);
  }
  errors.Add("literal_error", loc(kAllBranch), "Input should be 'ALL'", value,
             Json{{"expected", "'ALL'"}});
  return std::nullopt;
}

}  // namespace

std::optional<sandbox::AcquireRequest> ParseAcquireRequest(const Json& body, ValidationErrors& errors) {
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
  } else if (auto names = ParseServerNames(body["server_names"], errors)) {
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
