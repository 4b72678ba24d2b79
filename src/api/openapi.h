// The OpenAPI 3.1 document of what sandboxd implements (api/openapi.json,
// embedded at build time).
#pragma once

#include <string>

namespace sbx::api {
const std::string& OpenApiDocument();
}  // namespace sbx::api
