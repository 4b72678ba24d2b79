// The files of one sandbox on the host, under <data_dir>/sandboxes/<id>/:
//   base/     the tree of the last initialize (empty until then)
//   work/     the live workspace the sandbox sees as /data
//   uploads/  uploaded archives (<object>.tar.gz; <object>.part while arriving)
//   dumps/    dump archives served through signed URLs
//   tmp/      staging trees; anything here is garbage after a crash
//
// Reset makes work/ a fresh copy of base/. Both swaps are done with
// renameat2(RENAME_EXCHANGE), so after a crash at any instant work/ and base/
// each hold either the old or the new tree, never a half-built one. (The jail
// issue replaces the copy with an overlay: base/ lower, changes upper.)
//
// Not thread-safe: the Manager serialises operations per sandbox.
#pragma once

#include <string>

#include "core/result.h"

namespace sbx::sandbox {

class Workspace {
 public:
  explicit Workspace(std::string root) : root_(std::move(root)) {}

  const std::string& root() const { return root_; }
  std::string base_dir() const { return root_ + "/base"; }
  std::string work_dir() const { return root_ + "/work"; }
  std::string uploads_dir() const { return root_ + "/uploads"; }
  std::string dumps_dir() const { return root_ + "/dumps"; }
  std::string tmp_dir() const { return root_ + "/tmp"; }

  // Creates the layout with an empty base and work. Fails if root exists.
  Status Create();
  // A new empty directory under tmp/ for staging an extraction.
  Result<std::string> NewStagingDir();
  // `staging` (under tmp/) becomes base/, and work/ becomes a copy of it.
  Status ReplaceBase(const std::string& staging);
  // work/ becomes a copy of base/.
  Status Reset();
  // Deletes tmp/ contents and partial uploads/dumps left by a crash; recreates
  // missing layout directories.
  Status Repair();
  // Removes everything.
  Status Destroy();

 private:
  Status ExchangeInto(const std::string& fresh, const std::string& target);
  std::string root_;
};

}  // namespace sbx::sandbox
