// One run-code call: the code file, the child process and the result text,
// as upstream's handler and Node's child_process.exec produce them.
#pragma once

#include <string>

#include "mcp/tool.h"
#include "servers/code_runner/code_runner.h"
#include "servers/code_runner/languages.h"

namespace sbx::servers::code_runner {

// The command line for `language` (before the file's quoted path): the
// deployment's override, else upstream's command, else its fallback when
// only the fallback's program is found in `path` (a PATH value).
std::string CommandFor(const Options& options, const Language& language, const std::string& path);

// Writes `code` to <temp_dir>/code-runner-XXXXXX/tmp.<extension>, runs
// `<command> "<file>"` with /bin/sh -c in the working directory, removes the
// directory, and returns upstream's result: stdout as text; "Stderr: …" when
// the run printed to stderr; "Error: Command failed: <command line>\n<stderr>"
// when it exited non-zero or was killed. Failures to write the file are
// ToolErrors in Node's fs wording.
mcp::ToolResult RunCode(const Options& options, const Language& language, const std::string& code,
                        const mcp::ToolContext& context);

}  // namespace sbx::servers::code_runner
