#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/source_location.h"

namespace twinblocks::graph {

/// A parameter as the user wrote it: its text is evaluated only at compile.
struct Parameter {
  std::string name;
  std::string value;
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

/// A boundary port of a subsystem or define: `<inport>`, `<outport>`, `<port domain=..>`, or
/// the control input of a conditional subsystem, `<enable>` or `<trigger>` (Simulink's Enable
/// and Trigger blocks): a subsystem with one runs only while enabled, or once at each trigger
/// edge (docs/model-format.md, "Conditional subsystems").
struct PortDecl {
  enum class Kind { kInport, kOutport, kPhysical, kEnable, kTrigger };
  Kind kind = Kind::kInport;
  std::string name;
  std::string domain;  ///< physical ports only: frame, rotational, electrical
  SourceLocation where;
  /// Top-level inports only (external inputs): the width as written, an expression; "" for 1.
  std::string width;
  /// kEnable: the states when the subsystem is enabled again, "held" or "reset"; kTrigger: the
  /// edge that runs it, "rising", "falling" or "either"; kOutport: the output while its
  /// conditional subsystem does not run, "held" or "reset" (to `initial`). "" for the default
  /// (held, rising, held), which the writer leaves out.
  std::string behavior;
  /// kOutport only: the output of a conditional subsystem before it first runs and when reset,
  /// an expression; "" for 0.
  std::string initial;
  bool operator==(const PortDecl& o) const {
    return kind == o.kind && name == o.name && domain == o.domain && width == o.width &&
           behavior == o.behavior && initial == o.initial;
  }
};

/// The words PortDecl::behavior takes for a port of `kind` (the default first); empty for
/// kinds that take none.
inline std::vector<std::string> PortBehaviorWords(PortDecl::Kind kind) {
  switch (kind) {
    case PortDecl::Kind::kEnable:
    case PortDecl::Kind::kOutport:
      return {"held", "reset"};
    case PortDecl::Kind::kTrigger:
      return {"rising", "falling", "either"};
    default:
      return {};
  }
}

/// One line between two ports, as written: "block.port", or ".port" for the enclosing
/// subsystem's boundary port.
struct Connection {
  std::string from;
  std::string to;
  SourceLocation where;
  bool operator==(const Connection& o) const { return from == o.from && to == o.to; }
};

class Diagram;

/// A block or a subsystem in a diagram. A subsystem has a body and type "" ; a block's type
/// names a catalog type, a `define`, a type registered at run time (a Python block class), or,
/// with `library`, a type of that block library.
struct BlockNode {
  std::string name;
  std::string type;
  /// The block library (a shared library of user block types, docs/user-blocks.md) that
  /// defines `type`, as written: a path relative to the folder of the file the block is
  /// written in, or a file name found on TWINBLOCKS_BLOCK_PATH; "" for every other type.
  std::string library;
  std::vector<Parameter> params;  ///< in the order written
  bool commented = false;
  SourceLocation where;
  std::unique_ptr<Diagram> body;  ///< subsystems only

  BlockNode() = default;
  BlockNode(const BlockNode& other);
  BlockNode& operator=(const BlockNode& other);
  BlockNode(BlockNode&&) noexcept = default;
  BlockNode& operator=(BlockNode&&) noexcept = default;
  ~BlockNode();

  bool is_subsystem() const { return body != nullptr; }
  /// The parameter's text, or nullopt when not written.
  std::optional<std::string> GetParam(std::string_view param) const;
  bool operator==(const BlockNode& o) const;
};

/// The contents of a model, a subsystem or a define: boundary ports, blocks and lines.
class Diagram {
 public:
  std::vector<PortDecl> ports;
  std::vector<BlockNode> blocks;  ///< blocks and subsystems, in file order
  std::vector<Connection> connections;

