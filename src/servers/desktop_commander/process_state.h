// upstream's heuristics over a process's output (utils/process-detection.ts
// and the "quick prompt" pattern of the terminal tools): whether it waits
// for input (a REPL or shell prompt on its last line), looks finished
// (completion or error markers), or runs; and the cleaning of a REPL's
// answer before it is shown. Pure functions over UTF-8 text, thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace sbx::servers::desktop_commander {

struct ProcessState {
  bool waiting_for_input = false;
  bool finished = false;
  bool running = true;
  std::string detected_prompt;  // set when waiting_for_input
};

// analyzeProcessState(output).
ProcessState AnalyzeProcessState(std::string_view output);

// />>>\s*$|>\s*$|\$\s*$|#\s*$/ on one chunk of output.
bool EndsWithQuickPrompt(std::string_view chunk);

// cleanProcessOutput(output, inputSent).
std::string CleanProcessOutput(std::string_view output, std::string_view input_sent);

// formatProcessStateMessage(state, pid).
// `pid` as upstream interpolates it (a JavaScript number).
std::string FormatProcessState(const ProcessState& state, const std::string& pid);

}  // namespace sbx::servers::desktop_commander
