// The pieces of CPython's text behaviour that show up in mcp-server-git's
// results: upstream formats commits with repr() and str() of Python objects,
// decodes git's bytes with Python codecs and prints paths the way pathlib and
// os.path normalise them. Each function here reproduces one such behaviour,
// so the result texts match upstream byte for byte.
//
// Thread-safety: all functions are pure (NextObjectAddress uses an atomic).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "python_text/codec.h"
#include "python_text/datetime.h"
#include "python_text/repr.h"

namespace sbx::servers::git::py {

// From src/python_text: repr() of a str and float, bytes.decode(…,
// "replace") and the UnicodeDecodeError message.
using ::sbx::py::DecodeReplace;
using ::sbx::py::DecodeUtf8Replace;
using ::sbx::py::FloatRepr;
using ::sbx::py::Repr;
using ::sbx::py::Utf8DecodeError;

// str(pathlib.PurePosixPath(path)): repeated and trailing slashes and "."
// components dropped, exactly two leading slashes kept, "" becomes ".".
std::string PurePathStr(std::string_view path);

// os.path.normpath(path) (POSIX).
std::string NormPath(std::string_view path);

// A datetime as GitPython builds it for a commit: `timestamp` seconds since
// the epoch shown at `offset_east` seconds from UTC (from_timestamp: an
// offset of a day or more falls back to UTC).
struct DateTime {
  std::int64_t timestamp = 0;
  int offset_east = 0;
};

// str(datetime), e.g. "2024-01-15 14:30:25+01:00". Throws std::out_of_range
// with CPython's message when the year leaves 1..9999.
std::string DateTimeStr(const DateTime& dt);
// repr(datetime), e.g. "datetime.datetime(2024, 1, 15, 14, 30, 25,
// tzinfo=<git.objects.util.tzoffset object at 0x7f…>)"; the object address
// is a fresh made-up one per call, as each commit gets its own tzinfo.
std::string DateTimeRepr(const DateTime& dt);

// A plausible CPython object address ("0x7f…"), different on each call.
std::string NextObjectAddress();

}  // namespace sbx::servers::git::py
