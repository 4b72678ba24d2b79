// The input schemas of the nine upstream tools, exactly as upstream's
// tools/list gives them (plain JSON Schema objects, no "$schema", key order
// kept); tools_test.cc compares them with shared/reference/tools/
// code-executor.json byte for byte.
#pragma once

#include <string_view>

#include "core/json.h"

namespace sbx::servers::code_executor {

// The schema of the tool called `name` (null for an unknown name).
Json InputSchema(std::string_view name);

}  // namespace sbx::servers::code_executor
