// The jailed side of SpawnJail: the sandbox-agent calls EnterJail first
// thing, as pid 1 of its new pid namespace and still real root. On success
// the process is inside its finished jail (root, namespaces, user namespace,
// limits, no capabilities, seccomp) and may start serving; on failure the
// reason has been sent to sandboxd and the process must exit.
#pragma once

#include "core/result.h"
#include "jail/spec.h"

namespace sbx::jail {

// File descriptors SpawnJail hands to the agent.
inline constexpr int kSpecFd = 3;     // memfd holding the JailSpec JSON
inline constexpr int kSyncFd = 4;     // seqpacket socket to sandboxd for the start-up handshake
inline constexpr int kListenFd = 5;   // listening unix socket sandboxd connects to

// Reads the spec from kSpecFd.
Result<JailSpec> ReadSpec();

// Runs the handshake with sandboxd on kSyncFd and builds the jail.
Status EnterJail(const JailSpec& spec);

// Reports a failure to sandboxd (best effort) before the caller exits.
void ReportFailure(const std::string& message);

}  // namespace sbx::jail
