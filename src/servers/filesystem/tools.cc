// The 14 tools: schemas from tool_schemas.cc, our own titles and
// descriptions, and handlers that produce upstream's results.
#include <sys/stat.h>

#include <cstdio>
#include <optional>

#include "js_text/date.h"
#include "core/strings.h"
#include "js_text/string.h"
#include "servers/filesystem/file_ops.h"
#include "servers/filesystem/filesystem.h"
#include "servers/filesystem/limits.h"
#include "servers/filesystem/listing.h"
#include "servers/filesystem/media.h"
#include "servers/filesystem/node_errors.h"
#include "servers/filesystem/resolver.h"
#include "servers/filesystem/text_edits.h"
#include "servers/filesystem/tool_schemas.h"
#include "servers/filesystem/variants.h"

namespace sbx::servers::filesystem {
namespace {

using mcp::Tool;
using mcp::ToolContext;
using mcp::ToolResult;

std::string Str(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string())
    throw FsError(std::string("Missing string argument: ") + key);
  return it->get<std::string>();
}

std::vector<std::string> StrList(const Json& args, const char* key) {
  std::vector<std::string> out;
  auto it = args.find(key);
  if (it == args.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::optional<double> Num(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// JavaScript truthiness of an optional number argument.
bool Truthy(const std::optional<double>& v) { return v && *v != 0 && *v == *v; }

// `v2025`: 2025.7.1's head/tail, which decoded each 1 KiB chunk on its own.
std::string ReadText(const PathPolicy& policy, const Json& args, bool v2025) {
  Target target = policy.Validate(Str(args, "path"));
  auto head = Num(args, "head"), tail = Num(args, "tail");
  if (Truthy(head) && Truthy(tail))
    throw FsError("Cannot specify both head and tail parameters simultaneously");
  if (Truthy(tail)) return v2025 ? TailFileByChunk(target, *tail) : TailFile(target, *tail);
  if (Truthy(head)) return HeadFile(target, *head, v2025);
  return js::DecodeUtf8Lossy(ReadFileBytes(target));
}

std::string ReadMultiple(const PathPolicy& policy, const Json& args) {
  std::vector<std::string> parts;
  std::uint64_t total = 0;
  for (const auto& path : StrList(args, "paths")) {
    std::string part;
    try {
      Target target = policy.Validate(path);
      part = path + ":\n" + js::DecodeUtf8Lossy(ReadFileBytes(target)) + "\n";
    } catch (const FsError& e) {
      part = path + ": Error - " + e.message();
    } catch (const std::exception& e) {
      part = path + ": Error - " + e.what();
    }
    total += part.size();
    if (total > kMaxMultiReadBytes)
      throw FsError("The files together exceed this server's limit of " +
                    std::to_string(kMaxMultiReadBytes) +
                    " bytes per read_multiple_files call; read fewer at a time");
    parts.push_back(std::move(part));
  }
  return strings::Join(parts, "\n---\n");
}

// `v2025`: the 2025.7.1 variant ("$" patterns expanded, permission bits
// not kept).
std::string EditFile(const PathPolicy& policy, const Json& args, bool v2025) {
  Target target = policy.Validate(Str(args, "path"));
  std::vector<TextEdit> edits;
  if (auto it = args.find("edits"); it != args.end() && it->is_array()) {
    for (const auto& e : *it) {
      if (!e.is_object()) continue;
      edits.push_back({e.value("oldText", ""), e.value("newText", "")});
    }
  }
  bool dry_run = args.value("dryRun", false);
  std::string original = NormalizeLineEndings(js::DecodeUtf8Lossy(ReadFileBytes(target)));
  std::string modified = ApplyTextEdits(original, edits, v2025);
  std::string result = FormatEditDiff(target.path, original, modified);
  if (!dry_run) ReplaceFileContent(target, modified, !v2025);
  return result;
}

std::string FileInfo(const PathPolicy& policy, const Json& args) {
  Target target = policy.Validate(Str(args, "path"));
  FileStats s = StatTarget(target);
  char perms[8];
  std::snprintf(perms, sizeof perms, "%03o", s.mode & 0777);
  bool dir = S_ISDIR(s.mode), file = S_ISREG(s.mode);
  return "size: " + std::to_string(s.size) + "\ncreated: " + js::DateToString(s.birth) +
         "\nmodified: " + js::DateToString(s.modified) + "\naccessed: " + js::DateToString(s.accessed) +
         "\nisDirectory: " + (dir ? "true" : "false") + "\nisFile: " + (file ? "true" : "false") +
         "\npermissions: " + perms;
}

Tool MakeTool(const std::string& name, std::string title, std::string description,
              std::function<ToolResult(const Json&, const ToolContext&)> handler) {
  const Json& schema = ToolSchemas().at(name);
  Tool t;
  t.name = name;
  t.title = std::move(title);
  t.description = std::move(description);
  t.input_schema = schema.at("inputSchema");
  t.output_schema = schema.at("outputSchema");
  t.annotations = schema.at("annotations");
  // FsError messages may hold NUL bytes (from the requested path), which
  // what() would cut off: turn them into results here.
  t.handler = [handler = std::move(handler)](const Json& args, const ToolContext& ctx) {
    try {
      return handler(args, ctx);
    } catch (const FsError& e) {
      return ToolResult::Error(e.message());
    }
  };
  return t;
}

// A tool whose result is one text block mirrored as structuredContent.
Tool TextTool(const std::string& name, std::string title, std::string description,
              std::function<std::string(const Json&, const ToolContext&)> body) {
  return MakeTool(name, std::move(title), std::move(description),
                  [body = std::move(body)](const Json& args, const ToolContext& ctx) {
                    return ToolResult::TextWithStructured(body(args, ctx));
                  });
}

}  // namespace

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  // 2025.7.1 searched names by substring, had no tree excludes, moved
  // with a bare rename, decoded head/tail per chunk (variants.h) and
  // validated paths by its own rules (resolver.h).
  const bool v2025 = options.variant == kVariant2025_7_1;
  auto policy = std::make_shared<const PathPolicy>(options.allowed_directories,
                                                   v2025 ? Rules2025_7_1() : PathPolicy::Rules{});
  // Handlers hold the policy alive for as long as the definition lives.
  auto text = [policy](auto fn) {
    return
        [policy, fn](const Json& args, const ToolContext& ctx) { return fn(*policy, args, ctx); };
  };
  std::vector<Tool> tools;
  const std::string read_text_description =
      "Return a text file's contents (decoded as UTF-8). Pass `head` for only the first N lines or "
      "`tail` for only "
      "the last N lines, not both. The path must lie inside an allowed directory.";
  tools.push_back(
      TextTool("read_file", "Read file (deprecated)",
               "Older name of read_text_file, kept for compatibility; prefer read_text_file. " +
                   read_text_description,
               text([v2025](const PathPolicy& pp, const Json& a, const ToolContext&) {
                 return ReadText(pp, a, v2025);
               })));
  tools.push_back(TextTool("read_text_file", "Read text file", read_text_description,
                           text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             return ReadText(pp, a, false);  // today's tool only
                           })));
  tools.push_back(MakeTool("read_media_file", "Read media file",
                           "Return a file's bytes base64-encoded in a single content block: images "
                           "and audio as image/audio blocks with "
                           "their MIME type (chosen by file extension), anything else as an "
                           "embedded binary resource. The path must lie "
                           "inside an allowed directory.",
                           [policy](const Json& args, const ToolContext&) {
                             Json item = ReadMediaFile(*policy, Str(args, "path"));
                             ToolResult r;
                             r.content.push_back(item);
                             r.structured = Json{{"content", Json::array({item})}};
                             return r;
                           }));
  tools.push_back(TextTool("read_multiple_files", "Read several files",
                           "Read a list of text files in one call. Each file appears as its path, "
                           "a colon and its contents; files are "
                           "separated by '---'. A file that cannot be read shows its error in "
                           "place without failing the others.",
                           text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             return ReadMultiple(pp, a);
                           })));
  tools.push_back(
      TextTool("write_file", "Write file",
               "Write `content` to a file, creating it or replacing everything it held (no "
               "confirmation, so check the path "
               "first). The parent directory must already exist inside an allowed directory.",
               text([v2025](const PathPolicy& pp, const Json& a, const ToolContext&) {
                 Target target = pp.Validate(Str(a, "path"));
                 WriteFileContent(target, Str(a, "content"), !v2025);
                 return "Successfully wrote to " + Str(a, "path");
               })));
  tools.push_back(TextTool("edit_file", "Edit file",
                           "Apply a list of text replacements to a file, in order. Each `oldText` "
                           "is matched exactly, or failing that "
                           "line by line ignoring leading and trailing white space (the "
                           "replacement then takes the matched lines' "
                           "indentation). Returns the change as a unified diff; with `dryRun` the "
                           "file is left untouched.",
                           text([v2025](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             return EditFile(pp, a, v2025);
                           })));
  tools.push_back(TextTool("create_directory", "Create directory",
                           "Make a directory, including any missing parent directories. Succeeds "
                           "quietly when it already exists. The "
                           "path must lie inside an allowed directory.",
                           text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             Target target = pp.Validate(Str(a, "path"));
                             MakeDirectories(target);
                             return "Successfully created directory " + Str(a, "path");
                           })));
  tools.push_back(TextTool("list_directory", "List directory",
                           "List the entries of one directory, one per line, each marked [DIR] or "
                           "[FILE]. The path must lie inside an "
                           "allowed directory.",
                           text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             return ListDirectory(pp, Str(a, "path"));
                           })));
  tools.push_back(TextTool(
      "list_directory_with_sizes", "List directory with sizes",
      "List the entries of one directory with [DIR]/[FILE] markers and file sizes, sorted by name "
      "or by size "
      "(largest first), followed by file and directory counts and the total size of the files.",
      text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
        return ListDirectoryWithSizes(pp, Str(a, "path"), a.value("sortBy", "name") == "size");
      })));
  tools.push_back(TextTool("directory_tree", "Directory tree",
                           "Describe everything below a directory as indented JSON: an array of "
                           "{name, type} objects, where type is "
                           "'file' or 'directory' and directories carry a `children` array. "
                           "`excludePatterns` are glob patterns, "
                           "relative to the starting directory, for entries to leave out.",
                           text([v2025](const PathPolicy& pp, const Json& a, const ToolContext& ctx) {
                             std::vector<std::string> excludes;
                             if (!v2025) excludes = StrList(a, "excludePatterns");
                             return DirectoryTree(pp, Str(a, "path"), excludes, ctx);
                           })));
  tools.push_back(TextTool("move_file", "Move or rename",
                           "Move or rename a file or directory. Fails rather than overwrite when "
                           "something already exists at the "
                           "destination. Both paths must lie inside allowed directories.",
                           text([v2025](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             Target source = pp.Validate(Str(a, "source"));
                             Target destination =
                                 pp.Validate(Str(a, "destination"));
                             MoveTarget(source, destination, v2025);
                             return "Successfully moved " + Str(a, "source") + " to " +
                                    Str(a, "destination");
                           })));
  tools.push_back(TextTool("search_files", "Search by glob",
                           "Find files and directories below a directory whose path relative to it "
                           "matches a glob pattern ('*.md' for "
                           "the top level, '**/*.md' at any depth). Returns the full paths found, "
                           "one per line. `excludePatterns` are "
                           "globs for paths to skip.",
                           text([v2025](const PathPolicy& pp, const Json& a, const ToolContext& ctx) {
                             return SearchFiles(pp, Str(a, "path"), Str(a, "pattern"),
                                                StrList(a, "excludePatterns"), ctx,
                                                v2025 ? SearchMatch::kNameSubstring : SearchMatch::kGlob);
                           })));
  tools.push_back(TextTool("get_file_info", "File metadata",
                           "Report a file's or directory's metadata without reading it: size, "
                           "creation, modification and access times, "
                           "whether it is a directory or a file, and its permission bits.",
                           text([](const PathPolicy& pp, const Json& a, const ToolContext&) {
                             return FileInfo(pp, a);
                           })));
  tools.push_back(TextTool("list_allowed_directories", "Allowed directories",
                           "Show which directories this server may access; everything inside them "
                           "is reachable, nothing outside.",
                           text([](const PathPolicy& pp, const Json&, const ToolContext&) {
                             return "Allowed directories:\n" + strings::Join(pp.allowed(), "\n");
                           })));
  PresentVariant(options.variant, tools);
  mcp::ServerInfo info;
  info.name = "secure-filesystem-server";
  info.version = "0.2.0";
  auto server = std::make_shared<mcp::ServerDefinition>(std::move(info), std::move(tools));
  ConfigureVariant(options.variant, *server);
  return server;
}

}  // namespace sbx::servers::filesystem
