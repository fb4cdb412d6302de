#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace twinblocks::blocks {

struct BusLayout;

/// What a signal is besides its width. Its values are always one flat run of doubles in the
/// signal buffer; the shape says how to read them: as a plain vector, as a matrix stored row
/// by row (as Constant writes a matrix), or as a bus of named elements. Blocks that make a
/// shape set it on their output (Constant of a matrix, Reshape, Transpose, MatrixMultiply,
/// BusCreator); the compiler carries it from each output to the inputs it drives, through
/// lines, subsystem ports and Goto/From, as it carries widths; blocks that need it read it
/// when they are configured. Nothing of it is looked at while the model runs.
struct SignalShape {
  /// A matrix's rows and columns (rows * cols is the width, cols > 1); 0 and 0 for a plain
  /// vector, which the matrix blocks take as a column (n x 1).
  int rows = 0;
  int cols = 0;
  /// A bus's elements; null for a signal that is no bus.
  std::shared_ptr<const BusLayout> bus;

  /// A plain vector (the default).
  static SignalShape Vector() { return {}; }
  /// A rows x cols matrix; one column (or 1 x 1) is a plain vector.
  static SignalShape Matrix(int rows, int cols);
  static SignalShape Bus(std::shared_ptr<const BusLayout> bus);

  bool is_matrix() const { return cols > 0; }
  bool is_bus() const { return bus != nullptr; }
  bool is_plain() const { return !is_matrix() && !is_bus(); }
  /// Rows and columns as the matrix blocks see a signal of this shape and `width`: a plain
  /// vector (or a bus) is a column, width x 1.
  int RowsFor(int width) const { return is_matrix() ? rows : width; }
  int ColsFor(int width) const { return is_matrix() ? cols : 1; }
  /// True when `width` is the width a signal of this shape has (any width for a plain vector).
  bool Fits(int width) const;
  /// "2x3 matrix", "vector", "bus (pos, vel)", for messages.
  std::string Describe() const;

  /// Same matrix dimensions, or buses with the same elements (names, widths and shapes).
  friend bool operator==(const SignalShape& a, const SignalShape& b);
};

/// One named element of a bus: a run of `width` values at `offset` in the bus.
struct BusElement {
  std::string name;
  int offset = 0;
  int width = 0;
  SignalShape shape;  ///< the element's own: a matrix, a nested bus, or a plain vector
};

/// The elements of a bus in order; they tile it (each starts where the last ended).
struct BusLayout {
  std::vector<BusElement> elements;
  int width = 0;

  /// The top-level element named `name`, or null.
  const BusElement* Find(std::string_view name) const;
  /// Every element's dotted name, nested buses' elements too ("arm", "arm.q", "arm.qd").
  std::vector<std::string> Paths() const;
};

/// Where a dotted name ("arm.q") lies in a bus: its run of values and its shape.
struct BusSelection {
  int offset = 0;
  int width = 0;
  SignalShape shape;
};

/// Resolves a dotted name in `bus`. @throws BlockError naming `param` when an element is
/// missing, with the nearest name ("did you mean") and the bus's names.
BusSelection SelectFromBus(const BusLayout& bus, const std::string& dotted_name, const char* param);

}  // namespace twinblocks::blocks
