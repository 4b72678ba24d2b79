// Internal to archive/: small RAII helpers shared by extract.cc and pack.cc.
#pragma once

#include <locale.h>
#include <unistd.h>

#include <memory>

#include "core/unique_fd.h"

struct archive;

namespace sbx::archive::internal {

using sbx::UniqueFd;

// Switches the calling thread (only) to the C.UTF-8 character set while alive.
// libarchive converts pax header names between UTF-8 and the current locale's
// charset; a process that never called setlocale() runs in the ASCII "C"
// locale, where every non-ASCII name raises a warning on read and is written
// with "hdrcharset=BINARY" (which GNU tar warns about). Under C.UTF-8 names
// pass through byte for byte. Per-thread, so concurrent requests are unaffected.
class Utf8LocaleScope {
 public:
  Utf8LocaleScope();
  ~Utf8LocaleScope();
  Utf8LocaleScope(const Utf8LocaleScope&) = delete;
  Utf8LocaleScope& operator=(const Utf8LocaleScope&) = delete;

 private:
  locale_t previous_ = nullptr;
};

struct ArchiveReadDeleter {
  void operator()(struct ::archive* a) const;
};
struct ArchiveWriteDeleter {
  void operator()(struct ::archive* a) const;
};
using ArchiveReader = std::unique_ptr<struct ::archive, ArchiveReadDeleter>;
using ArchiveWriter = std::unique_ptr<struct ::archive, ArchiveWriteDeleter>;

// libarchive's last error for `a`, never null.
const char* ArchiveErrorText(struct ::archive* a);

}  // namespace sbx::archive::internal
