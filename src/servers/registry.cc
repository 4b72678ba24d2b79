#include "servers/registry.h"

#include <map>
#include <mutex>
#include <string>

#include "servers/filesystem/filesystem.h"

namespace sbx::servers {

std::shared_ptr<const mcp::ServerDefinition> Find(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const mcp::ServerDefinition>, std::less<>> built;
  std::lock_guard lock(mu);
  if (auto it = built.find(name); it != built.end()) return it->second;
  std::shared_ptr<const mcp::ServerDefinition> server;
  // Inside the jail the workspace is always /data (DESIGN.md).
  if (name == "filesystem") server = filesystem::MakeServer(filesystem::Options{{"/data"}});
  if (server) built.emplace(std::string(name), server);
  return server;
}

}  // namespace sbx::servers
