// File helpers for the servers' unit tests: a fresh temporary directory,
// whole-file reads and writes, and a snapshot of a tree that tests compare
// before and after to prove a call changed nothing outside its root.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/fs.h"

namespace sbx::servers::test_support {

// A new directory /tmp/<name>_XXXXXX; "" (and a test failure) if mkdtemp fails.
inline std::string MakeTempDir(const std::string& name) {
  std::string tmpl = "/tmp/" + name + "_XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << tmpl;
    return "";
  }
  return tmpl;
}

inline void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Whether anything (a dangling link too) is at `path`.
inline bool Exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Every path below `dir` with its type and content ("dir", "link:<target>",
// "file:<content>"), except the subtrees at `skip` (the roots tools may
// change): what no call may ever change.
inline void TreeSnapshot(const std::string& dir, const std::vector<std::string>& skip,
                         std::map<std::string, std::string>& out) {
  for (const auto& name : fs::ListDir(dir)) {
    std::string path = dir + "/" + name;
    bool skipped = false;
    for (const auto& s : skip) skipped = skipped || path == s;
    if (skipped) continue;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out[path] = "dir";
      TreeSnapshot(path, skip, out);
    } else if (S_ISLNK(st.st_mode)) {
      char buf[4096];
      ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
      out[path] = "link:" + std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
    } else {
      out[path] = "file:" + ReadFile(path);
    }
  }
}
inline std::map<std::string, std::string> TreeSnapshot(const std::string& dir, const std::vector<std::string>& skip) {
  std::map<std::string, std::string> out;
  TreeSnapshot(dir, skip, out);
  return out;
}

}  // namespace sbx::servers::test_support
