// JSON text exactly as Python's json.dumps writes it, which is what the
// upstream server (Python) puts in every result: ensure_ascii escaping
// (\uXXXX, lowercase hex, surrogate pairs, DEL escaped too), ", " and ": "
// separators when compact, and json.dumps(indent=2)'s layout ("[]" and "{}"
// for empty containers, "," at line ends, no trailing spaces). Keys keep
// their insertion order (sbx::Json is ordered), as Python dicts do.
#pragma once

#include <string>

#include "core/json.h"

namespace sbx::servers::arxiv {

// json.dumps(value) when indent < 0, json.dumps(value, indent=indent) else.
// Strings must be valid UTF-8 (invalid bytes come out as U+FFFD).
std::string PyDumps(const Json& value, int indent = -1);

}  // namespace sbx::servers::arxiv
