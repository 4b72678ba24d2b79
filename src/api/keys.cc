// Admin routes that manage API keys (sandboxctl key create / list / revoke).
#include "api/context.h"
#include "api/errors.h"
#include "api/handler_util.h"
#include "api/validation.h"
#include "core/ids.h"

namespace sbx::api {
namespace {

bool IsValidOwnerName(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '@';
    if (!ok) return false;
  }
  return true;
}

Json KeyView(const store::ApiKeyRecord& key) {
  Json out;
  out["id"] = key.id;
  out["owner"] = key.owner;
  out["admin"] = key.admin;
  out["prefix"] = key.prefix;
  out["created_at"] = FormatIso8601(key.created_at);
  out["revoked_at"] = key.revoked_at ? Json(FormatIso8601(*key.revoked_at)) : Json(nullptr);
  return out;
}

Task<void> CreateKey(ApiContext& ctx, http::Exchange& ex, const Principal&) {
  auto body = co_await ReadJsonBody(ex, ctx);
  if (!body) co_return;
  ValidationErrors errors;
  auto json = ParseJsonBody(*body, errors);
  std::string owner;
  bool admin = false;
  if (json && json->is_null()) {
    errors.Add("missing", Json::array({"body"}), "Field required", nullptr);
  } else if (json && !json->is_object()) {
    errors.Add("model_attributes_type", Json::array({"body"}),
               "Input should be a valid dictionary or object to extract fields from", *json);
  } else if (json) {
    if (!json->contains("owner")) {
      errors.Add("missing", Json::array({"body", "owner"}), "Field required", *json);
    } else if (!(*json)["owner"].is_string() ||
               !IsValidOwnerName((*json)["owner"].get<std::string>())) {
      errors.Add("string_pattern_mismatch", Json::array({"body", "owner"}),
                 "String should match pattern '^[A-Za-z0-9._@-]{1,128}$'", (*json)["owner"],
                 Json{{"pattern", "^[A-Za-z0-9._@-]{1,128}$"}});
    } else {
      owner = (*json)["owner"].get<std::string>();
    }
    if (json->contains("admin")) {
      if ((*json)["admin"].is_boolean()) admin = (*json)["admin"].get<bool>();
      else errors.Add("bool_type", Json::array({"body", "admin"}), "Input should be a valid boolean",
                      (*json)["admin"]);
    }
  }
  if (!errors.empty()) {
    co_await ex.Send(errors.ToResponse());
    co_return;
  }
  std::string key = NewApiKey();
  store::ApiKeyRecord record{ids::NewUuid(), owner, HashApiKey(key), KeyPrefix(key), admin,
                             SystemClock().Now(), std::nullopt};
  if (auto s = ctx.store.InsertKey(record); !s) {
    co_await ex.Send(ErrorResponse(s.error()));
    co_return;
  }
  Json out = KeyView(record);
  out.erase("revoked_at");
  out["key"] = key;
  co_await SendJson(ex, 201, out);
}

Task<void> ListKeys(ApiContext& ctx, http::Exchange& ex, const Principal&) {
  auto keys = ctx.store.ListKeys();
  if (!keys) {
    co_await ex.Send(ErrorResponse(keys.error()));
    co_return;
  }
  Json items = Json::array();
  for (const auto& k : *keys) items.push_back(KeyView(k));
  Json out;
  out["keys"] = std::move(items);
  co_await SendJson(ex, 200, out);
}

Task<void> RevokeKey(ApiContext& ctx, http::Exchange& ex, const Principal&) {
  const std::string& id = ex.param("key_id");
  UnixMicros now = SystemClock().Now();
  Status s = ids::IsUuid(id) ? ctx.store.RevokeKey(id, now) : Status(MakeError(ErrorCode::kNotFound, ""));
  if (!s) {
    Error e = s.error();
    if (e.code == ErrorCode::kNotFound) e.message = "API key " + id + " not found or already revoked";
    co_await ex.Send(ErrorResponse(e));
    co_return;
  }
  Json out;
  out["id"] = id;
  out["revoked_at"] = FormatIso8601(now);
  co_await SendJson(ex, 200, out);
}

}  // namespace

void RegisterKeyRoutes(http::Router& router, ApiContext& ctx) {
  using bhttp::verb;

  router.Add(verb::post, "/admin/keys", Bind(ctx, CreateKey, /*admin_only=*/true));
  router.Add(verb::get, "/admin/keys", Bind(ctx, ListKeys, /*admin_only=*/true));
  router.Add(verb::delete_, "/admin/keys/{key_id}", Bind(ctx, RevokeKey, /*admin_only=*/true));
}

}  // namespace sbx::api
