// Tool failures in the words the upstream server (Node) uses. A failed
// system call becomes "<CODE>: <libuv description>, <syscall> '<path>'"
// (with " -> '<dest>'" for two-path calls, and without a path for read),
// exactly as Node formats fs errors; other failures carry upstream's own
// sentences. Every FsError is an mcp::ToolError, so a handler that lets one
// escape produces upstream's error result.
#pragma once

#include <string>
#include <string_view>

#include "mcp/tool.h"

namespace sbx::servers::filesystem {

class FsError : public mcp::ToolError {
 public:
  // A failure without an errno (access denied, bad arguments, bounds).
  explicit FsError(const std::string& message) : mcp::ToolError(message), message_(message) {}
  FsError(int err, const std::string& message)
      : mcp::ToolError(message), message_(message), errno_(err) {}
  // errno of the failed call, 0 for other failures.
  int code() const { return errno_; }
  // The whole message; what() stops at a NUL byte, which a path may hold.
  const std::string& message() const { return message_; }

 private:
  std::string message_;
  int errno_ = 0;
};

// "ENOENT", "EISDIR", … (libuv's names; "UNKNOWN" for others).
std::string_view ErrnoName(int err);
// libuv's description: "no such file or directory", …
std::string_view ErrnoDescription(int err);

// Node's message for a failed fs call.
std::string NodeErrorMessage(int err, std::string_view syscall);
std::string NodeErrorMessage(int err, std::string_view syscall, std::string_view path);
std::string NodeErrorMessage(int err, std::string_view syscall, std::string_view path,
                             std::string_view dest);

[[noreturn]] void ThrowErrno(int err, std::string_view syscall);
[[noreturn]] void ThrowErrno(int err, std::string_view syscall, std::string_view path);
[[noreturn]] void ThrowErrno(int err, std::string_view syscall, std::string_view path,
                             std::string_view dest);

}  // namespace sbx::servers::filesystem
