// The file operations behind the tools, done relative to a validated
// Target's directory descriptor: never by path, never following a symbolic
// link (O_NOFOLLOW, AT_SYMLINK_NOFOLLOW, renames that replace a link rather
// than write through it). Failures are FsErrors with the message Node gives
// for the same failure of upstream's call (syscall name, path as upstream
// passes it).
//
// Writes never modify an existing inode: an existing file is replaced by a
// new one (temporary file + rename), as upstream does, so a hard link to the
// old file keeps its content.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "servers/filesystem/resolver.h"

namespace sbx::servers::filesystem {

// fs.readFile: the whole file as raw bytes (bounded by kMaxReadBytes).
std::string ReadFileBytes(const Target& target);
// upstream's headFile / tailFile (text, lines as upstream counts them).
// `per_chunk`: each 1 KiB chunk decoded on its own (2025.7.1's headFile).
std::string HeadFile(const Target& target, double lines, bool per_chunk = false);
std::string TailFile(const Target& target, double lines);
// 2025.7.1's tailFile (chunks decoded and split on their own).
std::string TailFileByChunk(const Target& target, double lines);

// upstream's writeFileContent: exclusive create, else atomic replace
// keeping the old permission bits (`keep_mode` false: the 2025.7.1 variant,
// whose replacement kept the new file's bits).
void WriteFileContent(const Target& target, std::string_view content, bool keep_mode = true);
// upstream's temp-file-and-rename rewrite of an existing file (edit_file).
void ReplaceFileContent(const Target& target, std::string_view content, bool keep_mode = true);

// fs.mkdir(path, {recursive: true})
void MakeDirectories(const Target& target);

// upstream's moveFile: refuses an existing destination. With `replace`
// (the 2025.7.1 variant: a bare fs.rename) rename(2)'s rules apply instead:
// a file or an empty directory at the destination is replaced.
void MoveTarget(const Target& source, const Target& destination, bool replace = false);

// fs.stat of the target (statx: the birth time is 0 where the file system
// has none, as libuv reports it).
struct FileStats {
  std::uint64_t size = 0;
  std::int64_t birth = 0, modified = 0, accessed = 0;  // seconds since the epoch
  unsigned mode = 0;
};
FileStats StatTarget(const Target& target);

// write(2) until all of `data` is written; errors as Node's write.
void WriteAll(int fd, std::string_view data);
// pread(2) of up to `size` bytes at `offset` (a directory fails as Node's
// read does).
std::size_t ReadAt(int fd, char* buf, std::size_t size, std::uint64_t offset);

// An O_PATH descriptor of the target directory, for listing it. Errors name
// the call upstream would have failed in (`syscall`, e.g. "scandir").
UniqueFd OpenDirectoryTarget(const Target& target, std::string_view syscall);

}  // namespace sbx::servers::filesystem
