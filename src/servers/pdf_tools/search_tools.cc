// search_pdf_content and its session tools (next, prev, go, info), with
// pdf-tools-mcp 0.1.4's texts. The regex runs in the helper (a pattern that
// backtracks for ever, or recurses deep, ends the helper, not the agent).
#include <ctime>
#include <string>

#include "servers/pdf_tools/schemas.h"
#include "servers/pdf_tools/tools_internal.h"

namespace sbx::servers::pdf_tools {
namespace {

using mcp::Tool;
using mcp::ToolContext;
using mcp::ToolResult;

constexpr int kContext = 100;            // find_regex_matches' context_size
constexpr int kMaxMatches = 10000;       // ours: a session's bound

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

int PageCount(const Session& s) {
  return static_cast<int>((s.results.size() + static_cast<std::size_t>(s.page_size) - 1) /
                          static_cast<std::size_t>(s.page_size));
}

// The "Match k:" blocks of the session's current page.
std::string Matches(const Session& s) {
  const std::size_t start = static_cast<std::size_t>(s.current_page - 1) * static_cast<std::size_t>(s.page_size);
  const std::size_t end = std::min(start + static_cast<std::size_t>(s.page_size), s.results.size());
  std::string out;
  for (std::size_t i = start; i < end; ++i) {
    const Match& m = s.results[i];
    out += "Match " + std::to_string(i + 1) + ":\n";
    out += "  Page: " + std::to_string(m.page) + "\n";
    out += "  Text: \"" + m.text + "\"\n";
    out += "  Context: ..." + m.before + "[" + m.text + "]" + m.after + "...\n\n";
  }
  return out;
}

std::string Header(const Session& s) {
  return "Search ID: " + s.id + "\nPattern: " + s.pattern + "\nTotal matches: " + std::to_string(s.results.size()) +
         "\nPage: " + std::to_string(s.current_page) + "/" + std::to_string(PageCount(s)) + "\n\n";
}

std::string NotFound(const std::string& id) { return "Error: Search session '" + id + "' not found or expired"; }

std::string Search(State& st, const Json& v, const ToolContext& ctx) {
  const std::string path = v["pdf_file_path"], pattern = v["pattern"];
  long long page_size = v["page_size"];
  if (IsUrl(path)) return "Error resolving path: " + DownloadFailure(path);
  std::string real;
  if (auto bad = ValidatePath(st, path, real)) return *bad;
  // validate_page_size()
  std::string warning;
  if (page_size < 10 || page_size > 50) {
    warning = "Warning: Page size " + std::to_string(page_size) + " is out of range (10-50). Using default value 10.\n";
    page_size = 10;
  }
  // extract_all_text_from_pdf() turns every failure into an empty result.
  const std::string cannot = "Error: Could not extract text from PDF or PDF is empty";
  Input in = OpenGiven(st, path, real);
  if (in.error != 0) return cannot;
  auto reply = CallHelper(st, "search",
                          {"--pattern-hex", Hex(pattern), "--context", std::to_string(kContext), "--max-matches",
                           std::to_string(kMaxMatches)},
                          {in.fd.get()}, false, ctx);
  if (!reply && reply.error().code == ErrorCode::kInvalidArgument) return cannot;
  if (!reply) return "Error searching PDF: " + reply.error().message;
  if (reply->fields["page_count"].get<long long>() == 0) return cannot;
  Session session;
  session.pdf_path = path;
  session.pattern = pattern;
  session.page_size = static_cast<int>(page_size);
  for (const Json& m : reply->fields["matches"])
    session.results.push_back(Match{m[0].get<int>(), m[1].get<std::string>(), m[2].get<std::string>(),
                                    m[3].get<std::string>()});
  if (session.results.empty()) return "No matches found for pattern: " + pattern;
  const std::size_t total = session.results.size();
  const std::string id = st.sessions.Create(std::move(session));
  auto text = st.sessions.With(id, [&](Session& s) {
    std::string out = warning + "Search ID: " + id + "\nPattern: " + pattern + "\nTotal matches: " +
                      std::to_string(total) + "\nPage: 1/" + std::to_string(PageCount(s)) +
                      "\nResults per page: " + std::to_string(page_size) + "\n\n" + Matches(s);
    if (total > static_cast<std::size_t>(page_size))
      out += "Use search_pdf_next_page, search_pdf_prev_page, or search_pdf_go_page with search_id '" + id +
             "' to navigate.";
    return out;
  });
  return text ? *text : NotFound(id);
}

std::string Next(State& st, const std::string& id) {
  auto out = st.sessions.With(id, [](Session& s) {
    const int total = PageCount(s);
    if (s.current_page >= total)
      return "Already on last page (" + std::to_string(s.current_page) + "/" + std::to_string(total) + ")";
    ++s.current_page;
    return Header(s) + Matches(s);
  });
  return out ? *out : NotFound(id);
}

std::string Prev(State& st, const std::string& id) {
  auto out = st.sessions.With(id, [](Session& s) {
    if (s.current_page <= 1) return std::string("Already on first page (1)");
    --s.current_page;
    return Header(s) + Matches(s);
  });
  return out ? *out : NotFound(id);
}

std::string Go(State& st, const std::string& id, long long page) {
  auto out = st.sessions.With(id, [page](Session& s) {
    const int total = PageCount(s);
    if (page < 1 || page > total)
      return "Error: Page number " + std::to_string(page) + " is out of range (1-" + std::to_string(total) + ")";
    s.current_page = static_cast<int>(page);
    return Header(s) + Matches(s);
  });
  return out ? *out : NotFound(id);
}

std::string SessionInfo(State& st, const std::string& id) {
  auto out = st.sessions.With(id, [](Session& s) {
    // datetime.now().strftime('%Y-%m-%d %H:%M:%S'): the jail's local time is UTC.
    std::time_t seconds = static_cast<std::time_t>(s.last_accessed / 1'000'000);
    std::tm tm{};
    ::gmtime_r(&seconds, &tm);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    return "Search Session Information:\nSearch ID: " + s.id + "\nPDF Path: " + s.pdf_path + "\nPattern: " +
           s.pattern + "\nTotal matches: " + std::to_string(s.results.size()) + "\nCurrent page: " +
           std::to_string(s.current_page) + "/" + std::to_string(PageCount(s)) + "\nResults per page: " +
           std::to_string(s.page_size) + "\nLast accessed: " + when + "\n";
  });
  return out ? *out : NotFound(id);
}


}  // namespace

std::vector<Tool> SearchTools(std::shared_ptr<State> state) {
  const Field id{"search_id", Kind::kString, std::nullopt};
  std::vector<Tool> tools;
  tools.push_back(FastMcpTool(
      "search_pdf_content",
      "Search a PDF's text for a regular expression (case-insensitive) and return the first page of matches with "
      "their context, plus a search_id for paging through the rest (page_size 10 to 50).",
      {{"pdf_file_path", Kind::kString, std::nullopt}, {"pattern", Kind::kString, std::nullopt},
       {"page_size", Kind::kInt, 10}},
      [state](const Json& v, const ToolContext& ctx) { return Search(*state, v, ctx); }));
  tools.push_back(FastMcpTool("search_pdf_next_page", "Show the next page of a search's matches.", {id},
                           [state](const Json& v, const ToolContext&) { return Next(*state, v["search_id"]); }));
  tools.push_back(FastMcpTool("search_pdf_prev_page", "Show the previous page of a search's matches.", {id},
                           [state](const Json& v, const ToolContext&) { return Prev(*state, v["search_id"]); }));
  tools.push_back(FastMcpTool("search_pdf_go_page", "Show the given page (1-based) of a search's matches.",
                           {id, {"page_number", Kind::kInt, std::nullopt}},
                           [state](const Json& v, const ToolContext&) {
                             return Go(*state, v["search_id"], v["page_number"].get<long long>());
                           }));
  tools.push_back(FastMcpTool("search_pdf_info", "Describe a search session: its file, pattern, matches and position.",
                           {id}, [state](const Json& v, const ToolContext&) { return SessionInfo(*state, v["search_id"]); }));
  return tools;
}

}  // namespace sbx::servers::pdf_tools
