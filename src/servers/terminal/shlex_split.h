// Python's shlex.split(s) (posix=True, comments=False): how cli-mcp-server
// cuts a command line into words before it checks them. White space is
// ' ', '\t', '\r' and '\n' only; single quotes keep everything literally;
// inside double quotes a backslash escapes only '"' and '\'; outside quotes
// it escapes any character (a newline included); '' and "" give an empty
// word. Nothing is expanded: no variables, globs, tildes or substitutions.
//
// Thread-safety: a pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace sbx::servers::terminal {

// The words of `line`, or kInvalidArgument with ValueError's text:
// "No closing quotation" or "No escaped character".
Result<std::vector<std::string>> ShlexSplit(std::string_view line);

}  // namespace sbx::servers::terminal
