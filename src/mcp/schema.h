// Validation of tool arguments against the tool's JSON Schema (the subset
// tool schemas use: type, properties, required, additionalProperties, items,
// minItems/maxItems, enum, const, anyOf/oneOf/allOf, minimum/maximum,
// exclusiveMinimum/exclusiveMaximum, minLength/maxLength).
//
// Issues are reported in the wording and order of the TypeScript SDK (zod
// 4), because an invalid call's result text is part of what benchmarks and
// graders see: "Invalid input: expected string, received number at path".
// Unknown properties are allowed unless the schema says otherwise (zod
// strips them; it does not reject them).
#pragma once

#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::mcp {

struct SchemaIssue {
  std::string message;  // "Invalid input: expected string, received undefined"
  Json path;            // array of keys and indexes from the arguments' root
};

std::vector<SchemaIssue> Validate(const Json& schema, const Json& value);

// "message at a.b[0]" per issue (just "message" at the root), joined by '\n'.
std::string FormatIssues(const std::vector<SchemaIssue>& issues);

// `arguments` with the schema's top-level defaults filled in for absent
// properties (as zod's .default() does before the handler runs).
Json WithDefaults(const Json& schema, Json arguments);

}  // namespace sbx::mcp
