// The sandbox-agent's event loop: accepts sandboxd's connections on the
// listening socket, answers their JSON-RPC calls, and reaps every process of
// the jail (it is pid 1, so orphans come to it). Returns only on a fatal error.
#pragma once

namespace sbx::agent {

int RunAgent(int listen_fd);

}  // namespace sbx::agent
