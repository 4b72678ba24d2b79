// File helpers for the servers' unit tests: a fresh temporary directory,
// the tree escape tests aim at, whole-file reads and writes, and a snapshot of a tree that tests compare
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

// The tree the escape tests aim at, in a fresh temporary directory `base`:
// the workspace `<base>/<workspace_name>` and, beside it, "outside"
// (secret.txt, dir/inner.txt) and two siblings whose names start with the
// workspace's, "<workspace>2" and "<workspace>base" (file.txt in each): what
// a prefix check without a separator would let through. `base` is "" (and
// the test has failed) when a step fails.
struct EscapeTree {
  std::string base, workspace, outside;
};
inline EscapeTree MakeEscapeTree(const std::string& tag, const std::string& workspace_name = "root") {
  EscapeTree t;
  std::string base = MakeTempDir(tag);
  if (base.empty()) return t;
  std::string ws = base + "/" + workspace_name, outside = base + "/outside";
  for (const auto& d : {ws, outside, outside + "/dir", ws + "2", ws + "base"}) {
    if (::mkdir(d.c_str(), 0755) != 0) {
      ADD_FAILURE() << "mkdir " << d;
      return t;
    }
  }
  WriteFile(outside + "/secret.txt", "SECRET\n");
  WriteFile(outside + "/dir/inner.txt", "OUTSIDE INNER\n");
  WriteFile(ws + "2/file.txt", "SIBLING2\n");
  WriteFile(ws + "base/file.txt", "SIBLINGBASE\n");
  return {base, ws, outside};
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
