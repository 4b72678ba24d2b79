// Upload URL, the signed-URL object endpoints (PUT upload, GET download),
// initialize and dump.
#include <fcntl.h>
#include <unistd.h>

#include "api/context.h"
#include "api/errors.h"
#include "api/handler_util.h"
#include "api/validation.h"
#include "core/ids.h"
#include "http/blocking.h"

namespace sbx::api {
namespace {

Task<bool> RegionOk(http::Exchange& ex) {
  ValidationErrors errors;
  ValidateRegion(ex.query(), errors);
  if (errors.empty()) co_return true;
  co_await ex.Send(errors.ToResponse());
  co_return false;
}

Task<void> UploadUrl(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  if (!co_await RegionOk(ex)) co_return;
  auto url = ctx.manager.CreateUploadUrl(who.owner, ex.param("id"));
  if (!url) {
    co_await ex.Send(ErrorResponse(url.error()));
    co_return;
  }
  co_await SendJson(ex, 200, SignedUrlView("upload_url", *url));
}

Task<void> Initialize(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  if (!co_await RegionOk(ex)) co_return;
  auto initialize = [](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return m.Initialize(owner, id);
  };
  auto outcome = co_await RunSandboxOp(ctx, ex, who, initialize);
  if (!outcome) co_return;
  co_await SendJson(
      ex, 200,
      SandboxStatusView(ex.param("id"), "Extracted archive to workspace (" +
                                            std::to_string(outcome->entries) + " entries, " +
                                            std::to_string(outcome->bytes) + " bytes)"));
}

Task<void> Dump(ApiContext& ctx, http::Exchange& ex, const Principal& who) {
  if (!co_await RegionOk(ex)) co_return;
  auto dump = [](sandbox::Manager& m, const std::string& owner, const std::string& id) {
    return m.Dump(owner, id);
  };
  auto url = co_await RunSandboxOp(ctx, ex, who, dump);
  if (!url) co_return;
  co_await SendJson(ex, 200, SignedUrlView("download_url", *url));
}

// Checks a signed object URL; on failure it has answered (403 / 404).
Task<bool> VerifySigned(ApiContext& ctx, http::Exchange& ex, const char* method) {
  const std::string& sandbox_id = ex.param("sandbox");
  const std::string& object_id = ex.param("object");
  Status s = MakeError(ErrorCode::kForbidden, "Signed URL is malformed");
  if (ids::IsUuid(sandbox_id) && ids::IsTokenShaped(object_id, 64)) {
    s = ctx.manager.VerifyObjectUrl(method, sandbox_id, object_id,
                                    ex.query().Get("expires").value_or(""),
                                    ex.query().Get("signature").value_or(""));
  }
  if (s) co_return true;
  co_await ex.Send(ErrorResponse(s.error()));
  co_return false;
}

Task<void> PutObject(ApiContext& ctx, http::Exchange& ex) {
  if (!co_await VerifySigned(ctx, ex, "PUT")) co_return;
  std::string sandbox_id = ex.param("sandbox"), object_id = ex.param("object");
  auto target = ctx.manager.BeginUpload(sandbox_id, object_id);
  if (!target) {
    co_await ex.Send(ErrorResponse(target.error()));
    co_return;
  }
  int fd = ::open(target->part_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    co_await ex.Send(
        ErrorResponse(MakeError(ErrorCode::kInternal, "cannot create " + target->part_path)));
    co_return;
  }
  auto size = co_await ex.ReadBodyToFd(fd, target->max_bytes);
  if (!size) {
    ::close(fd);
    ctx.manager.AbortUpload(*target);
    Error e = size.error();
    if (e.code == ErrorCode::kTooLarge)
      e.message = "Upload exceeds the limit of " + std::to_string(target->max_bytes) + " bytes";
    co_await ex.Send(ErrorResponse(e));
    co_return;
  }
  // Durable before it is recorded: a crash must not leave a recorded upload
  // whose bytes never reached the disk.
  auto commit = [&, fd, bytes = *size]() {
    bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced) {
      ctx.manager.AbortUpload(*target);
      return Status(MakeError(ErrorCode::kInternal, "fsync of the upload failed"));
    }
    return ctx.manager.CommitUpload(sandbox_id, object_id, *target, bytes);
  };
  Status committed = co_await http::RunBlocking(ctx.blocking_pool, std::move(commit));
  if (!committed) {
    co_await ex.Send(ErrorResponse(committed.error()));
    co_return;
  }
  http::Response stored{200, "", "", {}};
  co_await ex.Send(std::move(stored));
}

Task<void> GetObject(ApiContext& ctx, http::Exchange& ex) {
  if (!co_await VerifySigned(ctx, ex, "GET")) co_return;
  auto path = ctx.manager.ObjectPath(ex.param("sandbox"), ex.param("object"));
  if (!path) {
    co_await ex.Send(ErrorResponse(path.error()));
    co_return;
  }
  // (Built outside the co_await: g++ 12 miscompiles braced temporaries there.)
  std::vector<std::pair<std::string, std::string>> headers;
  headers.emplace_back("Content-Disposition",
                       "attachment; filename=\"" + ex.param("sandbox") + ".tar.gz\"");
  co_await ex.SendFile(*path, "application/gzip", std::move(headers));
}

}  // namespace

void RegisterArchiveRoutes(http::Router& router, ApiContext& ctx) {
  using bhttp::verb;

  router.Add(verb::post, "/local-sandbox/{id}/upload-url", Bind(ctx, UploadUrl));
  router.Add(verb::post, "/local-sandbox/{id}/initialize", Bind(ctx, Initialize));
  router.Add(verb::get, "/local-sandbox/{id}/dump", Bind(ctx, Dump));
  router.Add(verb::put, "/objects/{sandbox}/{object}",
             [&ctx](http::Exchange& ex) { return PutObject(ctx, ex); });
  router.Add(verb::get, "/objects/{sandbox}/{object}",
             [&ctx](http::Exchange& ex) { return GetObject(ctx, ex); });
}

}  // namespace sbx::api
