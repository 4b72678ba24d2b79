#include "servers/arxiv/pdf_markdown.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/unique_fd.h"
#include "pdf/client.h"

namespace sbx::servers::arxiv {

Result<std::string> PdfToMarkdown(const std::string& pdf, const PdfLimits& limits,
                                  const std::function<bool()>& cancelled) {
  // The store's bytes are already in memory (read through the store's
  // bounds); the helper takes them as an anonymous file.
  UniqueFd fd(::memfd_create("arxiv-paper", MFD_CLOEXEC));
  if (!fd.valid()) return MakeError(ErrorCode::kInternal, std::string("memfd_create: ") + std::strerror(errno));
  for (std::size_t done = 0; done < pdf.size();) {
    ssize_t n = ::write(fd.get(), pdf.data() + done, pdf.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return MakeError(ErrorCode::kInternal, std::string("memfd write: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  pdf::Limits bounds;
  bounds.max_input_bytes = pdf.size() + 1;
  bounds.max_output_bytes = limits.max_output_bytes;
  pdf::Request request{"markdown",
                       {"--max-pages", std::to_string(limits.max_pages)},
                       {fd.get()}};
  auto reply = pdf::RunHelper(request, bounds, cancelled);
  if (!reply) return reply.error();
  const Json& md = reply->fields["markdown"];
  if (!md.is_string()) return MakeError(ErrorCode::kInternal, "the PDF helper's reply has no markdown");
  return md.get<std::string>();
}

}  // namespace sbx::servers::arxiv
