// Schemas of the 14 upstream tools, keyed by tool name:
// {"inputSchema": …, "outputSchema": …, "annotations": …}.
#pragma once

#include "core/json.h"

namespace sbx::servers::filesystem {

const Json& ToolSchemas();

}  // namespace sbx::servers::filesystem
