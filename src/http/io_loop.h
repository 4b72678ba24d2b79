// How an io thread runs its io_context: like io_context::run, except that
// after the last ready handler the thread keeps polling for up to `spin`
// before it sleeps in epoll.
//
// Why: an MCP call crosses four sleeping threads (client → sandboxd →
// agent → sandboxd → client), and on virtual machines waking a thread on an
// idle CPU costs tens of microseconds on both sides (an inter-processor
// interrupt through the hypervisor, a halted vCPU resumed). A thread still
// polling when the agent's reply or the client's next request arrives
// needs no wake-up. Each poll yields the CPU first, so the spin only uses
// time no other thread on that CPU wants, and it stops `spin` after the
// last handler: an idle sandboxd sleeps.
#pragma once

#include <chrono>

#include "http/asio.h"

namespace sbx::http {

// Runs `io` until it is stopped or out of work; handlers run on this thread.
// spin == 0 is io_context::run.
void RunPolling(asio::io_context& io, std::chrono::microseconds spin);

}  // namespace sbx::http
