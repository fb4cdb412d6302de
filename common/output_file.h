#pragma once

// Writing result files so that a failed write is a failure: a full disk, a read-only folder
// or a file-size limit gives one line naming the file and the operating system's reason, and
// never leaves a file that reads as complete when it is not.

#include <stdexcept>
#include <string>
#include <string_view>

namespace twinblocks::graph {

/// A file that could not be written: "cannot write 'out/run.csv': No space left on device".
class OutputFileError : public std::runtime_error {
 public:
  /// `opened`: the file was made and the writing failed (a full disk), rather than the path
  /// refused at once (no such folder, a read-only one): the command line tells the two apart
  /// as a failed write (exit 4) and bad input (exit 2).
  /// `what`, when given, names what the file is for: "cannot write results to 'r.csv': ...".
  OutputFileError(const std::string& path, const std::string& reason, bool opened,
                  const std::string& what = "")
      : std::runtime_error("cannot write " + (what.empty() ? "" : what + " to ") + "'" + path +
                           "': " + reason),
        path_(path),
        reason_(reason),
        opened_(opened) {}
  const std::string& path() const { return path_; }
  /// Why, without the file: "No space left on device".
  const std::string& reason() const { return reason_; }
  bool opened() const { return opened_; }

 private:
  std::string path_;
  std::string reason_;
  bool opened_;
};

/// Checks that `path` can be opened for writing, making it (empty) when missing but leaving
/// its contents: to find an unwritable results file before a run is spent on it. A FIFO that
/// nothing reads is refused, not waited on. @throws OutputFileError (opened() false)
void ProbeWritable(const std::string& path);

/// Writes `bytes` to `path`, replacing the file. When the write fails, a regular file is
/// removed rather than left half written (half an SVG or an HTML page is no picture or page);
/// a device (/dev/null, /dev/stdout) is left alone.
/// @throws OutputFileError
void WriteWholeFile(const std::string& path, std::string_view bytes);

/// A text file written in whole lines (the rows of a CSV), buffered. When a write fails the
/// file is cut back to the end of the last line written whole, so that a reader of what was
/// written finds complete rows only, and the error is thrown.
class LineFileWriter {
 public:
  /// Creates or truncates `path`. @throws OutputFileError
  explicit LineFileWriter(const std::string& path);
  ~LineFileWriter();
  LineFileWriter(const LineFileWriter&) = delete;
  LineFileWriter& operator=(const LineFileWriter&) = delete;

  /// Adds whole lines (`lines` ends in '\n'). @throws OutputFileError
  void Append(std::string_view lines);
  /// Writes what is buffered and closes the file. @throws OutputFileError
  void Close();

 private:
  void Flush();
  [[noreturn]] void Fail(int error);

  std::string path_;
  int fd_ = -1;
  bool regular_ = false;     ///< a regular file, which can be cut back (not a device)
  long long committed_ = 0;  ///< bytes of whole lines known to be written
  std::string buffer_;
};

}  // namespace twinblocks::graph
