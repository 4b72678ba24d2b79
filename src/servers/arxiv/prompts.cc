#include "servers/arxiv/prompts.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/tool.h"

namespace sbx::servers::arxiv {
namespace {

constexpr const char* kName = "deep-paper-analysis";

// The sections the answer is asked for.
constexpr const char* kOutputSections = R"(
Structure the answer in five parts:
1. Summary: the paper's main contributions, in three to five sentences
2. Analysis: the method, its assumptions and the evidence, in depth
3. Figures and tables: what the important ones show and why they matter
4. Context: how the paper relates to earlier and concurrent work
5. Practical notes: what it takes to apply or reproduce the results
)";

// How to read the paper.
constexpr const char* kAnalysisGuide = R"(Work through the paper with the arxiv tools: download it with download_paper if it is not in local storage yet, then read its full text with read_paper.

While reading:
- State the problem the paper addresses and why it matters.
- Describe the approach precisely, including the key equations, algorithms or architectures and the design choices behind them.
- Examine the experiments: data, baselines, metrics, and whether the results support the claims. Note missing ablations or comparisons.
- Separate what is shown from what is claimed; point out limitations the authors state and ones they do not.
- Place the work among related papers, using search_papers to find prior or follow-up work where useful.
- Close with open questions and concrete directions for further work.

Keep technical terms exact and cite sections, figures or tables of the paper where they support a point.)";

// The papers prompts/get has seen, in order of first appearance (upstream's
// explored_papers), for the "analysed before" line.
struct Context {
  std::mutex mu;
  std::vector<std::string> explored;
};

// A failure the Python SDK answers with JSON-RPC error code 0 and the
// exception's text (what upstream's ValueError becomes).
[[noreturn]] void Fail(const std::string& message) { throw mcp::ProtocolError(message, 0); }

Json Get(Context& context, const std::string& name, const Json& arguments) {
  if (name != kName) Fail("Prompt not found: " + name);
  if (arguments.is_null()) Fail(std::string("No arguments provided for prompt: ") + kName);
  auto id = arguments.find("paper_id");
  if (id == arguments.end() || id->get<std::string>().empty()) Fail("Missing required argument: paper_id");
  const std::string paper_id = id->get<std::string>();
  std::string earlier;
  {
    std::lock_guard lock(context.mu);
    if (std::find(context.explored.begin(), context.explored.end(), paper_id) == context.explored.end())
      context.explored.push_back(paper_id);
    if (context.explored.size() > 1) {
      std::string ids;
      for (const auto& p : context.explored)
        if (p != paper_id) ids += (ids.empty() ? "" : ", ") + p;
      if (!ids.empty()) earlier = "\nPapers analysed earlier in this session: " + ids + ". Relate this one to them where it helps.";
    }
  }
  std::string text = "Analyze paper " + paper_id + "." + earlier + "\n\n" + kOutputSections + "\n\n" + kAnalysisGuide;
  return Json{{"messages", Json::array({Json{{"role", "user"},
                                             {"content", Json{{"type", "text"}, {"text", std::move(text)}}}}})}};
}

}  // namespace

mcp::PromptOptions MakePrompts() {
  mcp::PromptOptions options;
  mcp::Prompt prompt;
  prompt.name = kName;
  prompt.description = "A detailed analysis of one arXiv paper";
  prompt.arguments.push_back(mcp::PromptArgument{"paper_id", "The paper's arXiv id", true});
  options.prompts.push_back(std::move(prompt));
  auto context = std::make_shared<Context>();
  options.get = [context](const std::string& name, const Json& arguments) { return Get(*context, name, arguments); };
  return options;
}

}  // namespace sbx::servers::arxiv
