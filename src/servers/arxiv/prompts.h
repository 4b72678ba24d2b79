// The arxiv server's prompts (upstream 0.2.11 lists one, deep-paper-analysis,
// and answers prompts/get for it alone). The prompt's messages carry our own
// analysis instructions, with upstream's structure: the paper id, the papers
// analysed before in this server's lifetime, then the output sections and
// the analysis guide.
#pragma once

#include "mcp/features.h"

namespace sbx::servers::arxiv {

// The prompts and their prompts/get, with the state of one server (the
// papers analysed so far, shared by its sessions as upstream's
// module-global context is shared by its one client).
mcp::PromptOptions MakePrompts();

}  // namespace sbx::servers::arxiv
