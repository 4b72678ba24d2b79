// The one place that includes Asio and Beast. Boost 1.74's asio/awaitable.hpp
// uses std::exchange without including <utility>; g++ 12 rejects that unless
// <utility> comes first (DESIGN.md, "known snag"), so every user of Asio or
// Beast includes this header instead of Boost's directly.
#pragma once

#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace sbx {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
template <class T = void>
using Task = boost::asio::awaitable<T>;
}  // namespace sbx

// g++ 12 mishandles braced (aggregate) temporaries and lambda closures
// inside a co_await expression: they are destroyed twice or copied with
// dangling small-string pointers (double frees under ASan). Never write
// `co_await f(T{...})` or `co_await f([x] {...})`: build the value in a local
// first and move it in. Function-call prvalues (`co_await f(Make())`) are fine,
// but a conditional between two of them (`co_await f(c ? A() : B())`) is not:
// it double-freed the response in the MCP gateway.
//
// Boost 1.74: `parser.body_limit(boost::none)` does not lift the limit (every
// body with a Content-Length is then refused); pass the largest uint64 instead.
