# Writes OUTPUT, a C++ file defining sbx::api::OpenApiDocument() from INPUT.
file(READ ${INPUT} CONTENT HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," BYTES "${CONTENT}")
file(WRITE ${OUTPUT} "// Generated from openapi.json by embed.cmake.\n#include <string>\nnamespace sbx::api {\nstatic const unsigned char kDoc[] = {${BYTES}};\nconst std::string& OpenApiDocument() { static const std::string s(reinterpret_cast<const char*>(kDoc), sizeof kDoc); return s; }\n}\n")
