// Validation of the acquire body (AcquireLocalSandboxRequest) with the
// reference's defaults: ttl_seconds 7200, benchmark and email null.
#pragma once

#include <optional>

#include "api/validation.h"
#include "core/json.h"
#include "sandbox/manager.h"

namespace sbx::api {

inline constexpr std::int64_t kDefaultTtlSeconds = 7200;
inline constexpr std::int64_t kMinTtlSeconds = 60;
inline constexpr std::int64_t kMaxTtlSeconds = 86400;

// The request, or nullopt with every problem added to `errors`. `served` is
// what this deployment can serve (its sandbox-agent's servers, in enum
// order): "ALL" expands to it, and a name of the reference's enum outside it
// is refused here, before anything is created, with an error naming it.
std::optional<sandbox::AcquireRequest> ParseAcquireRequest(const Json& body, ValidationErrors& errors,
                                                           const std::vector<std::string>& served);

}  // namespace sbx::api
