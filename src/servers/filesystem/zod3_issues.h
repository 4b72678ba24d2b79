// What zod 3's safeParse reported for arguments that do not fit a tool's
// schema, for filesystem@2025.7.1, whose handlers parsed their own arguments
// and answered "Error: Invalid arguments for <tool>: <ZodError>" (the error's
// text being its issue list as JSON.stringify(issues, null, 2) writes it).
//
// The schema is the tool's draft-07 inputSchema as zod-to-json-schema wrote
// it from the zod 3 object (properties in the object's key order); the
// subset those schemas use is understood: object/properties/required,
// string, number, boolean, array/items and string enums. A property outside
// `required` may be absent (optional, or filled by its default); keys the
// schema does not name are no issue (zod 3 strips them).
#pragma once

#include <string>

#include "core/json.h"

namespace sbx::servers::filesystem {

// The issues, in zod 3's order and key order ([] when the value fits).
// `value` null: the arguments were absent (JavaScript undefined).
Json Zod3Issues(const Json& schema, const Json* value);

// The text a ZodError of `issues` prints: JSON.stringify(issues, null, 2).
std::string Zod3ErrorText(const Json& issues);

// The value as the parse returns it: only the schema's keys, defaults filled.
Json Zod3Parsed(const Json& schema, const Json& value);

}  // namespace sbx::servers::filesystem
