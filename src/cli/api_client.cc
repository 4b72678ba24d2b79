#include "cli/api_client.h"

#include "cli/api_errors.h"

namespace sbx::cli {

ApiClient::ApiClient(Url base, std::string api_key)
    : base_(std::move(base)), api_key_(std::move(api_key)) {}

Result<Json> ApiClient::Call(Method method, std::string_view path, const Json* body) const {
  Headers headers = {{"Accept", "application/json"}};
  if (!api_key_.empty()) headers.emplace_back("Authorization", "Bearer " + api_key_);
  std::string payload;
  if (body != nullptr) {
    headers.emplace_back("Content-Type", "application/json");
    payload = body->dump();
  }
  auto response = Send(base_.WithPath(path), method, headers, payload);
  if (!response.ok()) return response.error();
  if (response->status / 100 != 2) return HttpError(*response);
  if (response->body.empty()) return Json::object();
  Json parsed = Json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return MakeError(ErrorCode::kInternal,
                     "the server answered HTTP " + std::to_string(response->status) +
                         " with a body that is not JSON; is " + base_.ToString() + " a sandboxd?");
  }
  return parsed;
}

Error ApiClient::HttpError(const HttpResponse& response) const {
  std::string message = FormatHttpError(response.status, response.body);
  if (response.status == 401 && api_key_.empty()) {
    message +=
        " (no API key configured: pass --key, set SANDBOXD_API_KEY, or run where "
        "$SANDBOXD_DATA_DIR/admin.key or ./sandboxd-data/admin.key is readable)";
  }
  return MakeError(ErrorCode::kInvalidArgument, message);
}

int ExitCodeFor(const Error& error) { return error.code == ErrorCode::kUnavailable ? 2 : 1; }

}  // namespace sbx::cli
