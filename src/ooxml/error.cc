#include "ooxml/error.h"

namespace sbx::ooxml {

std::string_view FaultName(Fault fault) {
  switch (fault) {
    case Fault::kNotZip: return "not-zip";
    case Fault::kCorruptEntry: return "corrupt-entry";
    case Fault::kTooLarge: return "too-large";
    case Fault::kBadEntryName: return "bad-entry-name";
    case Fault::kDuplicatePart: return "duplicate-part";
    case Fault::kEncrypted: return "encrypted";
    case Fault::kUnsupported: return "unsupported";
    case Fault::kMissingPart: return "missing-part";
    case Fault::kBadXml: return "bad-xml";
    case Fault::kBadContentTypes: return "bad-content-types";
    case Fault::kBadRelationship: return "bad-relationship";
    case Fault::kBadValue: return "bad-value";
    case Fault::kInternal: return "internal";
  }
  return "internal";
}

Error MakeFault(Fault fault, std::string_view part, std::string_view what) {
  Error e;
  switch (fault) {
    case Fault::kTooLarge: e.code = ErrorCode::kTooLarge; break;
    case Fault::kMissingPart: e.code = ErrorCode::kNotFound; break;
    case Fault::kInternal: e.code = ErrorCode::kInternal; break;
    default: e.code = ErrorCode::kInvalidArgument; break;
  }
  e.fault = fault;
  e.part = std::string(part);
  e.message = part.empty() ? std::string(what) : std::string(part) + ": " + std::string(what);
  return e;
}

}  // namespace sbx::ooxml
