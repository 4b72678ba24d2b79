// The execution API: execution-upload-url, execute, execution-status,
// execution-logs (byte cursor) and export-artifacts.
#include "api/context.h"
#include "api/errors.h"
#include "api/handler_util.h"
#include "api/validation.h"

namespace sbx::api {
namespace {

// {"execution_name": str} bodies, validated like pydantic.
Task<std::optional<std::string>> ReadExecutionName(ApiContext& ctx, http::Exchange& ex) {
  ValidationErrors errors;
  ValidateRegion(ex.query(), errors);
  auto body = co_await ReadJsonBody(ex, ctx);
  if (!body) co_return std::nullopt;
  std::optional<std::string> name;
  if (auto json = ParseJsonBody(*body, errors)) {
    if (json->is_null()) {
      errors.Add("missing", Json::array({"body"}), "Field required", nullptr);
    } else if (!json->is_object()) {
      errors.Add("model_attributes_type", Json::array({"body"}),
                 "Input should be a valid dictionary or object to extract fields from", *json);
    } else if (!json->contains("execution_name")) {
      errors.Add("missing", Json::array({"body", "execution_name"}), "Field required", *json);
    } else if (!(*json)["execution_name"].is_string()) {
      errors.Add("string_type", Json::array({"body", "execution_name"}), "Input should be a valid string",
                 (*json)["execution_name"]);
    } else {
      name = (*json)["execution_name"].get<std::string>();
    }
  }
  if (!errors.empty()) {
    co_await ex.Send(errors.ToResponse());
    co_return std::nullopt;
  }
  co_return name;
}

// The required `execution_name` query parameter.
Task<std::optional<std::string>> QueryExecutionName(http::Exchange& ex, ValidationErrors& errors) {
  auto name = ex.query().Get("execution_name");
  if (!name) errors.Add("missing", Json::array({"query", "execution_name"}), "Field required", nullptr);
  co_return name;
}

// Reads the body's execution_name and runs `op(manager, owner, id, name)`
// through RunSandboxOp, answering with the signed URL it returns.
template <class Op>
Task<void> SignedUrlOp(ApiContext& ctx, http::Exchange& ex, const Principal& who, const char* url_field, Op op) {
  auto name = co_await ReadExecutionName(ctx, ex);
  if (!name) co_return;
  auto bound = [op, n = *name](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return op(m, owner, id, n);
  };
  auto url = co_await RunSandboxOp(ctx, ex, who, bound);
  if (!url) co_return;
  co_await SendJson(ex, 200, SignedUrlView(url_field, *url));
}

Task<void> UploadUrl(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  auto op = [](sandbox::Manager& m, const std::string& owner, const std::string& id, const std::string& name) {
    return m.CreateExecutionUploadUrl(owner, id, name);
  };
  co_await SignedUrlOp(ctx, ex, who, "upload_url", op);
}

Task<void> ExportArtifacts(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  auto op = [](sandbox::Manager& m, const std::string& owner, const std::string& id, const std::string& name) {
    return m.ExportArtifacts(owner, id, name);
  };
  co_await SignedUrlOp(ctx, ex, who, "download_url", op);
}

Task<void> Execute(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  auto name = co_await ReadExecutionName(ctx, ex);
  if (!name) co_return;
  auto execute = [n = *name](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return m.Execute(owner, id, n);
  };
  if (!co_await RunSandboxOp(ctx, ex, who, execute)) co_return;
  Json out;
  out["message"] = "Execution '" + *name + "' started in the background; poll /execution-logs to follow it";
  out["execution_name"] = *name;
  co_await SendJson(ex, 200, out);
}

Task<void> Status(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  ValidationErrors errors;
  auto name = co_await QueryExecutionName(ex, errors);
  if (!errors.empty()) {
    co_await ex.Send(errors.ToResponse());
    co_return;
  }
  auto read = [n = *name](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return m.ExecutionStatus(owner, id, n);
  };
  auto status = co_await RunSandboxOp(ctx, ex, who, read);
  if (!status) co_return;
  Json out;
  out["status"] = *status;
  co_await SendJson(ex, 200, out);
}

Task<void> Logs(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  ValidationErrors errors;
  auto name = co_await QueryExecutionName(ex, errors);
  std::uint64_t cursor = 0;
  if (auto raw = ex.query().Get("cursor")) {
    Json loc = Json::array({"query", "cursor"});
    if (auto value = ValidateInt(Json(*raw), loc, errors))
      if (ValidateRange(*value, Json(*raw), loc, 0, INT64_MAX, errors)) cursor = static_cast<std::uint64_t>(*value);
  }
  if (!errors.empty()) {
    co_await ex.Send(errors.ToResponse());
    co_return;
  }
  auto read = [n = *name, cursor](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return m.ReadExecutionLogs(owner, id, n, cursor);
  };
  auto logs = co_await RunSandboxOp(ctx, ex, who, read);
  if (!logs) co_return;
  Json out;
  out["status"] = logs->status;
  out["logs"] = logs->logs;
  out["cursor"] = logs->cursor;
  co_await SendJson(ex, 200, out);
}

}  // namespace

void RegisterExecutionRoutes(http::Router& router, ApiContext& ctx) {
  using bhttp::verb;
  router.Add(verb::post, "/local-sandbox/{id}/execution-upload-url", Bind(ctx, UploadUrl));
  router.Add(verb::post, "/local-sandbox/{id}/execute", Bind(ctx, Execute));
  router.Add(verb::get, "/local-sandbox/{id}/execution-status", Bind(ctx, Status));
  router.Add(verb::get, "/local-sandbox/{id}/execution-logs", Bind(ctx, Logs));
  router.Add(verb::post, "/local-sandbox/{id}/export-artifacts", Bind(ctx, ExportArtifacts));
}

}  // namespace sbx::api