  BlockNode* Find(std::string_view name);
  const BlockNode* Find(std::string_view name) const;
  bool operator==(const Diagram& o) const = default;
};

/// `<var name value>`: a model variable.
struct Variable {
  std::string name;
  std::string value;
  SourceLocation where;
  bool operator==(const Variable& o) const { return name == o.name && value == o.value; }
};

/// `<define name params>`: a reusable subsystem type with parameters (a masked library block).
struct Define {
  std::string name;
  std::vector<std::string> params;
  Diagram body;
  SourceLocation where;
  bool operator==(const Define& o) const {
    return name == o.name && params == o.params && body == o.body;
  }
};

struct Include {
  std::string file;  ///< as written, relative to the including file
  SourceLocation where;
  bool operator==(const Include& o) const { return file == o.file; }
};

/// `<log signal as>`: a signal to record.
struct LogSpec {
  std::string signal;  ///< "path.port"
  std::string as;      ///< column name, "" for the signal's own name
  SourceLocation where;
  bool operator==(const LogSpec& o) const { return signal == o.signal && as == o.as; }
};

/// `<plot file title xlabel ylabel signals yscale>`: a line chart of logged signals over time,
/// written as SVG after a run (`twinblocks run`), so that an experiment's figures come out of
/// the model file itself rather than a separate script. Its signals are logged automatically.
struct PlotSpec {
  std::string file;                  ///< as written; relative to the results directory
  std::string title;                 ///< "" for none
  std::string xlabel = "time (s)";   ///< the default when the attribute is not written
  std::string ylabel;                ///< "" for none
  std::vector<std::string> signals;  ///< "path.port" or "path.port[i]" (one element), in order
  bool log_y = false;                ///< yscale="log": |y| on a logarithmic axis, zeros skipped
  SourceLocation where;
  bool operator==(const PlotSpec& o) const {
    return file == o.file && title == o.title && xlabel == o.xlabel && ylabel == o.ylabel &&
           signals == o.signals && log_y == o.log_y;
  }
};

/// The statistic a `<summary>` computes over the rows of a run (io/summary.h).
enum class SummaryOp { kMax, kMin, kMaxAbs, kFinal, kMean, kRms };

/// The op's name as model files write it: "max", "min", "max_abs", "final", "mean" or "rms".
std::string_view SummaryOpName(SummaryOp op);

/// The op of that name; nullopt for any other text.
std::optional<SummaryOp> ParseSummaryOp(std::string_view name);

/// Every op name, comma-separated, for messages: "max, min, max_abs, final, mean, rms".
std::string SummaryOpNames();

/// `<summary signal op label>`: a scalar result of a run (the largest tracking error of a
/// joint, a final position), printed by `twinblocks run` and written to
/// `<results>_summary.csv`. Its signals are logged automatically, as a plot's are.
struct SummarySpec {
  std::vector<std::string> signals;  ///< "path.port" or "path.port[i]" (one element), in order
  SummaryOp op = SummaryOp::kMax;
  std::string label;  ///< "" for none
  SourceLocation where;
  bool operator==(const SummarySpec& o) const {
    return signals == o.signals && op == o.op && label == o.label;
  }
};

/// A plot signal split into the signal it names and the element it picks.
struct PlotSignal {
  std::string signal;  ///< "path.port"
  int element = -1;    ///< the i of "path.port[i]"; -1 for every element
};

/// Splits "path.port" or "path.port[i]" (i a decimal index); nullopt for anything else.
/// Inline so that the reader, the compiler and the plot writer share it without a new
/// source file in the model's own translation unit.
inline std::optional<PlotSignal> ParsePlotSignal(std::string_view text);

/// `<simulation ...>`: default run settings, kept as written (attribute name -> text).
struct SimulationSettings {
  std::vector<Parameter> attributes;
  SourceLocation where;
  std::optional<std::string> Get(std::string_view attribute) const;
  void Set(const std::string& attribute, const std::string& value);
  bool operator==(const SimulationSettings& o) const { return attributes == o.attributes; }
};

/// What FindBlocks looks for; every field that is set must match.
struct BlockQuery {
  /// The block's type ("Gain", a define's name); "" for any. Subsystems have type "".
  std::string type;
  /// A glob over the block's path, one segment per '/': `*` any run of characters and `?` one
  /// character within a segment, `**` any number of segments ("hand/finger*/phalanx3",
  /// "**/j?"); "" for any.
  std::string path;
  /// A parameter the block must have written; "" for any.
  std::string param;
  /// With `param`: the parameter's text must be exactly this; "" for any value.
  std::string value;
};

/// The diagram a user edits: what a model file says, with where each part was written.
/// Everything is kept as text; nothing is evaluated until compile. Two models are equal when
/// they say the same thing, wherever it was written (source locations are not compared), and
/// a model written to XML reads back equal. Files are read and written by xml::ReadModelFile
/// and xml::WriteModelFile (xml/model_reader.h, xml/model_writer.h).
///
/// Editing methods name blocks by path ("finger1/p1/joint"); a diagram path "" is the top
/// level, and "define:NAME" the body of the model's own define NAME ("define:NAME/sub/block"
/// a block inside it; the library's defines, read from includes, are not editable). There is no
/// undo, but every edit is safe: it checks what it can at once (names, types, parameters against
/// the catalog or the define, ports of lines) and throws ModelError with one line saying what is
/// wrong, leaving the model as it was. docs/editing.md shows the whole API.
class Model {
 public:
  std::string name = "model";
  int format = 1;
  std::vector<Variable> variables;
  SimulationSettings simulation;
  std::vector<Include> includes;
  std::vector<Define> defines;
  Diagram root;
  std::vector<LogSpec> logs;
  std::vector<PlotSpec> plots;
  std::vector<SummarySpec> summaries;

