#include "servers/excel/book_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>

#include "confine/beneath.h"
#include "confine/create.h"
#include "core/strings.h"
#include "python_text/repr.h"
#include "servers/excel/py_error.h"

namespace sbx::servers::excel {
namespace {

// The path below the workspace ("" when it is the workspace itself), or
// nullopt when it is not under it (lexically; the kernel checks the rest).
std::optional<std::string> Relative(const Context& ctx, const std::string& path) {
  const std::string& root = ctx.root_path;
  if (path.compare(0, root.size(), root) != 0) return std::nullopt;
  if (path.size() == root.size()) return std::string();
  if (path[root.size()] != '/') return std::nullopt;
  std::string rel = path.substr(root.size() + 1);
  while (!rel.empty() && rel.front() == '/') rel.erase(0, 1);
  return rel;
}

// CPython's OSError text: "[Errno 2] No such file or directory: '/data/x'".
[[noreturn]] void ThrowOs(int err, const std::string& path) {
  std::string cls = "OSError";
  if (err == ENOENT) cls = "FileNotFoundError";
  else if (err == EISDIR) cls = "IsADirectoryError";
  else if (err == EACCES || err == EPERM) cls = "PermissionError";
  else if (err == ENOTDIR) cls = "NotADirectoryError";
  else if (err == EEXIST) cls = "FileExistsError";
  throw PyError(cls, "[Errno " + std::to_string(err) + "] " + std::strerror(err) + ": " + py::Repr(std::string_view(path)));
}

// Leaving the workspace reads as the jail's answer: permission denied.
[[noreturn]] void ThrowOutside(const std::string& path) { ThrowOs(EACCES, path); }

int ErrnoOf(const Error& e, int fallback) {
  // confine's PlainWording keeps the errno in the message only; re-derive
  // it from the code.
  switch (e.code) {
    case ErrorCode::kNotFound: return ENOENT;
    default: return fallback;
  }
}

confine::Wording KeepErrno(int& out) {
  return [&out](const confine::OsFailure& f) {
    out = f.err;
    return confine::PlainWording(f);
  };
}

bool SupportedExtension(const std::string& path, std::string& ext) {
  std::size_t slash = path.rfind('/');
  std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1);
  // os.path.splitext: leading dots do not start an extension.
  std::size_t lead = base.find_first_not_of('.');
  std::size_t dot = base.rfind('.');
  ext = (lead != std::string::npos && dot != std::string::npos && dot > lead) ? base.substr(dot) : "";
  ext = strings::AsciiLower(ext);
  return ext == ".xlsx" || ext == ".xlsm" || ext == ".xltx" || ext == ".xltm";
}

std::string TempName(const std::string& name) {
  static std::atomic<unsigned> counter{0};
  return "." + name + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".excel-tmp";
}

}  // namespace

std::string FullPath(const std::string& filepath) {
  if (!filepath.empty() && filepath[0] == '/') return filepath;
  throw PyError("ValueError", "Invalid filename: " + filepath + ", must be an absolute path when not in SSE mode");
}

