// The Python environment the tools run in: upstream's ENV_CONFIG, changed
// by configure_environment, and the venv this server creates when the
// configured one does not exist yet.
//
// Thread-safety: Environment serialises every access to the configuration
// and every creation of an environment directory.
#pragma once

#include <mutex>
#include <string>

#include "core/json.h"
#include "servers/code_executor/code_executor.h"

namespace sbx::servers::code_executor {

class Environment {
 public:
  explicit Environment(EnvironmentConfig initial) : config_(std::move(initial)) {}

  EnvironmentConfig Current() const;

  // configure_environment: upstream's validation, then the update (the type
  // always; a name or path only when given and non-empty). Returns the
  // answer's JSON body and whether it is an error.
  std::pair<Json, bool> Configure(const Json& arguments);

  // For venv / venv-uv: if `config`'s environment directory is inside the
  // workspace and does not exist or is empty, creates it (options.python -m venv
  // --system-site-packages --without-pip). Nothing happens when
  // options.create_missing_venv is off, for conda, or for a directory
  // outside the workspace: the command then fails as upstream's would.
  // Throws std::runtime_error with Node-style "Command failed: …" text when
  // creating fails.
  void Prepare(const EnvironmentConfig& config, const Options& options);

 private:
  mutable std::mutex mu_;
  EnvironmentConfig config_;
  std::mutex create_mu_;
};

}  // namespace sbx::servers::code_executor
