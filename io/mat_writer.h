#pragma once

#include <string>
#include <vector>

#include "runtime/results.h"

namespace twinblocks::graph {

/// True when this build writes MATLAB .mat files (libmatio was found at configure time; the
/// CMake option TWINBLOCKS_MATIO).
bool MatSupported();

/// Opens what writing .mat files needs (a plugin, common/detail/plugin_loader.h) now rather
/// than at the first WriteMat, so that a run that is to end in a .mat file fails before it
/// starts, not after.
/// @throws std::runtime_error (one line, naming `path`) when this build has no MAT support or
///   its plugin cannot be opened.
void PrepareWriteMat(const std::string& path);

/// The MATLAB variable name of each logged signal name, in order (docs/cli.md, Results formats):
/// - every character other than a letter, a digit or '_' becomes '_' ("arm/joint1.q" gives
///   "arm_joint1_q");
/// - a name that does not start with a letter, or is a MATLAB or Octave keyword ("end"), gets
///   the prefix "s_" ("1st" gives "s_1st", "_x" gives "s__x");
/// - names are cut to MATLAB's 63 characters;
/// - a name already taken by an earlier signal gets "_2", "_3", ... (cut so that it still fits).
/// The result is a valid, unique MATLAB identifier per signal.
std::vector<std::string> MatVariableNames(const std::vector<std::string>& signal_names);

/// Writes `recording` as a MATLAB v5 .mat file (uncompressed, no HDF5: MATLAB's `save -v6` format,
/// read by MATLAB's and Octave's `load`), one struct variable per logged signal, named by
/// MatVariableNames, with the fields
///   time    N x 1 double, the recorded times;
///   values  N x width double, row r the signal at time(r);
///   signal  char, the "path.port" of the block output that drives it;
///   name    char, the logged name (the CSV column, or its stem for a vector signal).
/// @throws std::runtime_error (one line, naming `path`) when it cannot write the file, or when
///   this build has no MAT support (MatSupported() is false).
void WriteMat(const Recording& recording, const std::string& path);

}  // namespace twinblocks::graph
