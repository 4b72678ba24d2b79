#include "confine/failure.h"

#include <cerrno>
#include <cstring>

namespace sbx::confine {

ErrorCode CodeOf(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return ErrorCode::kNotFound;
    case EXDEV:
    case ELOOP:
      return ErrorCode::kForbidden;
    case EINVAL:
    case ENAMETOOLONG:
      return ErrorCode::kInvalidArgument;
    default:
      return ErrorCode::kInternal;
  }
}

Error PlainWording(const OsFailure& f) {
  std::string message = std::string(f.syscall) + " '" + f.path + "'";
  if (!f.dest.empty()) message += " -> '" + f.dest + "'";
  return MakeError(CodeOf(f.err), message + ": " + std::strerror(f.err));
}

}  // namespace sbx::confine
