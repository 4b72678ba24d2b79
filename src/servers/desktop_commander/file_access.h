// The file system calls behind the tools, made relative to a validated
// path's descriptor (paths.h) and never through a symbolic link, each
// failing with the message Node gives for the call upstream makes
// ("ENOENT: no such file or directory, open '/data/x'").
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

#include "core/unique_fd.h"
#include "servers/desktop_commander/paths.h"

namespace sbx::servers::desktop_commander {

// open(2) of the path itself with `flags` (O_NOFOLLOW added); errors name
// `syscall` as Node would ("open", "scandir", …).
UniqueFd OpenValid(const ValidPath& file, int flags, std::string_view syscall);

// fs.stat of the path (the real path already: nothing left to follow).
struct stat StatValid(const ValidPath& file, std::string_view syscall = "stat");

// fs.writeFile (truncate or create, mode 0666 & ~umask) or fs.appendFile.
void WriteValid(const ValidPath& file, std::string_view content, bool append);

// fs.rename(source, destination): replaces an existing destination as
// rename(2) does.
void RenameValid(const ValidPath& source, const ValidPath& destination);

// pread loop: whatever is there up to `size` bytes at `offset`; errors as
// Node's read.
std::size_t ReadAt(int fd, char* buf, std::size_t size, std::uint64_t offset);

std::string Base64(std::string_view data);

}  // namespace sbx::servers::desktop_commander
