#include "common/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/input_limits.h"

namespace twinblocks::blocks {

namespace {

// Closes the descriptor on every path out.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void Refuse(const std::string& path, const std::string& why) {
  throw InputFileError(path, why);
}

std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISFIFO(mode)) return "it is a FIFO (a pipe), not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device, not a regular file";
  return "it is not a regular file";
}

std::string SizeText(std::int64_t bytes) {
  char text[32];
  if (bytes >= (std::int64_t{1} << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
  }
  return text;
}

// Opens `path` for reading and checks what it is. O_NONBLOCK: opening a FIFO would otherwise
// wait for a writer that may never come.
int OpenRegular(const std::string& path, struct stat* st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) Refuse(path, std::strerror(errno));
  if (::fstat(fd, st) != 0) {
    const int err = errno;
    ::close(fd);
    Refuse(path, std::strerror(err));
  }
  if (!S_ISREG(st->st_mode)) {
    ::close(fd);
    Refuse(path, KindOf(st->st_mode));
  }
  const std::int64_t limit = CurrentInputLimits().file_bytes;
  if (st->st_size > limit) {
    ::close(fd);
    Refuse(path, "it is " + SizeText(st->st_size) + ", " + OverLimit("file_bytes"));
  }
  return fd;
}

}  // namespace

void CheckInputFile(const std::string& path) {
  struct stat st {};
  FileDescriptor fd(OpenRegular(path, &st));
}

std::string ReadInputFile(const std::string& path) {
  struct stat st {};
  FileDescriptor fd(OpenRegular(path, &st));
  const std::int64_t limit = CurrentInputLimits().file_bytes;
  // The size stat gives is a hint: files under /proc say 0, and a file may grow while read.
  // Read in chunks and stop one byte past the limit.
  std::string bytes;
  bytes.reserve(static_cast<size_t>(st.st_size));
  char chunk[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      Refuse(path, std::strerror(errno));
    }
    if (n == 0) break;
    if (static_cast<std::int64_t>(bytes.size()) + n > limit) {
      Refuse(path, "it is larger than " + SizeText(limit) + ", " + OverLimit("file_bytes"));
    }
    bytes.append(chunk, static_cast<size_t>(n));
  }
  return bytes;
}

std::string TextEncodingProblem(std::string_view bytes) {
  auto starts = [&bytes](std::string_view prefix) {
    return bytes.substr(0, prefix.size()) == prefix;
  };
  constexpr char kSaveAs[] = "; save it as UTF-8";
  if (starts(std::string_view("\xFF\xFE\0\0", 4)) || starts(std::string_view("\0\0\xFE\xFF", 4))) {
    return std::string("it is UTF-32 text") + kSaveAs;
  }
  if (starts("\xFF\xFE")) return std::string("it is UTF-16 (little-endian) text") + kSaveAs;
  if (starts("\xFE\xFF")) return std::string("it is UTF-16 (big-endian) text") + kSaveAs;
  const size_t nul = bytes.find('\0');
  if (nul == std::string_view::npos) return "";
  // UTF-16 without a byte-order mark: ASCII characters with a zero byte beside each.
  const bool le = bytes.size() >= 2 && bytes[0] != '\0' && bytes[1] == '\0';
  const bool be = bytes.size() >= 2 && bytes[0] == '\0' && bytes[1] != '\0';
  if (le || be) {
    return std::string("it looks like UTF-16 text (") + (le ? "little" : "big") +
           "-endian, no byte-order mark)" + kSaveAs;
  }
  return "it holds binary data (a NUL byte at offset " + std::to_string(nul) + "); expected text";
}

std::string ReadTextFile(const std::string& path) {
  std::string text = ReadInputFile(path);
  const std::string problem = TextEncodingProblem(text);
  if (!problem.empty()) Refuse(path, problem);
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

}  // namespace twinblocks::blocks
