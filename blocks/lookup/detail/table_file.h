#pragma once

#include <string>
#include <vector>

namespace twinblocks::blocks::lookup {

/// A table as a file gives it: the breakpoints of each dimension, each strictly increasing,
/// and the values at every grid point, the first dimension fastest.
struct TableData {
  std::vector<std::vector<double>> breakpoints;  ///< (d) of (n_j)
  std::vector<double> values;                    ///< (n1 x ... x nd)
};

/// Reads a table written as rows (CSV, "long" form): a header line naming the d inputs and
/// the output, then one row per grid point, its d coordinates then its value, in any order.
/// The breakpoints of each dimension are the distinct values of its column; every
/// combination of them must appear exactly once. Every number must be a finite decimal.
/// Only a regular file within the file_bytes limit is read, and at most block_values values
/// are kept (common/input_limits.h).
/// @param dimensions the number of input columns required, or 0 for any from 1 to 30
/// @throws BlockError naming `file` and, where one is at fault, path:line
TableData ReadTableRows(const std::string& path, int dimensions);

/// Reads a 2-D table laid out as a matrix (CSV): the first line holds a corner cell (any text,
/// ignored) then the breakpoints of the columns (u2); every following line holds one
/// breakpoint of the rows (u1) then the values of that row. Both sets of breakpoints must be
/// strictly increasing as written. Limits and numbers as ReadTableRows.
/// @throws BlockError naming `file` and path:line
TableData ReadTableMatrix(const std::string& path);

}  // namespace twinblocks::blocks::lookup
