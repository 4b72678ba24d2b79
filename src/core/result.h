// Result<T> and Status: errors that cross a module boundary are values.
//
// An Error carries a machine-readable code (mapped to an HTTP status by api/)
// and a message written for the person who will read it: what was wrong and,
// where it helps, what to do instead.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace sbx {

enum class ErrorCode {
  kInvalidArgument,   // the caller's input is wrong (400)
  kNotFound,          // no such thing, or not the caller's (404)
  kConflict,          // the thing is in a state that forbids the operation (409)
  kTooLarge,          // input over a configured bound (413)
  kForbidden,         // credential valid in form but not for this (403)
  kUnauthenticated,   // no or unknown credential (401)
  kUnavailable,       // temporarily cannot serve (503)
  kInternal,          // a bug or an environment failure (500)
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

inline Error MakeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// `E` is Error or a type derived from it that carries more (ooxml::Error's
// fault kind and part name); one template, so every layer's results behave
// alike.
template <class T, class E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}            // NOLINT: implicit by design
  Result(E error) : v_(std::move(error)) {}            // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const E& error() const { assert(!ok()); return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

template <class E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const { assert(!ok_); return error_; }

 private:
  E error_;
  bool ok_ = true;
};

using Status = Result<void>;

inline Status Ok() { return Status(); }

}  // namespace sbx
