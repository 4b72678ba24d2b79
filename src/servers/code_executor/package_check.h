// check_installed_packages: the probe script it writes and runs, and how its
// output becomes upstream's answer.
//
// The probe does what upstream's does for each name — importlib's
// find_spec, then import_module, then __version__ (else version) and
// __file__ — and prints one JSON object keyed by name, which upstream
// parses in JavaScript and serialises again; the key order of that round
// trip (array-index-like keys first, ascending) is reproduced here.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <variant>

#include "core/json.h"

namespace sbx::servers::code_executor {

// The Python source of the probe for `packages` (a JSON array of strings).
std::string ProbeScript(const Json& packages);

// JSON.parse of the probe's stdout (trimmed as String#trim does), or the
// reason it is not JSON.
std::variant<Json, std::string> ParseProbeOutput(const std::string& stdout_text);

// The object as JavaScript holds it after JSON.parse: in every object,
// integer-like keys ("0", "42", not "042") first in ascending order, then
// the rest in their order; numbers as JSON.stringify prints them (1.0 → 1).
Json AsJavaScriptValue(const Json& value);

// Upstream's summary: {status, env_type, all_installed, not_installed,
// package_details} from the parsed probe output.
Json PackageReport(const std::string& env_type, const Json& details);

}  // namespace sbx::servers::code_executor
