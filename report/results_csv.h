#pragma once

// Reading back a results CSV that `twinblocks run` wrote (Recording::WriteCsv): a header
// `time,<columns>` and one row of numbers per output time. Columns `name[0]` ... `name[n-1]`
// in a row become one signal of width n again, as the run logged it; any other column is a
// signal of its own.

#include <string>

#include "graph/results.h"

namespace twinblocks::report {

/// The recording a results CSV holds. Fields may be quoted (as CsvField writes names with
/// commas or quotes); numbers are read with std::from_chars (nan and inf included).
/// @throws std::runtime_error with "path:line: what was expected" when the file cannot be
///   read, has no header starting with `time`, a row has another number of fields than the
///   header, or a field is not a number.
graph::Recording ReadResultsCsv(const std::string& path);

}  // namespace twinblocks::report
