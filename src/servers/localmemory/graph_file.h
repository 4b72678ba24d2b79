// The memory file's format, upstream's: JSON Lines, one object per line,
// entities first then relations, each written by JSON.stringify with keys
//   {"type":"entity","name":…,"entityType":…,"observations":[…]}
//   {"type":"relation","from":…,"to":…,"relationType":…}
// joined by "\n" with no newline after the last line (an empty graph is an
// empty file). Reading skips lines that are empty or only JavaScript white
// space, as upstream does.
//
// Deliberate difference: upstream drops lines it does not understand (an
// unknown "type", extra keys) and rewrites the file without them at the next
// mutation, and a line that is not JSON makes every call fail with a bare
// JSON.parse message. Here any line that is not exactly one of the two
// shapes makes the file corrupt: every call fails with a message naming the
// file, the line and what is wrong, and nothing rewrites the file, so no
// data is ever silently lost.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "servers/localmemory/knowledge_graph.h"

namespace sbx::servers::localmemory {

// `shown_path` is the file's path as messages print it. A corrupt file is
// kInvalidArgument.
Result<KnowledgeGraph> ParseGraphFile(std::string_view data, const std::string& shown_path);

std::string SerializeGraph(const KnowledgeGraph& graph);

}  // namespace sbx::servers::localmemory
