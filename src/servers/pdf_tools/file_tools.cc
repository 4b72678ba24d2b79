// read_pdf_pages, get_pdf_info, merge_pdfs and extract_pdf_pages, with
// pdf-tools-mcp 0.1.4's texts (server.py of tag 0.1.4; each step below
// names the upstream line it follows).
#include <cerrno>
#include <string>

#include "core/unique_fd.h"
#include "servers/pdf_tools/schemas.h"
#include "servers/pdf_tools/tools_internal.h"

namespace sbx::servers::pdf_tools {
namespace {

using mcp::Tool;
using mcp::ToolContext;
using mcp::ToolResult;

// Python's `text.strip()` is empty.
bool Blank(const std::string& text) {
  for (unsigned char c : text)
    if (!(c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f))) return false;
  return true;
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}


std::string ReadPages(State& s, const Json& v, const ToolContext& ctx) {
  const std::string path = v["pdf_file_path"];
  const long long start = v["start_page"], end = v["end_page"];
  // resolve_path(), then validate_path() for a local path.
  if (IsUrl(path)) return "Error resolving path: " + DownloadFailure(path);
  std::string real;
  if (auto bad = ValidatePath(s, path, real)) return *bad;
  const std::string warning =
      static_cast<long double>(end) - static_cast<long double>(start) > 50
          ? "Warning: Reading more than 50 pages at once may cause performance issues or errors.\n"
          : "";
  Input in = OpenGiven(s, path, real);
  if (in.error == ENOENT) return "Error: File not found '" + path + "'";
  if (in.error == EACCES) return "Error: No permission to read file '" + path + "'";
  if (in.error != 0) return "Error reading PDF file: " + OpenErrorText(s, in.error, path);
  auto reply = CallHelper(s, "text", {"--first", std::to_string(start), "--last", std::to_string(end)},
                          {in.fd.get()}, false, ctx);
  // extract_text_from_pdf()'s own except.
  if (!reply) return warning + "Error processing PDF: " + reply.error().message;
  const Json& f = reply->fields;
  const long long total = f["page_count"], first = f["first"], last = f["last"];
  std::vector<std::string> blocks;
  for (std::size_t i = 0; i < f["pages"].size(); ++i) {
    const std::string& text = f["pages"][i].get_ref<const std::string&>();
    if (!Blank(text)) blocks.push_back("=== Page " + std::to_string(first + static_cast<long long>(i)) + " ===\n" + text);
  }
  if (blocks.empty())
    return warning + "PDF total pages: " + std::to_string(total) + "\nSpecified page range (" + std::to_string(first) +
           "-" + std::to_string(last) + ") has no extractable text content.";
  return warning + "PDF total pages: " + std::to_string(total) + "\nExtracted page range: " + std::to_string(first) +
         "-" + std::to_string(last) + "\n\n" + Join(blocks, "\n\n");
}

std::string Info(State& s, const Json& v, const ToolContext& ctx) {
  const std::string path = v["pdf_file_path"];
  if (IsUrl(path)) return "Error resolving path: " + DownloadFailure(path);
  std::string real;
  if (auto bad = ValidatePath(s, path, real)) return *bad;
  Input in = OpenGiven(s, path, real);
  if (in.error == ENOENT) return "Error: File not found '" + path + "'";
  if (in.error != 0) return "Error getting PDF information: " + OpenErrorText(s, in.error, path);
  auto reply = CallHelper(s, "info", {}, {in.fd.get()}, false, ctx);
  if (!reply) return "Error getting PDF information: " + reply.error().message;
  const Json& f = reply->fields;
  std::string out = "PDF file information:\nTotal pages: " + std::to_string(f["page_count"].get<long long>()) + "\n";
  // `if info:` — a document information dictionary with at least one entry.
  const Json& md = f["metadata"];
  if (!md.empty()) {
    auto get = [&](const char* key) { return md.contains(key) ? md[key].get<std::string>() : std::string("Unknown"); };
    out += "Title: " + get("Title") + "\n";
    out += "Author: " + get("Author") + "\n";
    out += "Creator: " + get("Creator") + "\n";
    out += "Creation date: " + get("CreationDate") + "\n";
  }
  return out;
}

std::string Merge(State& s, const Json& v, const ToolContext& ctx) {
  std::vector<std::string> paths, reals;
  for (const Json& p : v["pdf_paths"]) paths.push_back(p.get<std::string>());
  const std::string output = v["output_path"];
  for (const std::string& path : paths) {
    if (IsUrl(path)) return "Error resolving path '" + path + "': " + DownloadFailure(path);
    std::string real;
    if (auto bad = ValidatePath(s, path, real)) return *bad;
    reals.push_back(real);
  }
  if (IsUrl(output)) return "Error: Output path cannot be a URL, must be a local file path";
  std::string output_real;
  if (auto bad = ValidatePath(s, output, output_real)) return *bad;
  std::vector<UniqueFd> fds;
  std::vector<int> inputs;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Input in = OpenGiven(s, paths[i], reals[i]);
    if (in.error != 0) return "Error reading PDF '" + paths[i] + "': " + OpenErrorText(s, in.error, paths[i]);
    inputs.push_back(in.fd.get());
    fds.push_back(std::move(in.fd));
  }
  int failed = -1;
  auto reply = CallHelper(s, "merge", {}, inputs, true, ctx, &failed);
  if (!reply && failed >= 0 && static_cast<std::size_t>(failed) < paths.size())
    return "Error reading PDF '" + paths[static_cast<std::size_t>(failed)] + "': " + reply.error().message;
  if (!reply) return "Error merging PDFs: " + reply.error().message;
  long long total = 0;
  for (const Json& n : reply->fields["page_counts"]) total += n.get<long long>();
  if (int err = WriteGiven(s, output, output_real, reply->pdf); err != 0)
    return "Error merging PDFs: " + OsErrorText(err, output);
  return "Successfully merged " + std::to_string(paths.size()) + " PDFs into '" + output + "'\nTotal pages: " +
         std::to_string(total);
}

