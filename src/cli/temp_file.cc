#include "cli/temp_file.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

namespace sbx::cli {
namespace {

// Paths of live temp files, for the signal handler: Ctrl-C during a long
// upload or download would otherwise leave a multi-GiB archive in $TMPDIR
// (destructors do not run when a signal kills the process). A few slots are
// enough: a command holds at most one or two temp files at a time.
constexpr int kSlots = 8;
std::atomic<char*> g_live[kSlots];

void RemoveLiveAndReraise(int sig) {
  for (auto& slot : g_live) {
    if (char* path = slot.load()) unlink(path);  // async-signal-safe
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_handler = RemoveLiveAndReraise;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &action, nullptr);
  });
}

void Track(const std::string& path) {
  InstallHandlersOnce();
  char* copy = strdup(path.c_str());
  for (auto& slot : g_live) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  free(copy);  // all slots busy: the file is still removed on a normal exit
}

void Untrack(const std::string& path) {
  for (auto& slot : g_live) {
    char* current = slot.load();
    if (current != nullptr && path == current && slot.compare_exchange_strong(current, nullptr)) {
      free(current);
      return;
    }
  }
}

}  // namespace

Result<TempFile> TempFile::Create(const std::string& dir, std::string_view prefix,
                                  std::string_view suffix) {
  std::string pattern = dir + "/" + std::string(prefix) + "XXXXXX" + std::string(suffix);
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  int fd = mkstemps(buf.data(), static_cast<int>(suffix.size()));
  if (fd < 0) {
    return MakeError(ErrorCode::kInternal,
                     "cannot create a temporary file in " + dir + ": " + std::strerror(errno));
  }
  close(fd);
  std::string path(buf.data());
  Track(path);
  return TempFile(std::move(path));
}

TempFile::~TempFile() {
  if (path_.empty()) return;
  unlink(path_.c_str());
  Untrack(path_);
}

Status TempFile::MoveTo(const std::string& target) {
  if (std::rename(path_.c_str(), target.c_str()) != 0) {
    return MakeError(ErrorCode::kInternal,
                     "cannot rename " + path_ + " to " + target + ": " + std::strerror(errno));
  }
  Untrack(path_);
  path_.clear();
  return Ok();
}

std::string TempDir() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace sbx::cli