  /// The file the model was read from ("" for a model made in code): relative includes and
  /// data files are found from its directory.
  std::string file;
  /// Defines loaded from includes (recursively); not part of the model's own content, not
  /// written back, not compared.
  std::vector<Define> library;

  // ---- Looking up ----

  /// The diagram at `path` ("" the top level, "a/b" a nested subsystem).
  /// @throws ModelError when there is none.
  Diagram& GetDiagram(std::string_view path);
  const Diagram& GetDiagram(std::string_view path) const;

  /// The block or subsystem at `path`, or null.
  BlockNode* FindBlock(std::string_view path);
  const BlockNode* FindBlock(std::string_view path) const;

  /// The define of that name, the model's own first, then the library's, or null.
  const Define* FindDefine(std::string_view name) const;

  /// The paths of the blocks and subsystems that match `query`, in file order (a subsystem
  /// before its contents). Define bodies are not searched: their blocks have no path until an
  /// instance is expanded.
  /// @throws ModelError when the path pattern has an empty segment.
  std::vector<std::string> FindBlocks(const BlockQuery& query) const;

  // ---- Blocks ----

  /// Adds a block of `type` (a catalog type, a define, a registered type, or with `library` a
  /// type of that block library) named `name` to the diagram at `diagram_path`. Parameters
  /// are checked against the type: an unknown one is an error (with a suggestion), a word must
  /// be one of its words, a define's parameters must all be given, and so must a catalog
  /// type's required ones. A library is loaded at once (relative to the model file's folder,
  /// or the working directory for a model made in code; docs/user-blocks.md).
  /// @throws ModelError when the name is not an identifier or is taken, the type unknown, the
  ///   library cannot be used, or a parameter wrong.
  BlockNode& AddBlock(std::string_view diagram_path, const std::string& type,
                      const std::string& name, std::vector<Parameter> params = {},
                      const std::string& library = "");
  /// Adds an empty subsystem; returns its body.
  Diagram& AddSubsystem(std::string_view diagram_path, const std::string& name);
  /// Removes the block and every line to or from it.
  /// @throws ModelError when there is no such block.
  void RemoveBlock(std::string_view path);
  /// Renames the block and rewrites the lines, logs, plots, summaries and robot parameters
  /// that name it.
  /// @throws ModelError when there is no such block, or the name is invalid or taken.
  void RenameBlock(std::string_view path, const std::string& new_name);
  /// Replaces the block (or subsystem) at `path` with a block of `new_type` and `params`,
  /// keeping its name, place, comment state and lines (Simulink's replace_block).
  /// `library`: the block library of `new_type`, "" for any other type.
  /// @throws ModelError as AddBlock does, and when a line uses a port the new type does not
  ///   have (or has with another direction or domain); the model is then unchanged.
  void ReplaceBlock(std::string_view path, const std::string& new_type,
                    std::vector<Parameter> params = {}, const std::string& library = "");
  /// Comments a block out (true) or back in (false): a block commented out leaves the
  /// simulation with its lines.
  void SetCommented(std::string_view path, bool commented);

  // ---- Parameters ----

