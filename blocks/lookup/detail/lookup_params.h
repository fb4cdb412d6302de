#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/lookup/detail/breakpoints.h"
#include "blocks/lookup/detail/grid_interpolant.h"
#include "blocks/lookup/detail/table_file.h"
#include "blocks/param.h"

/// Reading the parameters the lookup-table blocks share, and their catalog entries: one
/// wording for all of them.
namespace twinblocks::blocks::lookup {

/// True when the block's table comes from its `file` parameter, false when from
/// `table_params` (each of which must then be given).
/// @throws BlockError when both or neither are given
bool TableFromFile(const Params& params, const std::vector<const char*>& table_params);

/// The `file` parameter as a path: relative to the model file's directory unless absolute.
std::string TableFilePath(const Params& params);

/// The `interpolation`, `extrapolation` and `spline_ends` words.
/// @throws BlockError for spline extrapolation without spline interpolation
Interpolation ReadInterpolation(const Params& params);
Extrapolation ReadExtrapolation(const Params& params, Interpolation interpolation);
SplineEnds ReadSplineEnds(const Params& params);

/// The values of a numeric parameter, each finite. @throws BlockError naming it otherwise
std::vector<double> FiniteValues(const Eigen::MatrixXd& m, const std::string& param);

/// The `sizes` parameter (numbers of breakpoints per dimension, each a whole number >= 2, at
/// most kMaxDimensions of them); `fallback` (one dimension of that many values) when it is
/// not given. @throws BlockError naming `sizes`
std::vector<int> ReadSizes(const Params& params, int fallback);

/// `values` cut into the breakpoint vectors of the dimensions, `sizes[j]` each in turn.
/// @throws BlockError naming `param` when the counts disagree or a vector is not strictly
///   increasing and finite
std::vector<Breakpoints> SplitBreakpoints(const std::vector<double>& values,
                                          const std::vector<int>& sizes, const std::string& param);

/// The breakpoints of a table read from a file (already checked by the reader).
std::vector<Breakpoints> FileBreakpoints(const TableData& data, const std::string& path);

/// Checks that a table of `size` values (and, for splines, its derivative arrays) fits the
/// block_values limit. @throws BlockError naming `param`
void CheckTableSize(std::ptrdiff_t size, int dimensions, Interpolation interpolation,
                    const std::string& param);

// ---- Catalog entries ----
ParamSpec FileParamSpec(const std::string& doc);
ParamSpec InterpolationParamSpec();
ParamSpec ExtrapolationParamSpec();
ParamSpec SplineEndsParamSpec();

/// The doc text on methods that LookupTable, LookupTable2D and LookupTableND share.
std::string MethodsDoc();

}  // namespace twinblocks::blocks::lookup
