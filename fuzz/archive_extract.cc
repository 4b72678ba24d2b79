// Uploaded archives: any bytes through libarchive and our rules (no path
// escapes, no links out, no devices, bounded size, entries and depth), into
// a fresh directory that is removed afterwards. A refusal is fine; a crash,
// a hang or a file written outside the directory is not.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "archive/extract.h"
#include "core/fs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string base = [] {
    char tmpl[] = "/tmp/sandboxd-fuzz-extract-XXXXXX";
    return std::string(::mkdtemp(tmpl));
  }();
  const std::string archive = base + "/in.tar.gz";
  const std::string dest = base + "/out";
  if (!sbx::fs::WriteFileAtomic(archive, std::string(reinterpret_cast<const char*>(data), size), 0600)) return 0;
  if (!sbx::fs::MakeDirs(dest)) return 0;
  sbx::archive::ExtractLimits limits;
  limits.max_total_bytes = 1 << 20;
  limits.max_entries = 512;
  limits.max_depth = 16;
  (void)sbx::archive::ExtractArchive(archive, dest, limits);
  // Whatever was made stays below `dest`: removing it removes all of it.
  (void)sbx::fs::RemoveTree(dest);
  return 0;
}