  /// Sets a parameter's text (added when not written yet), checked as AddBlock checks it.
  /// @throws ModelError for no such block, a subsystem, or a parameter the type does not have.
  void SetParam(std::string_view path, const std::string& param, const std::string& value);
  /// Sets a parameter to a number, written in the shortest text that reads back to the same
  /// double (GetParamValue returns it bitwise).
  void SetParam(std::string_view path, const std::string& param, double value);
  /// Sets a vector parameter, written as `[a, b, c]` with each number exact.
  void SetParam(std::string_view path, const std::string& param, const std::vector<double>& value);
  /// The parameter's text as written, or nullopt when not written.
  /// @throws ModelError when there is no such block.
  std::optional<std::string> GetParam(std::string_view path, std::string_view param) const;
  /// The parameter's value: its text (or the catalog's default) evaluated with the model's
  /// variables, as compile evaluates it at the top level.
  /// @throws ModelError naming the block and parameter when it is not set, does not evaluate
  ///   (saying why), or is not a scalar.
  double GetParamValue(std::string_view path, std::string_view param) const;
  /// As GetParamValue, for a vector (or scalar) parameter: its elements in order.
  std::vector<double> GetParamVector(std::string_view path, std::string_view param) const;

  // ---- Lines ----

  /// Adds a line in the diagram at `diagram_path` from `from` to `to` ("block.port", or
  /// ".port" for the diagram's own boundary port). Ports are checked against the catalog
  /// schema, the define's or subsystem's boundary ports: both must exist, a signal line goes
  /// from an output to an input that has no line yet, a physical line joins two physical
  /// ports of one domain. Blocks of unknown type are not checked.
  /// @throws ModelError saying which end is wrong and why.
  void Connect(std::string_view diagram_path, const std::string& from, const std::string& to);
  /// Removes the line; returns false when there was none.
  /// @throws ModelError when there is no such diagram.
  bool Disconnect(std::string_view diagram_path, const std::string& from, const std::string& to);

  // ---- Hierarchy ----

  /// Moves the blocks `block_names` of the diagram at `diagram_path` into a new subsystem
  /// `new_name`, placed where the first of them was. Lines between the moved blocks move with
  /// them; every line that crosses the new boundary goes through a new boundary port named
  /// after its inner end ("gain.y" -> `gain_y`): an inport or outport for a signal, a
  /// `port domain=...` for a physical line. Logs, plots, summaries and robot parameters that
  /// name moved blocks follow them. The compiled model behaves the same.
  /// @throws ModelError for an empty list, a block named twice or missing, or a new name that
  ///   is invalid or taken; the model is then unchanged.
  void CreateSubsystem(std::string_view diagram_path, const std::vector<std::string>& block_names,
                       const std::string& new_name);
  /// Turns the instance of a define at `path` into a plain subsystem with the define's body,
  /// its parameters substituted into the body's parameter texts (Simulink's "break library
  /// link"). Instances of other defines inside stay instances. The compiled model behaves the
  /// same.
  /// @throws ModelError when there is no such block or its type is not a define.
  void ExpandDefine(std::string_view path);

  /// Sets or adds a model variable.
  /// @throws ModelError for an invalid name or one of a built-in constant or function.
  void SetVariable(const std::string& name, const std::string& value);

  // ---- Boundary ports, defines and includes ----

  /// Declares a boundary port of the subsystem (or define body) at `diagram_path`: an
  /// `<inport>`, an `<outport>`, or a physical `<port domain>` (kind kPhysical, `domain` one of
  /// frame, rotational, electrical). Inside, lines name it ".name"; outside "subsystem.name".
  /// At the top level ("") only inports are declared: the model's external inputs, set while
  /// it runs (docs/stepping.md), whose `width` is an expression ("" for 1). `port.where` is
  /// ignored.
  /// @throws ModelError when the path is no subsystem, the name is not an identifier or taken
  ///   by another port of that diagram, a physical port has no known domain (or a signal port
  ///   has one), a top-level port is not an inport, or a width is given below the top level.
  void AddPort(std::string_view diagram_path, PortDecl port);

