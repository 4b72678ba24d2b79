// How confine/ reports a failed system call: as the project's Error, worded
// by the caller.
//
// Every server words file errors in its upstream's style (Node's "ENOENT:
// no such file or directory, open '…'", Python's "[Errno 2] …: '…'", a
// sentence of its own). confine/ knows the errno, the call and the path but
// not the style, so each function that can fail takes a Wording: the server
// turns an OsFailure into its Error. PlainWording is the default for callers
// without an upstream to imitate (and for tests).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::confine {

struct OsFailure {
  int err = 0;               // errno (EXDEV: the path would leave the root)
  std::string_view syscall;  // "open", "mkdir", "write", "close", "fchmod", "rename", "realpath"
  std::string path;          // what the call was about, relative to the root or dirfd ("" = itself)
  std::string dest;          // "rename": the name replaced; else empty
};

using Wording = std::function<Error(const OsFailure&)>;

// kNotFound for ENOENT/ENOTDIR (absent, so callers can tell "absent" from
// "broken"), kForbidden for EXDEV/ELOOP (a way out, or a loop, was
// refused), kInvalidArgument for EINVAL/ENAMETOOLONG, kInternal otherwise.
ErrorCode CodeOf(int err);

// "<syscall> '<path>': <strerror>" with CodeOf's code.
Error PlainWording(const OsFailure& f);

}  // namespace sbx::confine
