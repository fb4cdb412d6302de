#pragma once

// What a sweep writes once its rows are together: the summary table (one row per run, in
// index order), the overlay plots (one line per run), and the wall times apart. And the
// byte form of rows that MPI ranks send to rank 0, exact to the bit.

#include <string>
#include <string_view>
#include <vector>

#include "sweep/sweep_plan.h"
#include "sweep/sweep_runner.h"

namespace twinblocks::sweep {

/// The summary columns after the fixed ones: "op(signal)" per summary value, e.g.
/// "final(object.position[2])", in the order they first appear over `rows` taken by index (a
/// value whose name repeats keeps its first column).
std::vector<std::string> SummaryColumnNames(const std::vector<RunResult>& rows);

/// The summary table as CSV text: a header `index,<parameter names>,status,t_reached,error,
/// <SummaryColumnNames>`, then one row per run sorted by index. Numbers are in the shortest
/// form that reads back to the same double ("nan" for NaN); an invalid run's t_reached and a
/// value a run does not have are empty; text fields are quoted when they hold a comma, quote
/// or line break. Nothing in it depends on threads, ranks or timing.
/// @throws std::logic_error when `rows` do not hold every run of `plan` exactly once.
std::string SummaryTableCsv(const SweepPlan& plan, const std::vector<RunResult>& rows);

/// Writes SummaryTableCsv to `path`. @throws std::runtime_error when it cannot.
void WriteSummaryTable(const SweepPlan& plan, const std::vector<RunResult>& rows,
                       const std::string& path);

/// Writes `index,status,wall_seconds` per run to `path`, in index order.
/// @throws std::runtime_error when it cannot.
void WriteTimings(const std::vector<RunResult>& rows, const std::string& path);

/// "plot_object.position_2.svg": the overlay plot's file name for a signal, its characters
/// other than letters, digits, '.', '-' and '_' made '_'.
std::string PlotFileName(const std::string& signal);

/// Writes the overlay plot of entry `plot` of SweepOptions::plot_signals: one line per run
/// (per element for a vector signal) that recorded rows, named by the run's values
/// (SweepPlan::Label), a failed run's name saying so.
/// @throws std::runtime_error when the file cannot be written; std::logic_error for a `plot`
///   the rows do not hold.
void WriteSweepPlot(const SweepPlan& plan, const std::vector<RunResult>& rows, int plot,
                    const std::string& signal, const std::string& title, const std::string& path);

/// `rows` as bytes (doubles as their bit patterns), for sending between processes.
std::string EncodeRunResults(const std::vector<RunResult>& rows);

/// The rows EncodeRunResults wrote; equal to them field by field, bit for bit.
/// @throws std::runtime_error for bytes that are not such an encoding (cut short, say).
std::vector<RunResult> DecodeRunResults(std::string_view bytes);

}  // namespace twinblocks::sweep
