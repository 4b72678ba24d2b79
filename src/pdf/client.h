// How servers use the sandbox-pdf helper (protocol.h): one short-lived
// child per request, given the confined input descriptors, bounded in
// memory, CPU time, wall-clock time and output size. A crash, kill or
// timeout of the helper is an error naming what happened, never a crash
// of the caller. This library links neither poppler nor qpdf.
//
// Finding the helper: the agent opens it (O_PATH) beside its own binary
// before it enters the jail, where that path is no longer visible
// (UseHelperBesideExecutable); children then run it through that
// descriptor. Processes outside a jail (tests) may name a path instead.
//
// Thread-safety: RunHelper may be called from any thread; the Use* functions are
// for start-up, before any RunHelper.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace sbx::pdf {

struct Limits {
  std::uint64_t memory_bytes = 512ull << 20;        // RLIMIT_AS of the helper
  int cpu_seconds = 30;                             // RLIMIT_CPU of the helper
  std::chrono::milliseconds timeout{60'000};        // wall clock, then SIGKILL
  std::uint64_t max_input_bytes = 256ull << 20;     // per input file
  std::uint64_t max_output_bytes = 8ull << 20;      // text returned, and the PDF written
};

struct Request {
  std::string command;                // protocol.h
  std::vector<std::string> arguments; // "--first", "3", …
  std::vector<int> inputs;            // read-only descriptors, kept by the caller
  bool writes_pdf = false;            // give the helper an output descriptor
  // When the helper's error names one of the inputs (merge), its index is
  // stored here.
  int* failed_input = nullptr;
};

struct Reply {
  Json fields;     // the command's success object (never an error object)
  std::string pdf; // the PDF written, when writes_pdf and the command wrote one
};

// Errors: the helper's own error object as kInvalidArgument / kTooLarge
// (its message as is); kUnavailable "cancelled" when `cancelled` said so;
// kUnavailable for a helper killed by its time or memory bounds or
// crashing (the message says which); kInternal when it cannot be started.
Result<Reply> RunHelper(const Request& request, const Limits& limits, const std::function<bool()>& cancelled = nullptr);

// The agent, before EnterJail: opens sandbox-pdf beside /proc/self/exe.
// A missing helper is not fatal here (sandboxd checks it at startup); RunHelper
// then fails with kInternal.
void UseHelperBesideExecutable();
// Tests and tools outside a jail: run the helper at `path`.
void UseHelperPath(const std::string& path);

}  // namespace sbx::pdf