Workbook LoadBook(const Context& ctx, const std::string& path) {
  std::string ext;
  if (!SupportedExtension(path, ext)) {
    std::string msg;
    if (ext == ".xls")
      msg = "openpyxl does not support the old .xls file format, please use xlrd to read this file, or convert it "
            "to the more recent .xlsx file format.";
    else if (ext == ".xlsb")
      msg = "openpyxl does not support binary format .xlsb, please convert this file to .xlsx format if you want "
            "to open it with openpyxl";
    else
      msg = "openpyxl does not support " + ext +
            " file format, please check you can open it with Excel first. Supported formats are: "
            ".xlsx,.xlsm,.xltx,.xltm";
    throw PyError("InvalidFileException", msg);
  }
  auto rel = Relative(ctx, path);
  if (!rel) ThrowOutside(path);
  int err = 0;
  auto fd = confine::OpenBeneath(ctx.root.get(), rel->empty() ? "." : *rel, O_RDONLY, KeepErrno(err));
  if (!fd) ThrowOs(err == EXDEV || err == ELOOP ? EACCES : (err ? err : ErrnoOf(fd.error(), EIO)), path);
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0) ThrowOs(errno, path);
  if (S_ISDIR(st.st_mode)) ThrowOs(EISDIR, path);
  if (static_cast<std::uint64_t>(st.st_size) > ctx.options.max_file_bytes)
    throw PyError("OSError", "File too large: " + py::Repr(std::string_view(path)) + " is " + std::to_string(st.st_size) +
                                 " bytes, more than this deployment's limit of " +
                                 std::to_string(ctx.options.max_file_bytes));
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = ::read(fd->get(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) ThrowOs(errno, path);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  LoadLimits limits;
  limits.max_cells = ctx.options.max_cells;
  limits.package.max_package_bytes = ctx.options.max_file_bytes;
  limits.package.max_total_bytes = ctx.options.max_unzipped_bytes;
  limits.package.max_part_bytes = std::min(limits.package.max_part_bytes, ctx.options.max_unzipped_bytes);
  auto wb = Workbook::Load(bytes, limits);
  if (!wb) {
    const ooxml::Error& e = wb.error();
    switch (e.fault) {
      case ooxml::Fault::kNotZip: throw PyError("BadZipFile", "File is not a zip file");
      case ooxml::Fault::kMissingPart: {
        std::string part = e.part.empty() ? "" : e.part.substr(1);
        throw PyError("KeyError", "\"There is no item named '" + part + "' in the archive\"");
      }
      default: throw PyError("ValueError", "Unreadable workbook " + path + ": " + e.message);
    }
  }
  return std::move(*wb);
}

void SaveBook(const Context& ctx, Workbook& wb, const std::string& path, bool make_parents) {
  auto rel = Relative(ctx, path);
  if (!rel || rel->empty()) ThrowOutside(path);
  auto bytes = wb.Save();
  if (!bytes) throw PyError("ValueError", "Could not write workbook: " + bytes.error().message);
  if (bytes->size() > ctx.options.max_file_bytes)
    throw PyError("OSError", "File too large: the workbook would be " + std::to_string(bytes->size()) +
                                 " bytes, more than this deployment's limit of " +
                                 std::to_string(ctx.options.max_file_bytes));
  std::size_t slash = rel->rfind('/');
  std::string dir = slash == std::string::npos ? "" : rel->substr(0, slash);
  std::string name = slash == std::string::npos ? *rel : rel->substr(slash + 1);
  if (name.empty() || name == "." || name == "..") ThrowOs(EISDIR, path);
  int err = 0;
  Result<UniqueFd> dirfd = make_parents ? confine::MakeDirectories(ctx.root.get(), dir, 0777, KeepErrno(err))
                                        : confine::OpenBeneath(ctx.root.get(), dir.empty() ? "." : dir,
                                                               O_PATH | O_DIRECTORY, KeepErrno(err));
  if (!dirfd) ThrowOs(err == EXDEV || err == ELOOP ? EACCES : (err ? err : EIO), path);
  confine::Replacement how;
  how.temp_name = TempName(name);
  err = 0;
  if (auto st = confine::ReplaceFile(dirfd->get(), name, *bytes, how, KeepErrno(err)); !st)
    ThrowOs(err ? err : EIO, path);
}

FileInfo StatPath(const Context& ctx, const std::string& path) {
  FileInfo info;
  auto rel = Relative(ctx, path);
  if (!rel) return info;
  int err = 0;
  auto fd = confine::OpenBeneath(ctx.root.get(), rel->empty() ? "." : *rel, O_PATH, KeepErrno(err));
  if (!fd) return info;
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0) return info;
  info.exists = true;
  info.size = static_cast<std::uint64_t>(st.st_size);
  info.mtime = static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) * 1e-9;
  return info;
}

}  // namespace sbx::servers::excel
