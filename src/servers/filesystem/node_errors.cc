#include "servers/filesystem/node_errors.h"

#include <cerrno>

namespace sbx::servers::filesystem {
namespace {

struct UvError {
  int err;
  std::string_view name;
  std::string_view description;
};

// libuv's error map (the part file operations can produce), as Node prints it.
constexpr UvError kUvErrors[] = {
    {EPERM, "EPERM", "operation not permitted"},
    {ENOENT, "ENOENT", "no such file or directory"},
    {ESRCH, "ESRCH", "no such process"},
    {EINTR, "EINTR", "interrupted system call"},
    {EIO, "EIO", "i/o error"},
    {ENXIO, "ENXIO", "no such device or address"},
    {E2BIG, "E2BIG", "argument list too long"},
    {EBADF, "EBADF", "bad file descriptor"},
    {EAGAIN, "EAGAIN", "resource temporarily unavailable"},
    {ENOMEM, "ENOMEM", "not enough memory"},
    {EACCES, "EACCES", "permission denied"},
    {EFAULT, "EFAULT", "bad address in system call argument"},
    {EBUSY, "EBUSY", "resource busy or locked"},
    {EEXIST, "EEXIST", "file already exists"},
    {EXDEV, "EXDEV", "cross-device link not permitted"},
    {ENODEV, "ENODEV", "no such device"},
    {ENOTDIR, "ENOTDIR", "not a directory"},
    {EISDIR, "EISDIR", "illegal operation on a directory"},
    {EINVAL, "EINVAL", "invalid argument"},
    {ENFILE, "ENFILE", "file table overflow"},
    {EMFILE, "EMFILE", "too many open files"},
    {ENOTTY, "ENOTTY", "inappropriate ioctl for device"},
    {ETXTBSY, "ETXTBSY", "text file is busy"},
    {EFBIG, "EFBIG", "file too large"},
    {ENOSPC, "ENOSPC", "no space left on device"},
    {ESPIPE, "ESPIPE", "invalid seek"},
    {EROFS, "EROFS", "read-only file system"},
    {EMLINK, "EMLINK", "too many links"},
    {EPIPE, "EPIPE", "broken pipe"},
    {ERANGE, "ERANGE", "result too large"},
    {ENAMETOOLONG, "ENAMETOOLONG", "name too long"},
    {ENOSYS, "ENOSYS", "function not implemented"},
    {ENOTEMPTY, "ENOTEMPTY", "directory not empty"},
    {ELOOP, "ELOOP", "too many symbolic links encountered"},
    {ENODATA, "ENODATA", "no data available"},
    {EOVERFLOW, "EOVERFLOW", "value too large for defined data type"},
    {EILSEQ, "EILSEQ", "illegal byte sequence"},
    {ENOTSUP, "ENOTSUP", "operation not supported on socket"},
    {ETIMEDOUT, "ETIMEDOUT", "connection timed out"},
    {ECANCELED, "ECANCELED", "operation canceled"},
};

const UvError* Find(int err) {
  for (const auto& e : kUvErrors)
    if (e.err == err) return &e;
  return nullptr;
}

std::string Prefix(int err, std::string_view syscall) {
  std::string out(ErrnoName(err));
  out += ": ";
  out += ErrnoDescription(err);
  out += ", ";
  out += syscall;
  return out;
}

}  // namespace

std::string_view ErrnoName(int err) {
  const UvError* e = Find(err);
  return e ? e->name : "UNKNOWN";
}

std::string_view ErrnoDescription(int err) {
  const UvError* e = Find(err);
  return e ? e->description : "unknown error";
}

std::string NodeErrorMessage(int err, std::string_view syscall) { return Prefix(err, syscall); }

std::string NodeErrorMessage(int err, std::string_view syscall, std::string_view path) {
  return Prefix(err, syscall) + " '" + std::string(path) + "'";
}

std::string NodeErrorMessage(int err, std::string_view syscall, std::string_view path,
                             std::string_view dest) {
  return Prefix(err, syscall) + " '" + std::string(path) + "' -> '" + std::string(dest) + "'";
}

void ThrowErrno(int err, std::string_view syscall) {
  throw FsError(err, NodeErrorMessage(err, syscall));
}

void ThrowErrno(int err, std::string_view syscall, std::string_view path) {
  throw FsError(err, NodeErrorMessage(err, syscall, path));
}

void ThrowErrno(int err, std::string_view syscall, std::string_view path, std::string_view dest) {
  throw FsError(err, NodeErrorMessage(err, syscall, path, dest));
}

}  // namespace sbx::servers::filesystem
