// Running blocking work (SQLite, file trees, archives) off the I/O threads.
//
// `co_await RunBlocking(pool, f)` runs f() on the thread pool and resumes the
// calling coroutine on its own executor with f's result, so a slow extract or
// dump never stalls other connections. Exceptions from f are rethrown in the
// caller. f and the result live in this coroutine's frame, which stays alive
// while it is suspended, so the pool thread only holds references.
#pragma once

#include <exception>
#include <optional>
#include <type_traits>

#include "http/asio.h"

namespace sbx::http {

template <class F, class R = std::invoke_result_t<F>>
Task<R> RunBlocking(asio::thread_pool& pool, F f) {
  auto caller = co_await asio::this_coro::executor;
  using Stored = std::conditional_t<std::is_void_v<R>, bool, R>;
  std::optional<Stored> result;
  // Built as a local, not inside the co_await expression (see asio.h).
  auto initiate = [&pool, &f, &result, caller](auto handler) {
    asio::post(pool, [&f, &result, caller, handler = std::move(handler)]() mutable {
      std::exception_ptr error;
      try {
        if constexpr (std::is_void_v<R>) {
          f();
          result.emplace(true);
        } else {
          result.emplace(f());
        }
      } catch (...) {
        error = std::current_exception();
      }
      asio::post(caller, [error, handler = std::move(handler)]() mutable {
        std::move(handler)(error);
      });
    });
  };
  co_await asio::async_initiate<decltype(asio::use_awaitable), void(std::exception_ptr)>(
      std::move(initiate), asio::use_awaitable);
  if constexpr (!std::is_void_v<R>) co_return std::move(*result);
}

}  // namespace sbx::http
