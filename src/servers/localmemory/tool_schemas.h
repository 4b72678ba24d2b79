// Schemas and annotations of the 9 upstream tools, keyed by tool name:
// {"inputSchema": …, "outputSchema": …, "annotations": …}, equal to
// shared/reference/tools/localmemory.json key for key, order included
// (tools_test.cc compares them byte for byte).
#pragma once

#include "core/json.h"

namespace sbx::servers::localmemory {

const Json& ToolSchemas();

}  // namespace sbx::servers::localmemory
