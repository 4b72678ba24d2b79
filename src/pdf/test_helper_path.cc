// Linked into test binaries that run the helper outside a jail: the build's
// sandbox-pdf, set before any test runs.
#include "pdf/client.h"

namespace {

const bool kConfigured = [] {
  sbx::pdf::UseHelperPath(SANDBOX_PDF_PATH);
  return true;
}();

}  // namespace
