// json.dumps as CPython writes it, the text most Python upstreams put in
// their results: default separators (", " and ": " compact, "," and ": "
// with an indent), ensure_ascii (\uXXXX in lowercase hex, surrogate pairs,
// DEL escaped too) or not, indent (0 still breaks lines), sort_keys, and
// NaN / Infinity / -Infinity for the floats JSON has no words for.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "core/json.h"
#include "python_text/value.h"

namespace sbx::py {

struct DumpsOptions {
  std::optional<int> indent;  // nullopt: one line
  bool ensure_ascii = true;
  bool sort_keys = false;  // str keys by code point; other keys throw
};

// json.dumps(value, ...). Dict keys that are not str are converted as
// Python does (True -> "true", 1.5 -> "1.5", None -> "null"); tuples are
// written as lists. Throws std::invalid_argument with CPython's TypeError
// text for what JSON cannot hold (date, datetime, a container key).
std::string Dumps(const Value& value, const DumpsOptions& options = {});

// json.dumps of the Python value a JSON document decodes to (FromJson),
// written without building it. Strings should be well-formed UTF-8; an
// ill-formed byte comes out as one U+FFFD.
std::string Dumps(const Json& value, const DumpsOptions& options = {});

}  // namespace sbx::py
