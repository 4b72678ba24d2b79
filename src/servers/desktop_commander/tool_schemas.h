// Input schemas of the 21 upstream tools, keyed by tool name, in upstream's
// tools/list order.
#pragma once

#include "core/json.h"

namespace sbx::servers::desktop_commander {

const Json& ToolSchemas();

}  // namespace sbx::servers::desktop_commander
