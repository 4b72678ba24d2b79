// The file operations the tools do themselves (upstream's fs.access,
// readFile, writeFile, appendFile, mkdir), confined to the workspace in the
// kernel: each path is resolved by servers/filesystem's PathPolicy, from a
// descriptor of the workspace, one component at a time, following only links
// that stay inside, and the operation runs on the descriptor it yields.
//
// Failures are FileErrors whose message is what Node would have said for
// upstream's call ("ENOENT: no such file or directory, access '<path>'",
// with the path as the caller passed it), or the PathPolicy's "Access
// denied - …" sentence for a path that leaves the workspace.
//
// Thread-safety: stateless; each call resolves afresh.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sbx::servers::code_executor {

class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class WorkspaceFiles {
 public:
  explicit WorkspaceFiles(std::string workspace) : workspace_(std::move(workspace)) {}

  // Each takes the absolute path to act on and the path to name in
  // messages (upstream prints the argument as given).

  // fs.access(path): throws unless the path exists inside the workspace.
  void Access(const std::string& absolute, const std::string& shown) const;
  // fs.readFile(path, 'utf-8'): invalid UTF-8 becomes U+FFFD as in Node.
  std::string ReadText(const std::string& absolute, const std::string& shown) const;
  // fs.appendFile(path, content) on an existing file.
  void Append(const std::string& absolute, const std::string& shown,
              std::string_view content) const;
  // fs.writeFile(path, content): creates the file (its directory must exist).
  void Write(const std::string& absolute, const std::string& shown, std::string_view content) const;
  // fs.mkdir(path, {recursive: true}).
  void MakeDirectories(const std::string& absolute) const;
  // Whether `absolute` is a regular file inside the workspace (never throws).
  bool IsFile(const std::string& absolute) const;
  // Whether `absolute` does not exist or is an empty directory (never
  // throws; false when it cannot tell).
  bool Vacant(const std::string& absolute) const;
  // Whether `absolute` lies inside the workspace: lexically, and through
  // whatever links its existing part holds (never throws).
  bool Contains(const std::string& absolute) const;

 private:
  std::string workspace_;
};

}  // namespace sbx::servers::code_executor
