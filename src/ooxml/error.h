// Errors of the OOXML layer: an sbx::Error (code + message, so a server can
// pass it on as is) with the kind of fault and the part it concerns beside
// it, so a server can map a fault to its upstream's wording.
//
// ooxml::Result<T> is sbx::Result<T, ooxml::Error>; its Error converts to sbx::Error
// implicitly (slicing off fault and part), so `return r.error();` works in a
// function returning sbx::Result.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::ooxml {

enum class Fault {
  kNotZip,           // not a zip archive, or its structure is truncated/corrupt
  kCorruptEntry,     // an entry's data does not inflate or fails its CRC
  kTooLarge,         // a Limits bound: package, parts, part/total bytes, XML depth/nodes
  kBadEntryName,     // absolute, `..`, `.`, backslash, NUL, empty segment, not a valid part name
  kDuplicatePart,    // two entries whose names are equal ignoring ASCII case
  kEncrypted,        // an encrypted entry
  kUnsupported,      // a compression method other than stored/deflate
  kMissingPart,      // a part that is required (or asked for) is absent
  kBadXml,           // not well-formed XML, or a DOCTYPE (entities are never expanded)
  kBadContentTypes,  // [Content_Types].xml is XML but not a valid Types document
  kBadRelationship,  // a rels part that is malformed, a duplicate id, a target above the root
  kBadValue,         // a part is XML but its content breaks the schema (sst, styleSheet, ...)
  kInternal,         // libzip failed while writing: a bug or out of memory
};

// Stable lowercase name of a fault ("not-zip", "too-large", ...) for logs and tests.
std::string_view FaultName(Fault fault);

struct Error : sbx::Error {
  Fault fault = Fault::kInternal;
  std::string part;  // OPC part name ("/xl/workbook.xml"), or "" for the package
};

// code is derived from fault: kTooLarge -> sbx::ErrorCode::kTooLarge,
// kMissingPart -> kNotFound, kInternal -> kInternal, else kInvalidArgument.
// message is "<part>: <what>" when part is set, else "<what>".
Error MakeFault(Fault fault, std::string_view part, std::string_view what);

template <class T>
using Result = sbx::Result<T, Error>;
using Status = sbx::Result<void, Error>;

}  // namespace sbx::ooxml
