#include "common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace twinblocks::graph {

namespace {

// Lines are written in chunks of about this many bytes: few system calls, and a cut back to
// a whole line loses at most one chunk.
constexpr size_t kChunk = 1 << 16;

std::string Reason(int error) {
  // Opening a FIFO without blocking fails so when nothing reads it.
  if (error == ENXIO) return "it is a FIFO that nothing reads";
  return std::strerror(error);
}

// O_NONBLOCK: opening a FIFO would otherwise wait for a reader that may never come. Writes
// then block again, as to any file.
int OpenNonBlocking(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputFileError(path, Reason(errno), /*opened=*/false);
  const int status = ::fcntl(fd, F_GETFL);
  if (status >= 0) ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
  return fd;
}

int OpenForWriting(const std::string& path, bool* regular) {
  const int fd = OpenNonBlocking(path, O_TRUNC);
  struct stat st {};
  *regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  return fd;
}

// Writes all of `bytes`; the errno of the first failure, or 0. A short write is retried: the
// next attempt reports why the first was short (ENOSPC, EFBIG).
int WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

}  // namespace

void ProbeWritable(const std::string& path) { ::close(OpenNonBlocking(path, O_APPEND)); }

void WriteWholeFile(const std::string& path, std::string_view bytes) {
  bool regular = false;
  const int fd = OpenForWriting(path, &regular);
  int error = WriteAll(fd, bytes);
  // close() reports what a network file system or a delayed allocation found late.
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return;
  if (regular) ::unlink(path.c_str());
  throw OutputFileError(path, Reason(error), /*opened=*/true);
}

LineFileWriter::LineFileWriter(const std::string& path) : path_(path) {
  fd_ = OpenForWriting(path, &regular_);
  buffer_.reserve(kChunk + 4096);
}

LineFileWriter::~LineFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void LineFileWriter::Append(std::string_view lines) {
  buffer_.append(lines);
  if (buffer_.size() >= kChunk) Flush();
}

void LineFileWriter::Close() {
  Flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    // What close() refused may be anywhere in the file: nothing of it can be vouched for.
    if (regular_) (void)::truncate(path_.c_str(), 0);
    throw OutputFileError(path_, Reason(error), /*opened=*/true);
  }
}

void LineFileWriter::Flush() {
  if (buffer_.empty()) return;
  if (fd_ < 0) throw OutputFileError(path_, Reason(EBADF), /*opened=*/true);
  if (const int error = WriteAll(fd_, buffer_); error != 0) Fail(error);
  committed_ += static_cast<long long>(buffer_.size());
  buffer_.clear();
}

void LineFileWriter::Fail(int error) {
  // Part of the chunk may be on disk, cut mid-line: back to the last whole line.
  if (regular_) (void)::ftruncate(fd_, committed_);
  ::close(fd_);
  fd_ = -1;
  buffer_.clear();
  throw OutputFileError(path_, Reason(error), /*opened=*/true);
}

}  // namespace twinblocks::graph
