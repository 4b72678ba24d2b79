// The files of one sandbox on the host, under <data_dir>/sandboxes/<id>/:
//   layers/      overlay layers of /data: base-* (the tree of an initialize,
//                the lower layer), upper-* and work-* (the sandbox's changes)
//   layers.json  which layers are current, and the sandbox's host uid
//   root/        empty; the jail mounts its root tmpfs here (in its own
//                mount namespace only)
//   exec/        execution directories, the jail's /exec
//   executions/  execution logs (host side only; the jail cannot reach them)
//   uploads/     uploaded archives (<object>.tar.gz; .part while arriving)
//   dumps/       dump and artifact archives served through signed URLs
//   tmp/         staging trees; anything here is garbage after a crash
//   agent.sock   the agent's socket; agent.log its stderr
//
// Layer changes are crash-safe: new layer directories are made first, then
// layers.json is replaced atomically (with "pending" set until the jail has
// switched), and unreferenced layer directories are collected afterwards.
//
// Not thread-safe: the Manager serialises operations per sandbox.
#pragma once

#include <sys/types.h>

#include <string>

#include "core/result.h"
#include "jail/spec.h"

namespace sbx::sandbox {

struct LayerState {
  uid_t uid = 0;          // the host uid that is root inside the sandbox
  std::string lower;      // names below layers/
  std::string upper;
  std::string work;
  bool pending = false;   // written before the jail switched to these layers
};

class Workspace {
 public:
  explicit Workspace(std::string root) : root_(std::move(root)) {}

  const std::string& root() const { return root_; }
  std::string layers_dir() const { return root_ + "/layers"; }
  std::string root_mount_dir() const { return root_ + "/root"; }
  std::string exec_dir() const { return root_ + "/exec"; }
  std::string logs_dir() const { return root_ + "/executions"; }
  std::string uploads_dir() const { return root_ + "/uploads"; }
  std::string dumps_dir() const { return root_ + "/dumps"; }
  std::string tmp_dir() const { return root_ + "/tmp"; }
  std::string socket_path() const { return root_ + "/agent.sock"; }
  std::string agent_log_path() const { return root_ + "/agent.log"; }

  // Creates the layout with an empty lower layer owned by `uid`. Fails if
  // root exists.
  Status Create(uid_t uid);
  Result<LayerState> ReadLayers() const;
  Status WriteLayers(const LayerState& state) const;
  jail::Layers LayerPaths(const LayerState& state) const;
  // A new empty layer directory layers/<kind>-<random>, owned by `uid`.
  Result<std::string> NewLayer(const std::string& kind, uid_t uid) const;
  // Moves a staging tree (under tmp/) into layers/ as a new base layer.
  Result<std::string> AdoptBase(const std::string& staging) const;
  // Removes the layer directories `state` does not name.
  Status CollectLayers(const LayerState& state) const;
  // A new empty directory under tmp/ for staging an extraction.
  Result<std::string> NewStagingDir();
  // Deletes tmp/ contents and partial uploads/dumps left by a crash; recreates
  // missing layout directories.
  Status Repair();
  // Removes everything.
  Status Destroy();

 private:
  std::string root_;
};

// Gives `path` and everything below it (links themselves, never followed)
// to `uid`:`uid`. For trees the sandbox cannot reach yet (staging).
Status ChownTree(const std::string& path, uid_t uid);

}  // namespace sbx::sandbox