std::string Extract(State& s, const Json& v, const ToolContext& ctx) {
  const std::string source = v["source_path"], output = v["output_path"];
  std::string pages;
  for (const Json& n : v["page_numbers"]) pages += (pages.empty() ? "" : ",") + std::to_string(n.get<long long>());
  if (IsUrl(source)) return "Error resolving source path: " + DownloadFailure(source);
  std::string real;
  if (auto bad = ValidatePath(s, source, real)) return *bad;
  if (IsUrl(output)) return "Error: Output path cannot be a URL, must be a local file path";
  std::string output_real;
  if (auto bad = ValidatePath(s, output, output_real)) return *bad;
  Input in = OpenGiven(s, source, real);
  if (in.error == ENOENT) return "Error: File not found '" + source + "'";
  if (in.error != 0) return "Error extracting pages: " + OpenErrorText(s, in.error, source);
  auto reply = CallHelper(s, "extract", {"--pages", pages}, {in.fd.get()}, true, ctx);
  if (!reply) return "Error extracting pages: " + reply.error().message;
  const Json& f = reply->fields;
  const long long total = f["page_count"];
  if (f["extracted"].empty())
    return "Error: No valid pages to extract from PDF (total pages: " + std::to_string(total) + ")";
  // A missing output directory raises FileNotFoundError, which upstream's
  // handler words as the source file not being found.
  if (int err = WriteGiven(s, output, output_real, reply->pdf); err == ENOENT)
    return "Error: File not found '" + source + "'";
  else if (err != 0)
    return "Error extracting pages: " + OsErrorText(err, output);
  std::vector<std::string> listed;
  for (const Json& n : f["extracted"]) listed.push_back(std::to_string(n.get<long long>()));
  return "Successfully extracted " + std::to_string(listed.size()) + " pages from '" + source + "' to '" + output +
         "'\nExtracted pages: [" + Join(listed, ", ") + "]\nSource PDF total pages: " + std::to_string(total);
}

}  // namespace

std::vector<Tool> FileTools(std::shared_ptr<State> state) {
  std::vector<Tool> tools;
  tools.push_back(FastMcpTool(
      "read_pdf_pages",
      "Return the text of a range of pages of a PDF (1-based, inclusive; the range is clamped to the document). "
      "Paths are relative to the workspace; keep ranges under about 50 pages.",
      {{"pdf_file_path", Kind::kString, std::nullopt}, {"start_page", Kind::kInt, 1}, {"end_page", Kind::kInt, 1}},
      [state](const Json& v, const ToolContext& ctx) { return ReadPages(*state, v, ctx); }));
  tools.push_back(FastMcpTool("get_pdf_info",
                           "Report a PDF's page count and its title, author, creator and creation date.",
                           {{"pdf_file_path", Kind::kString, std::nullopt}},
                           [state](const Json& v, const ToolContext& ctx) { return Info(*state, v, ctx); }));
  tools.push_back(FastMcpTool(
      "merge_pdfs", "Concatenate the pages of several PDFs, in the order given, into a new PDF at output_path.",
      {{"pdf_paths", Kind::kStringList, std::nullopt}, {"output_path", Kind::kString, std::nullopt}},
      [state](const Json& v, const ToolContext& ctx) { return Merge(*state, v, ctx); }));
  tools.push_back(FastMcpTool(
      "extract_pdf_pages",
      "Copy the listed pages (1-based; numbers outside the document are skipped) of a PDF into a new PDF at "
      "output_path.",
      {{"source_path", Kind::kString, std::nullopt},
       {"page_numbers", Kind::kIntList, std::nullopt},
       {"output_path", Kind::kString, std::nullopt}},
      [state](const Json& v, const ToolContext& ctx) { return Extract(*state, v, ctx); }));
  return tools;
}

}  // namespace sbx::servers::pdf_tools
