// upload and dump: moving workspace archives through the signed object URLs
// (POST upload-url + PUT, GET dump + GET), with progress on stderr.

#include <CLI/CLI.hpp>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "archive/extract.h"
#include "archive/pack.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/temp_file.h"
#include "core/fs.h"

namespace sbx::cli {
namespace {

namespace stdfs = std::filesystem;

bool HasArchiveSuffix(std::string_view path) {
  std::string lower;
  for (char c : path) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.ends_with(".tar.gz") || lower.ends_with(".tgz");
}

// Parse-time checks of the local paths, so that a wrong path is a usage error
// (exit 64) found before anything is requested from the server.
std::string CheckUploadSource(const std::string& path) {
  std::error_code ec;
  auto status = stdfs::status(path, ec);
  if (ec || !stdfs::exists(status)) return path + ": no such file or directory";
  if (stdfs::is_directory(status)) return "";
  if (stdfs::is_regular_file(status) && HasArchiveSuffix(path)) return "";
  return path + ": expected a directory or a .tar.gz/.tgz file";
}

std::string CheckDumpTarget(const std::string& path) {
  std::error_code ec;
  auto status = stdfs::status(path, ec);
  bool exists = !ec && stdfs::exists(status);
  if (HasArchiveSuffix(path)) {
    if (exists && stdfs::is_directory(status)) {
      return path + " is a directory; give a file name ending in .tar.gz or .tgz";
    }
    stdfs::path parent = stdfs::path(path).parent_path();
    if (!parent.empty() && !stdfs::is_directory(parent, ec)) {
      return parent.string() + ": no such directory";
    }
    return "";
  }
  if (!exists) return "";
  if (!stdfs::is_directory(status)) {
    return path + " exists and is not a directory (name an archive *.tar.gz/*.tgz or a directory)";
  }
  if (!stdfs::is_empty(path, ec) || ec) {
    return path + " is not empty; extract into a new or empty directory";
  }
  return "";
}

// Requests a signed URL ({"upload_url"|"download_url": ...}) and resolves it.
Result<Url> SignedUrl(const Context& ctx, Method method, const std::string& path, const char* field,
                      Json* answer) {
  auto got = ctx.api.Call(method, path);
  if (!got.ok()) return got.error();
  *answer = *got;
  auto it = got->find(field);
  if (it == got->end() || !it->is_string()) {
    return MakeError(ErrorCode::kInternal,
                     std::string("the server's answer has no \"") + field + "\": " + got->dump());
  }
  return ctx.api.Resolve(it->get<std::string>());
}

struct UploadOptions {
  std::string id;
  std::string path;
  bool no_initialize = false;
};

// Packs `dir` into `archive` with a progress line (content bytes of the tree).
Status Pack(const Context& ctx, const std::string& dir, const std::string& archive) {
  std::optional<std::uint64_t> total;
  if (auto size = sbx::fs::TreeSize(dir); size.ok()) total = *size;
  ProgressReporter progress("pack", stderr, ctx.interactive);
  auto packed = sbx::archive::PackDirectory(
      dir, archive, [&](std::uint64_t done) { progress.Update(done, total); });
  if (!packed.ok()) {
    progress.Abandon();
    return MakeError(packed.error().code, "packing " + dir + " failed: " + packed.error().message);
  }
  progress.Finish(packed->content_bytes);
  return Ok();
}

int RunUpload(const Context& ctx, const UploadOptions& opts) {
  // The URL first: a wrong id or key fails before a possibly long pack.
  Json url_answer;
  auto url =
      SignedUrl(ctx, Method::kPost, SandboxPath(opts.id, "/upload-url"), "upload_url", &url_answer);
  if (!url.ok()) return Fail(url.error());

  std::optional<TempFile> packed;
  std::string archive = opts.path;
  if (stdfs::is_directory(opts.path)) {
    auto temp = TempFile::Create(TempDir(), "sandboxctl-upload-", ".tar.gz");
    if (!temp.ok()) return Fail(temp.error());
    packed.emplace(std::move(temp).value());
    if (auto st = Pack(ctx, opts.path, packed->path()); !st.ok()) return Fail(st.error());
    archive = packed->path();
  }

  ProgressReporter progress("upload", stderr, ctx.interactive);
  std::uint64_t sent = 0;
  auto put = PutFile(*url, {{"Content-Type", "application/gzip"}}, archive,
                     [&](std::uint64_t done, std::optional<std::uint64_t> total) {
                       sent = done;
                       progress.Update(done, total);
                     });
  if (!put.ok() || put->status / 100 != 2) {
    progress.Abandon();
    return Fail(put.ok() ? ctx.api.HttpError(*put) : put.error());
  }
  progress.Finish(sent);

  if (opts.no_initialize) {
    if (ctx.json) {
      PrintJson(url_answer);
    } else {
      std::cout << "Uploaded. Run `sandboxctl initialize " << opts.id
                << "` to extract it into the workspace.\n";
    }
    return kExitOk;
  }
  auto initialized = ctx.api.Call(Method::kPost, SandboxPath(opts.id, "/initialize"));
  if (!initialized.ok()) return Fail(initialized.error());
  PrintStatusAnswer(ctx, *initialized);
  return kExitOk;
}

struct DumpOptions {
  std::string id;
  std::string out;
};

// Empties `dir` (which was empty before the extraction) and removes it if
// this command created it, so a refused archive leaves nothing half-written.
void UndoExtraction(const std::string& dir, bool created) {
  std::error_code ec;
  for (const auto& entry : stdfs::directory_iterator(dir, ec)) {
    (void)sbx::fs::RemoveTree(entry.path().string());
  }
  if (created) stdfs::remove(dir, ec);
}

int RunDump(const Context& ctx, const DumpOptions& opts) {
  const bool to_file = HasArchiveSuffix(opts.out);
  bool created_dir = false;
  std::error_code ec;
  if (!to_file && !stdfs::exists(opts.out, ec)) {
    created_dir = stdfs::create_directories(opts.out, ec);
    if (ec) {
      return Fail(
          MakeError(ErrorCode::kInternal, "cannot create " + opts.out + ": " + ec.message()));
    }
  }
  auto fail = [&](const Error& error) {
    if (!to_file) UndoExtraction(opts.out, created_dir);
    return Fail(error);
  };

  Json url_answer;
  auto url =
      SignedUrl(ctx, Method::kGet, SandboxPath(opts.id, "/dump"), "download_url", &url_answer);
  if (!url.ok()) return fail(url.error());

  // An archive is downloaded next to its final name and renamed when
  // complete, so OUT never holds a truncated archive; for extraction the
  // archive is only an intermediate and goes to the temp dir.
  std::string temp_dir = TempDir();
  if (to_file) {
    stdfs::path parent = stdfs::path(opts.out).parent_path();
    temp_dir = parent.empty() ? "." : parent.string();
  }
  auto temp = TempFile::Create(temp_dir, ".sandboxctl-dump-", ".part");
  if (!temp.ok()) return fail(temp.error());

  ProgressReporter progress("download", stderr, ctx.interactive);
  std::uint64_t received = 0;
  auto got = GetToFile(*url, {}, temp->path(),
                       [&](std::uint64_t done, std::optional<std::uint64_t> total) {
                         received = done;
                         progress.Update(done, total);
                       });
  if (!got.ok() || got->status / 100 != 2) {
    progress.Abandon();
    return fail(got.ok() ? ctx.api.HttpError(*got) : got.error());
  }
  progress.Finish(received);

  if (to_file) {
    if (auto st = temp->MoveTo(opts.out); !st.ok()) return fail(st.error());
    if (ctx.json) {
      PrintJson(url_answer);
    } else {
      std::cout << "Wrote " << opts.out << " (" << FormatBytes(received) << ").\n";
    }
    return kExitOk;
  }
  auto extracted = sbx::archive::ExtractArchive(temp->path(), opts.out, {});
  if (!extracted.ok()) {
    return fail(MakeError(extracted.error().code, "extracting the dump into " + opts.out +
                                                      " failed: " + extracted.error().message));
  }
  if (ctx.json) {
    PrintJson(url_answer);
  } else {
    std::cout << "Extracted " << extracted->entries << " entries (" << FormatBytes(extracted->bytes)
              << ") into " << opts.out << ".\n";
  }
  return kExitOk;
}

CLI::Validator PathCheck(std::string (*check)(const std::string&), const char* name) {
  return CLI::Validator([check](std::string& value) { return check(value); }, name);
}

}  // namespace

void RegisterTransferCommands(CLI::App& app, Action& selected) {
  auto up = std::make_shared<UploadOptions>();
  CLI::App* upload = app.add_subcommand(
      "upload",
      "Upload a directory (packed to tar.gz on the fly) or a .tar.gz/.tgz file into a "
      "sandbox, then initialize the workspace from it");
  upload->add_option("ID", up->id, "Sandbox id")->required();
  upload->add_option("PATH", up->path, "Directory or .tar.gz/.tgz archive")
      ->required()
      ->check(PathCheck(CheckUploadSource, "DIR|ARCHIVE"));
  upload->add_flag("--no-initialize", up->no_initialize,
                   "Only upload; run `initialize` later to extract it");
  upload->callback(
      [&selected, up] { selected = [up](const Context& ctx) { return RunUpload(ctx, *up); }; });

  auto dump_opts = std::make_shared<DumpOptions>();
  CLI::App* dump = app.add_subcommand(
      "dump",
      "Download the workspace: to OUT if it ends in .tar.gz/.tgz, else extracted into the "
      "directory OUT (created if missing, must be empty)");
  dump->add_option("ID", dump_opts->id, "Sandbox id")->required();
  dump->add_option("OUT", dump_opts->out, "Archive file or directory")
      ->required()
      ->check(PathCheck(CheckDumpTarget, "FILE|DIR"));
  dump->callback([&selected, dump_opts] {
    selected = [dump_opts](const Context& ctx) { return RunDump(ctx, *dump_opts); };
  });
}

}  // namespace sbx::cli
