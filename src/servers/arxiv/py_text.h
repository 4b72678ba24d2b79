// How Python's text reading treats a file's bytes, for read_paper (upstream:
// Path.read_text(encoding="utf-8")): strict UTF-8 decoding with Python's
// error message, and universal newlines ("\r\n" and "\r" read as "\n").
#pragma once

#include <optional>
#include <string>

namespace sbx::servers::arxiv {

// Python's UnicodeDecodeError text for the first malformed sequence, e.g.
// "'utf-8' codec can't decode byte 0xff in position 3: invalid start byte";
// empty when `bytes` is valid UTF-8.
std::optional<std::string> Utf8DecodeError(const std::string& bytes);

// "\r\n" and lone "\r" become "\n".
std::string UniversalNewlines(std::string text);

}  // namespace sbx::servers::arxiv