  /// Adds a define (a reusable subsystem type with parameters) to the model's own defines and
  /// returns its body, which the editing calls reach as the diagram "define:NAME" (blocks
  /// "define:NAME/block"): build it empty and fill it in place, or pass a body built as a
  /// subsystem elsewhere.
  /// @throws ModelError when the name or a parameter is not an identifier, a parameter takes a
  ///   reserved name (a built-in constant or function, type, name, commented) or is given
  ///   twice, or the model already has a define of that name.
  Diagram& AddDefine(const std::string& name, const std::vector<std::string>& params,
                     Diagram body = {});

  /// Where `<include file>` of this model leads: `file` relative to the directory of the
  /// model's `file`, or to the working directory for a model made in code.
  std::string IncludePath(const std::string& include_file) const;

  /// Adds `<include file>` and puts the defines of the file (its own, then those it includes)
  /// in `library` at once, so that blocks of those types can be added next. graph does not
  /// read XML (the reader depends on graph, not the other way), so the caller passes the
  /// reader: `model.AddInclude("../lib/grasp.xml", xml::ReadModelFile)`; it is called with
  /// IncludePath(file) once the names are checked.
  /// @throws ModelError when the name is empty or already included, the file does not exist,
  ///   `read_file` throws (a file that is not a valid model, with its file:line), or a define
  ///   of the file has a name the library already has.
  void AddInclude(const std::string& file,
                  const std::function<Model(const std::string& path)>& read_file);

  // ---- What a run records and reports ----

  /// Adds `<log signal as>`: `signal` is "path/to/block.port"; `as` the results' name for it
  /// ("" for the signal's own).
  /// @throws ModelError when the signal is not "path.port", or `as` is not an identifier or is
  ///   used by another log.
  void AddLog(const std::string& signal, const std::string& as = "");

  /// Adds `<plot>` (its `where` is ignored).
  /// @throws ModelError when the file is empty or written by another plot, there is no signal,
  ///   or one is not "path.port" or "path.port[i]".
  void AddPlot(PlotSpec plot);

  /// Adds `<summary>` (its `where` is ignored).
  /// @throws ModelError when there is no signal, or one is not "path.port" or "path.port[i]".
  void AddSummary(SummarySpec summary);

  /// Sets a `<simulation>` attribute (solver, step, t_end ...), kept as text as the reader
  /// keeps it; the values are checked when a Simulator is made.
  /// @throws ModelError when the name is not an identifier.
  void SetSimulation(const std::string& attribute, const std::string& value);

  /// Equal content: source locations, `file` and `library` are not compared.
  bool operator==(const Model& o) const;
};

/// True for names of the form [A-Za-z_][A-Za-z0-9_]*.
bool IsIdentifier(std::string_view name);

/// Why a file a model names for writing (a `<plot file>`) would leave the results folder, or
/// "" when it stays inside: it must be a relative path that no `..` leads out of. The folder
/// is where the run writes its results (the folder of `-o`).
std::string ResultsFileProblem(std::string_view file);

/// True for a connection endpoint as the file format writes it: `block.port`, or `.port` for
/// the enclosing subsystem's boundary port (block and port identifiers).
bool IsEndpoint(std::string_view endpoint);

inline std::optional<PlotSignal> ParsePlotSignal(std::string_view text) {
  PlotSignal out;
  if (!text.empty() && text.back() == ']') {
    const size_t open = text.rfind('[');
    if (open == std::string_view::npos) return std::nullopt;
    const std::string_view digits = text.substr(open + 1, text.size() - open - 2);
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    int element = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      element = 10 * element + (c - '0');
    }
    out.element = element;
    text = text.substr(0, open);
  }
  // "a/b/c.port": identifiers separated by '/', then one '.' and the port; more dots name an
  // element of a bus the port carries ("c.port.arm.q").
  const size_t last_slash = text.rfind('/');
  const size_t tail = last_slash == std::string_view::npos ? 0 : last_slash + 1;
  if (text.find('.', tail) == std::string_view::npos) return std::nullopt;
  for (size_t start = 0;;) {
    const size_t sep = text.find_first_of(start < tail ? "/" : ".", start);
    if (!IsIdentifier(text.substr(start, sep - start))) return std::nullopt;
    if (sep == std::string_view::npos) break;
    start = sep + 1;
  }
  out.signal = std::string(text);
  return out;
}

}  // namespace twinblocks::graph
