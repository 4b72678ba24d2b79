// upstream's blocked-command check (CommandManager): every command of a
// shell command line, split at ; && || | & (quotes and backslashes
// respected, $(…) and (…) searched recursively), is reduced to its first
// word (leading NAME=value assignments dropped, lower-cased) and compared
// with the configured blockedCommands.
//
// Like upstream this is a policy over the command text, not a sandbox
// (`/usr/bin/sudo` or `sh -c sudo` pass it); the jail is the boundary.
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace sbx::servers::desktop_commander {

// extractCommands: the base commands in order of first appearance.
std::vector<std::string> ExtractCommands(std::string_view command_line);

// validateCommand against the configuration's blockedCommands value.
bool IsCommandAllowed(std::string_view command_line, const Json& blocked_commands);

}  // namespace sbx::servers::desktop_commander
