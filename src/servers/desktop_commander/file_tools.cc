// The file tools: upstream's handlers/filesystem-handlers.ts over
// tools/filesystem.ts, every path through paths.h and file_access.h.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>

#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/string.h"
#include "servers/desktop_commander/file_access.h"
#include "servers/desktop_commander/file_reading.h"
#include "servers/desktop_commander/server_state.h"
#include "confine/dir_cursor.h"
#include "servers/filesystem/file_ops.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::desktop_commander {
namespace {

using filesystem::FsError;

// Most bytes one read_multiple_files answer carries.
constexpr std::size_t kMaxMultiReadBytes = 128u << 20;
// Most entries list_directory reads from one directory.
constexpr std::size_t kMaxListEntries = 1'000'000;

std::string Str(const Json& args, const char* key) {
  auto it = args.find(key);
  return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// content.split('\n').length
std::size_t LineCount(std::string_view s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + 1; }

}  // namespace

ToolResult ReadFile(ServerState& state, const Json& args, const ToolContext&) {
  std::string path = Str(args, "path");
  double offset = args.value("offset", 0.0), length = args.value("length", 1000.0);
  if (args.value("isUrl", false)) {
    // The sandbox has no network; upstream's fetch failure reads so.
    throw FsError("Failed to fetch URL: request to " + path +
                  " failed, reason: this sandbox has no network access");
  }
  if (path.empty()) throw FsError("Invalid file path provided");
  ValidPath file = state.Validate(path);
  FileContent content = ReadFileFromDisk(file, offset, length);
  if (!content.is_image) return ToolResult::Text(content.content);
  ToolResult r = ToolResult::Text("Image file: " + path + " (" + content.mime_type + ")\n");
  r.content.push_back(Json{{"type", "image"}, {"data", content.content}, {"mimeType", content.mime_type}});
  return r;
}

ToolResult ReadMultipleFiles(ServerState& state, const Json& args, const ToolContext& ctx) {
  // readFile(validPath) without offset and length: the configured limit.
  Json limit = state.config.Value("fileReadLineLimit");
  double length = limit.is_null() ? 1000 : js::ToNumber(limit);
  struct Entry {
    std::string path, error;
    std::optional<FileContent> content;
  };
  std::vector<Entry> entries;
  std::size_t total = 0;
  for (const auto& p : args.value("paths", Json::array())) {
    if (ctx.cancelled()) break;
    Entry e;
    e.path = p.is_string() ? p.get<std::string>() : js::ToString(p);
    try {
      ValidPath first = state.Validate(e.path);
      ValidPath file = state.Validate(first.path);
      if (file.path.empty()) throw FsError("Invalid file path provided");
      e.content = ReadFileFromDisk(file, 0, length);
      total += e.content->content.size();
    } catch (const FsError& err) {
      e.error = err.message();
    }
    if (total > kMaxMultiReadBytes)
      throw FsError("The files together exceed this server's limit of " + std::to_string(kMaxMultiReadBytes) +
                    " bytes per read_multiple_files call; read fewer at a time");
    entries.push_back(std::move(e));
  }
  std::string summary;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (i) summary += '\n';
    if (!e.content) summary += e.path + ": Error - " + e.error;
    else summary += e.path + ": " + e.content->mime_type + (e.content->is_image ? " (image)" : " (text)");
  }
  ToolResult r = ToolResult::Text(summary);
  for (const Entry& e : entries) {
    if (!e.content) continue;
    if (e.content->is_image)
      r.content.push_back(Json{{"type", "image"}, {"data", e.content->content}, {"mimeType", e.content->mime_type}});
    else
      r.content.push_back(
          Json{{"type", "text"}, {"text", "\n--- " + e.path + " contents: ---\n" + e.content->content}});
  }
  return r;
}

ToolResult WriteFile(ServerState& state, const Json& args, const ToolContext&) {
  std::string path = Str(args, "path"), content = Str(args, "content");
  bool append = Str(args, "mode") == "append";
  Json limit = state.config.Value("fileWriteLineLimit");
  double max_lines = limit.is_null() ? 50 : js::ToNumber(limit);
  std::size_t lines = LineCount(content);
  std::string note;
  if (static_cast<double>(lines) > max_lines)
    note = "\u2705 File written successfully! (" + std::to_string(lines) +
           " lines)\n            \n\U0001F4A1 Performance tip: For optimal speed, consider chunking files into "
           "\u226430 line pieces in future operations.";
  ValidPath file = state.Validate(path);
  WriteValid(file, content, append);
  return ToolResult::Text("Successfully " + std::string(append ? "appended to" : "wrote to") + " " + path + " (" +
                          std::to_string(lines) + " lines) " + note);
}

ToolResult CreateDirectory(ServerState& state, const Json& args, const ToolContext&) {
  std::string path = Str(args, "path");
  ValidPath dir = state.Validate(path);
  dir.ThrowIfDeferred("mkdir");
  filesystem::MakeDirectories(dir.target);
  return ToolResult::Text("Successfully created directory " + path);
}

ToolResult ListDirectory(ServerState& state, const Json& args, const ToolContext&) {
  ValidPath dir = state.Validate(Str(args, "path"));
  dir.ThrowIfDeferred("scandir");
  UniqueFd fd = filesystem::OpenDirectoryTarget(dir.target, "scandir");
  std::vector<confine::DirEntry> entries;
  if (int err = confine::ReadDirectory(fd.get(), entries, kMaxListEntries))
    filesystem::ThrowErrno(err, "scandir", dir.path);
  std::string text;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) text += '\n';
    text += (entries[i].type == DT_DIR ? "[DIR] " : "[FILE] ") + js::DecodeUtf8Lossy(entries[i].name);
  }
  return ToolResult::Text(text);
}

ToolResult MoveFile(ServerState& state, const Json& args, const ToolContext&) {
  std::string source = Str(args, "source"), destination = Str(args, "destination");
  ValidPath from = state.Validate(source);
  ValidPath to = state.Validate(destination);
  RenameValid(from, to);
  return ToolResult::Text("Successfully moved " + source + " to " + destination);
}

ToolResult GetFileInfo(ServerState& state, const Json& args, const ToolContext&) {
  ValidPath file = state.Validate(Str(args, "path"));
  file.ThrowIfDeferred("stat");
  filesystem::FileStats st = filesystem::StatTarget(file.target);
  char perms[16];
  std::snprintf(perms, sizeof perms, "%o", st.mode);
  std::string mode = perms;
  bool is_dir = S_ISDIR(st.mode), is_file = S_ISREG(st.mode);
  std::string text = "size: " + std::to_string(st.size) + "\ncreated: " + js::DateToString(st.birth) +
                     "\nmodified: " + js::DateToString(st.modified) +
                     "\naccessed: " + js::DateToString(st.accessed) +
                     "\nisDirectory: " + (is_dir ? "true" : "false") + "\nisFile: " + (is_file ? "true" : "false") +
                     "\npermissions: " + mode.substr(mode.size() > 3 ? mode.size() - 3 : 0);
  if (is_file && MimeTypeOf(file.path).rfind("image/", 0) != 0) {
    if (auto lines = CountLines(file)) {
      text += "\nlineCount: " + std::to_string(*lines) + "\nlastLine: " + std::to_string(*lines - 1) +
              "\nappendPosition: " + std::to_string(*lines);
    }
  }
  return ToolResult::Text(text);
}

}  // namespace sbx::servers::desktop_commander
