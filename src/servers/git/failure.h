// A tool failure carrying the exact text of the error result (upstream's
// exception text). Not an std::exception message: that stops at a NUL byte,
// which user input may hold; the tool wrapper turns it into an error result.
#pragma once

#include <string>
#include <utility>

namespace sbx::servers::git {

struct ToolFailure {
  std::string message;
};

[[noreturn]] inline void Fail(std::string message) { throw ToolFailure{std::move(message)}; }

}  // namespace sbx::servers::git
