#include "load.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "measure.h"

namespace bench {
namespace {

[[noreturn]] void Fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Calls `f(name, value)` for each header line of `head` (after the status line).
template <typename F>
void ForEachHeader(std::string_view head, F f) {
  std::size_t pos = head.find("\r\n");
  while (pos != std::string_view::npos && pos + 2 < head.size()) {
    std::size_t start = pos + 2, end = head.find("\r\n", start);
    std::string_view line = head.substr(start, end == std::string_view::npos ? head.size() - start : end - start);
    std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) f(Trim(line.substr(0, colon)), Trim(line.substr(colon + 1)));
    pos = end;
  }
}

double CpuSeconds() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

}  // namespace

std::string Reply::Header(std::string_view name) const {
  std::string found;
  ForEachHeader(head, [&](std::string_view n, std::string_view v) {
    if (found.empty() && IEquals(n, name)) found = v;
  });
  return found;
}

std::optional<std::size_t> FrameReply(std::string_view buf, std::size_t& head_end, long& length, Reply* out) {
  if (head_end == 0) {
    std::size_t end = buf.find("\r\n\r\n");
    if (end == std::string_view::npos) {
      if (buf.size() > 64 * 1024) throw std::runtime_error("reply headers over 64 KiB");
      return std::nullopt;
    }
    head_end = end + 4;
    std::string_view head = buf.substr(0, end);
    if (head.substr(0, 9) != "HTTP/1.1 " || head.size() < 12) throw std::runtime_error("not an HTTP/1.1 reply");
    int status = std::atoi(std::string(head.substr(9, 3)).c_str());
    length = -1;
    bool close = false, chunked = false;
    ForEachHeader(head, [&](std::string_view n, std::string_view v) {
      if (IEquals(n, "content-length")) length = std::atol(std::string(v).c_str());
      else if (IEquals(n, "transfer-encoding")) chunked = true;
      else if (IEquals(n, "connection") && IEquals(v, "close")) close = true;
    });
    if (chunked) throw std::runtime_error("a chunked reply (this client frames by Content-Length only)");
    if (close) throw std::runtime_error("the server closed the keep-alive connection (Connection: close)");
    if (length < 0) {
      if (status == 204 || status == 304 || status / 100 == 1) length = 0;
      else throw std::runtime_error("a reply without Content-Length");
    }
  }
  std::size_t total = head_end + static_cast<std::size_t>(length);
  if (buf.size() < total) return std::nullopt;
  if (out) {
    out->status = std::atoi(std::string(buf.substr(9, 3)).c_str());
    out->head = std::string(buf.substr(0, head_end - 4));
    out->body = std::string(buf.substr(head_end, static_cast<std::size_t>(length)));
  }
  return total;
}

std::string BuildRequest(std::string_view method, std::string_view target, std::string_view host,
                         const std::vector<std::string>& headers, std::string_view body) {
  std::string r;
  r.reserve(256 + body.size());
  r.append(method).append(" ").append(target).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
  for (const auto& h : headers) r.append(h).append("\r\n");
  if (!body.empty() || method == "POST" || method == "PUT")
    r.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
  r.append("\r\n").append(body);
  return r;
}

RawConn::RawConn(const std::string& addr) {
  auto colon = addr.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("address wants HOST:PORT: " + addr);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(std::stoi(addr.substr(colon + 1))));
  if (::inet_pton(AF_INET, addr.substr(0, colon).c_str(), &sa.sin_addr) != 1)
    throw std::runtime_error("not an IPv4 address: " + addr);
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) Fail("socket");
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    ::close(fd_);
    Fail("connect " + addr);
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

RawConn::~RawConn() {
  if (fd_ >= 0) ::close(fd_);
}

