#include "cli/output.h"

#include <algorithm>

namespace sbx::cli {
namespace {

std::size_t DisplayWidth(std::string_view s) {
  // Counting code points (bytes that are not UTF-8 continuation bytes) keeps
  // columns aligned for non-ASCII owner names; wide CJK glyphs are rare here.
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void AppendRow(std::string& out, const std::vector<std::string>& cells,
               const std::vector<std::size_t>& widths) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 < cells.size()) line.append(widths[i] - DisplayWidth(cells[i]) + 2, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line + "\n";
}

}  // namespace

std::string FormatColumns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size());
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  }
  std::string out;
  for (const auto& row : rows) AppendRow(out, row, widths);
  return out;
}

std::string FormatTable(const std::vector<std::string>& headers,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::string>> all;
  all.reserve(rows.size() + 1);
  all.push_back(headers);
  all.insert(all.end(), rows.begin(), rows.end());
  return FormatColumns(all);
}

std::string Text(const Json& object, std::string_view key) {
  if (!object.is_object()) return "-";
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return "-";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_boolean()) return it->get<bool>() ? "yes" : "no";
  return it->dump();
}

std::string FormatSandbox(const Json& sandbox) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"sandbox", Text(sandbox, "local_sandbox_id")}, {"status", Text(sandbox, "status")}};
  if (sandbox.contains("created_at")) fields.emplace_back("created", Text(sandbox, "created_at"));
  fields.emplace_back("benchmark", Text(sandbox, "benchmark"));
  if (sandbox.contains("message") && !sandbox["message"].is_null()) {
    fields.emplace_back("message", Text(sandbox, "message"));
  }
  std::string out;
  for (const auto& [label, value] : fields) {
    out += label + std::string(11 - label.size(), ' ') + value + "\n";
  }
  out += "servers\n";
  std::vector<std::vector<std::string>> rows;
  auto servers = sandbox.find("servers");
  if (servers != sandbox.end() && servers->is_array()) {
    for (const auto& server : *servers) {
      rows.push_back({Text(server, "server_name"), Text(server, "mcp_server_url")});
    }
  }
  if (rows.empty()) return out + "  (none)\n";
  std::string table = FormatColumns(rows);
  // Indent every line of the table under "servers".
  std::size_t start = 0;
  while (start < table.size()) {
    std::size_t nl = table.find('\n', start);
    out += "  " + table.substr(start, nl - start + 1);
    start = nl + 1;
  }
  return out;
}

}  // namespace sbx::cli
