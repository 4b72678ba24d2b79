// The input schemas and annotations of the 12 tools, equal to upstream's
// tools/list (shared/reference/tools/git.json: pydantic's
// model_json_schema() output, descriptions removed) byte for byte.
#pragma once

#include <string>

#include "core/json.h"

namespace sbx::servers::git {

Json InputSchema(const std::string& tool);
Json Annotations(const std::string& tool);

}  // namespace sbx::servers::git