Reply RawConn::RoundTrip(const std::string& request) {
  int flags = ::fcntl(fd_, F_GETFL);
  ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
  for (std::size_t off = 0; off < request.size();) {
    ssize_t n = ::send(fd_, request.data() + off, request.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Fail("send");
    off += static_cast<std::size_t>(n);
  }
  std::size_t head_end = 0;
  long length = -1;
  Reply reply;
  char buf[65536];
  for (;;) {
    if (auto used = FrameReply(in_, head_end, length, &reply)) {
      in_.erase(0, *used);
      return reply;
    }
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("recv");
    if (n == 0) throw std::runtime_error("the server closed the connection");
    in_.append(buf, static_cast<std::size_t>(n));
  }
}

// ---------------------------------------------------------------- the loop

struct ConnState {
  RawConn* conn = nullptr;
  std::string out;
  std::size_t out_off = 0;
  bool want_out = false;
  std::size_t head_end = 0;
  long length = -1;
  Clock::time_point sent;
  long warm_left = 0;
  bool busy = false;
};

LoadResult RunLoad(const std::vector<std::unique_ptr<RawConn>>& conns, const LoadSpec& spec) {
  LoadResult result;
  result.latency_ms.reserve(static_cast<std::size_t>(spec.calls));
  int ep = ::epoll_create1(EPOLL_CLOEXEC);
  if (ep < 0) Fail("epoll_create1");
  struct EpollCloser {
    int fd;
    ~EpollCloser() { ::close(fd); }
  } closer{ep};

  std::vector<ConnState> st(conns.size());
  for (std::size_t i = 0; i < conns.size(); ++i) {
    st[i].conn = conns[i].get();
    st[i].warm_left = spec.warmup_per_conn;
    int fd = conns[i]->fd();
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    if (::epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) Fail("epoll_ctl");
    if (!conns[i]->pending().empty()) throw std::runtime_error("unread bytes on a connection before the load");
  }

  long next_id = 1'000'000;  // clear of the set-up's ids
  long issued = 0, completed = 0, warm_done = 0;
  bool measuring = spec.warmup_per_conn <= 0;
  Clock::time_point t0, t_last;
  double cpu0 = 0;

  auto flush = [&](std::size_t i) {
    ConnState& c = st[i];
    while (c.out_off < c.out.size()) {
      ssize_t n = ::send(c.conn->fd(), c.out.data() + c.out_off, c.out.size() - c.out_off, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n <= 0) Fail("send");
      c.out_off += static_cast<std::size_t>(n);
    }
    bool want = c.out_off < c.out.size();
    if (want != c.want_out) {
      epoll_event ev{};
      ev.events = EPOLLIN | (want ? EPOLLOUT : 0u);
      ev.data.u64 = i;
      if (::epoll_ctl(ep, EPOLL_CTL_MOD, c.conn->fd(), &ev) != 0) Fail("epoll_ctl");
      c.want_out = want;
    }
  };
  auto send = [&](std::size_t i) {
    ConnState& c = st[i];
    c.out = spec.request(i, next_id++);
    c.out_off = 0;
    c.busy = true;
    c.sent = Clock::now();
    flush(i);
  };
  auto start_measuring = [&] {
    measuring = true;
    if (spec.on_start) spec.on_start();
    cpu0 = CpuSeconds();
    t0 = Clock::now();
    for (std::size_t i = 0; i < st.size() && issued < spec.calls; ++i, ++issued) send(i);
  };

  if (measuring) start_measuring();
  else
    for (std::size_t i = 0; i < st.size(); ++i) send(i);

  std::vector<epoll_event> events(st.size() + 1);
  char buf[65536];
  Clock::time_point last_progress = Clock::now();
  while (!(measuring && completed >= spec.calls)) {
    int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), 1000);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("epoll_wait");
    if (n == 0) {
      if (Clock::now() - last_progress > std::chrono::seconds(60))
        throw std::runtime_error("no reply for 60 s (" + std::to_string(completed) + " of " +
                                 std::to_string(spec.calls) + " measured calls done)");
      continue;
    }
    for (int e = 0; e < n; ++e) {
      std::size_t i = events[e].data.u64;
      ConnState& c = st[i];
      if (events[e].events & EPOLLOUT) flush(i);
      if (!(events[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP))) continue;
      for (;;) {
        ssize_t r = ::recv(c.conn->fd(), buf, sizeof buf, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (r < 0) Fail("recv");
        if (r == 0) throw std::runtime_error("the server closed a connection during the load");
        c.conn->pending().append(buf, static_cast<std::size_t>(r));
        if (static_cast<std::size_t>(r) < sizeof buf) break;
      }
      auto used = FrameReply(c.conn->pending(), c.head_end, c.length, nullptr);
      if (!used) continue;
      auto done = Clock::now();
      last_progress = done;
      if (!c.busy || *used != c.conn->pending().size()) throw std::runtime_error("a reply nobody asked for");
      std::string_view whole(c.conn->pending());
      int status = std::atoi(std::string(whole.substr(9, 3)).c_str());
      std::string_view body = whole.substr(c.head_end, static_cast<std::size_t>(c.length));
      if (!spec.good(status, body)) {
        if (result.bad++ == 0) result.first_bad = std::to_string(status) + " " + std::string(body.substr(0, 300));
      }
      c.conn->pending().clear();
      c.head_end = 0;
      c.length = -1;
      c.busy = false;
      if (!measuring) {
        if (--c.warm_left > 0) send(i);
        else if (++warm_done == static_cast<long>(st.size())) start_measuring();
        continue;
      }
      result.latency_ms.push_back(MsSince(c.sent, done));
      t_last = done;
      ++completed;
      if (issued < spec.calls) {
        ++issued;
        send(i);
      }
    }
  }
  result.client_cpu_s = CpuSeconds() - cpu0;
  result.wall_s = MsSince(t0, t_last) / 1000.0;
  for (auto& c : st) {
    int fd = c.conn->fd();
    ::epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
  }
  return result;
}

}  // namespace bench
