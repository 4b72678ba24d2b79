// Turning sandboxd error responses into one line a person can act on.
//
// Every sandboxd error body is JSON with a "detail" member: a string for most
// errors, and for 422 a list of pydantic-style items {"type","loc","msg",...}.
// The CLI prints `error: HTTP <status>: <detail>`.
#pragma once

#include <string>
#include <string_view>

namespace sbx::cli {

// The human form of an error body's detail:
// - a string detail as is;
// - a list of validation items as "loc.path: msg" joined by "; ", where loc
//   elements are joined with '.' (["body","server_names",0] -> body.server_names.0);
// - any other JSON detail as compact JSON;
// - a body that is not JSON as its text on one line (truncated), or
//   "(empty response body)".
std::string FormatErrorDetail(std::string_view body);

// "HTTP <status>: <detail>".
std::string FormatHttpError(int status, std::string_view body);

}  // namespace sbx::cli
