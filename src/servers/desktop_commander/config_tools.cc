// get_config, set_config_value, get_usage_stats and
// give_feedback_to_desktop_commander: upstream's tools/config.ts,
// tools/usage.ts (utils/usageTracker.ts) and tools/feedback.ts.
#include <algorithm>
#include <cmath>

#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/number.h"
#include "js_text/string.h"
#include "servers/desktop_commander/server_state.h"

namespace sbx::servers::desktop_commander {
namespace {

constexpr double kDayMs = 1000.0 * 60 * 60 * 24;

// upstream's getSystemInfo() on Linux, as get_config shows it.
Json SystemInfo() {
  Json info = Json::object();
  info["platform"] = "linux";
  info["platformName"] = "Linux";
  info["defaultShell"] = "bash";
  info["pathSeparator"] = "/";
  info["isWindows"] = false;
  info["isMacOS"] = false;
  info["isLinux"] = true;
  info["examplePaths"] = Json{{"home", "/home/username"}, {"temp", "/tmp"}, {"absolute", "/path/to/file.txt"}};
  return info;
}

std::string Field(const Json& stats, const char* key) {
  auto it = stats.find(key);
  return it == stats.end() ? "undefined" : js::ToString(*it);
}

double NumberField(const Json& stats, const char* key) {
  auto it = stats.find(key);
  return it == stats.end() ? std::nan("") : js::ToNumber(*it);
}

}  // namespace

ToolResult GetConfig(ServerState& state, const Json&, const ToolContext&) {
  Json shown = state.config.Get();
  // The client's initialize info does not reach the tools here; upstream
  // shows "unknown" for a client that did not name itself.
  shown["currentClient"] = Json{{"name", "unknown"}, {"version", "unknown"}};
  shown["systemInfo"] = SystemInfo();
  return ToolResult::Text("Current configuration:\n" + js::Stringify(shown, 2));
}

ToolResult SetConfigValue(ServerState& state, const Json& args, const ToolContext&) {
  std::string key = args.value("key", "");
  std::optional<Json> value;
  if (auto it = args.find("value"); it != args.end()) value = *it;
  std::optional<Json> stored = state.config.Set(key, value);
  return ToolResult::Text("Successfully set " + key + " to " + (stored ? js::Stringify(*stored, 2) : "undefined") +
                          "\n\nUpdated configuration:\n" + js::Stringify(state.config.Get(), 2));
}

ToolResult GetUsageStats(ServerState& state, const Json&, const ToolContext&) {
  Json stats = state.config.UsageStats();
  double now = static_cast<double>(js::DateNow());
  double days = js::MathRound((now - NumberField(stats, "firstUsed")) / kDayMs);
  double total = NumberField(stats, "totalToolCalls");
  double success_rate = total > 0 ? js::MathRound(NumberField(stats, "successfulCalls") / total * 100) : 0;

  std::vector<std::pair<std::string, double>> counts;
  std::size_t unique_tools = 0;
  if (auto it = stats.find("toolCounts"); it != stats.end() && it->is_object()) {
    unique_tools = it->size();
    for (const auto& [tool, count] : it->items()) counts.emplace_back(tool, js::ToNumber(count));
  }
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return b.second < a.second; });
  std::string top;
  for (std::size_t i = 0; i < counts.size() && i < 5; ++i)
    top += (i ? ", " : "") + counts[i].first + ": " + js::NumberToString(counts[i].second);

  const char* b = "\n\u2022 ";
  std::string text = "\U0001F4CA **Usage Summary**";
  text += b + std::string("Total calls: ") + Field(stats, "totalToolCalls") + " (" + Field(stats, "successfulCalls") +
          " successful, " + Field(stats, "failedCalls") + " failed)";
  text += b + std::string("Success rate: ") + js::NumberToString(success_rate) + "%";
  text += b + std::string("Days using: ") + js::NumberToString(days);
  text += b + std::string("Sessions: ") + Field(stats, "totalSessions");
  text += b + std::string("Unique tools: ") + std::to_string(unique_tools);
  text += b + std::string("Most used: ") + (top.empty() ? "None" : top);
  text += b + std::string("Feedback given: ") + (js::ToBoolean(state.config.Value("feedbackGiven")) ? "Yes" : "No");
  text += "\n\n**By Category:**";
  text += b + std::string("Filesystem: ") + Field(stats, "filesystemOperations");
  text += b + std::string("Terminal: ") + Field(stats, "terminalOperations");
  text += b + std::string("Editing: ") + Field(stats, "editOperations");
  text += b + std::string("Search: ") + Field(stats, "searchOperations");
  text += b + std::string("Config: ") + Field(stats, "configOperations");
  text += b + std::string("Process: ") + Field(stats, "processOperations");
  return ToolResult::Text(text);
}

ToolResult GiveFeedback(ServerState& state, const Json&, const ToolContext&) {
  // upstream builds a pre-filled form address and runs xdg-open on it. A
  // sandbox has no browser and no network, so the answer is always the one
  // upstream gives when the browser does not open: the address to copy.
  Json stats = state.config.UsageStats();
  double days = std::floor((static_cast<double>(js::DateNow()) - NumberField(stats, "firstUsed")) / kDayMs);
  Json client = state.config.Value("clientId");
  std::string client_id = js::ToBoolean(client) ? js::ToString(client) : "unknown";
  std::string url = "https://tally.so/r/mYB6av?tool_call_count=" + js::FormUrlEncode(Field(stats, "totalToolCalls")) +
                    "&days_using=" + js::FormUrlEncode(js::NumberToString(days)) + "&platform=linux&client_id=" +
                    js::FormUrlEncode(client_id);
  return ToolResult::Text(
      "\u26A0\uFE0F **Couldn't open browser automatically**\n\nPlease copy and paste this URL into your browser to "
      "access the feedback form:\n\n" +
      url + "\n\nThe form has been pre-filled with your information. Thank you for your feedback!");
}

}  // namespace sbx::servers::desktop_commander
