// upstream's readFileFromDisk: a file as base64 (images) or as a window of
// its lines with a status header ("[Reading 10 lines from start (total:
// 42 lines, 32 remaining)]"), negative offsets reading from the end, binary
// files answered with instructions instead of their bytes. The strategy
// (and so the exact text) depends on the file's size, as upstream's does:
// lines as Node's readline splits them (\n, \r\n or a lone \r) for files
// under 10 MiB or windows from the start; for larger files a tail of at
// most 100 lines is cut from 8 KiB blocks read backwards, and a window deep
// inside starts at a position estimated from the first 10 kB.
//
// Every read goes through the descriptor of a validated path (paths.h).
// Memory is bounded: a window or tail holding more than kMaxHeldBytes is an
// error rather than a result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "servers/desktop_commander/paths.h"

namespace sbx::servers::desktop_commander {

// Most bytes of file content one read holds at once.
inline constexpr std::uint64_t kMaxHeldBytes = 64ull << 20;

struct FileContent {
  std::string content;  // text, or base64 for images
  std::string mime_type;
  bool is_image = false;
};

// upstream's getMimeType: image/png, image/jpeg, image/gif, image/webp by
// extension, text/plain for everything else.
std::string MimeTypeOf(const std::string& path);

// readFileFromDisk(validPath, offset, length) for an already validated
// path. Throws filesystem::FsError with upstream's (Node's) messages.
FileContent ReadFileFromDisk(const ValidPath& file, double offset, double length);

// The whole file as text (Node's readFile(path, 'utf8')), for edit_block.
std::string ReadWholeText(const ValidPath& file);

// content.split('\n').length of a regular file under 10 MiB, as upstream
// counts lines; nullopt for larger files or when it cannot be read.
std::optional<std::int64_t> CountLines(const ValidPath& file);

}  // namespace sbx::servers::desktop_commander
