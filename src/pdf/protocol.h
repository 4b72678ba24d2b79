// What the sandbox-pdf helper and its client agree on: the command line,
// the descriptors, and the JSON written on stdout. Nothing here parses a PDF.
//
//   sandbox-pdf COMMAND --memory-bytes N --cpu-seconds N [options]
//
// Inputs arrive as inherited descriptors 3, 4, … (--inputs N says how many;
// default 1), read-only and already confined by the caller; a command that
// writes a PDF writes it to the descriptor after the inputs (3 + N). The
// helper sets RLIMIT_AS (N bytes) and RLIMIT_CPU (N seconds) before it reads
// anything. Its stdout is one JSON object:
//   success: the command's fields (below);
//   failure: {"error": "<message>", "code": "invalid_argument"|"too_large",
//             "input": i (the failing input, merge only)}.
// Exit status 0 in both cases; anything else (a signal, exit 70) is a crash.
//
// Commands and their fields:
//   text  --first F --last L   the range clamped as pdf-tools-mcp does (each
//                               end at least 1, at most the page count, then
//                               ordered): {"page_count", "first", "last",
//                               "pages": ["text of first", …]}
//   info                        {"page_count", "metadata": {"Title": …} (the
//                               Info entries that are text), "page_sizes":
//                               [[w, h], …] (media boxes, points),
//                               "encrypted"}
//   merge --inputs N            {"page_counts": [n1, …]}; output: the pages of
//                               all inputs in order
//   extract --pages 3,1,3       {"page_count", "extracted": [the listed pages
//                               that exist, in order]}; output: those pages
//                               (nothing written when none exists)
//   search --pattern-hex HEX --context C --max-matches M
//                               {"page_count", "matches": [[page, text,
//                               before, after], …]} (commands.h: Search)
//   markdown --max-pages N --max-output N   {"markdown": "…"} (markdown.h)
// --max-output bounds the text a command returns (text, markdown).
#pragma once

namespace sbx::pdf {

inline constexpr const char* kHelperName = "sandbox-pdf";
inline constexpr int kFirstInputFd = 3;
// A crash the helper noticed itself (an exception it did not expect).
inline constexpr int kHelperInternalExit = 70;

}  // namespace sbx::pdf
