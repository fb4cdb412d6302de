// libtwinblocks_graphviz.so: diagram pictures laid out and rendered by Graphviz's libgvc,
// opened by io/graphviz_render.cc on first use (common/detail/plugin_loader.h says why).
#include "io/detail/graphviz_plugin.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace twinblocks::graph::internal {
namespace {

// Graphviz reports errors through a process-wide callback: collected here for the message of
// the exception instead of printed on stderr.
std::string* g_messages = nullptr;

int CollectMessage(char* text) {
  if (g_messages != nullptr && text != nullptr) *g_messages += text;
  return 0;
}

// Installs CollectMessage for the lifetime of one RenderDot call.
class ErrorCapture {
 public:
  ErrorCapture() : previous_handler_(agseterrf(&CollectMessage)), previous_level_(agseterr(AGERR)) {
    g_messages = &messages_;
  }
  ~ErrorCapture() {
    g_messages = nullptr;
    agseterrf(previous_handler_);
    agseterr(previous_level_);
  }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

  /// The messages so far on one line, or `fallback` when there are none.
  std::string Text(const std::string& fallback) const {
    std::string line;
    for (char c : messages_) line += c == '\n' ? ' ' : c;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line.empty() ? fallback : line;
  }

 private:
  std::string messages_;
  agusererrf previous_handler_;
  agerrlevel_t previous_level_;
};

struct ContextFree {
  void operator()(GVC_t* gvc) const { gvFreeContext(gvc); }
};

std::string RenderDot(const std::string& dot, const std::string& format) {
  ErrorCapture errors;
  std::unique_ptr<GVC_t, ContextFree> gvc(gvContext());
  if (!gvc) throw std::runtime_error("graphviz: cannot create a context");
  // The graph must be freed before its context, the layout before the graph.
  auto close_graph = [](Agraph_t* g) { agclose(g); };
  std::unique_ptr<Agraph_t, decltype(close_graph)> g(agmemread(dot.c_str()), close_graph);
  if (!g) throw std::runtime_error("graphviz: " + errors.Text("the DOT text does not parse"));
  if (gvLayout(gvc.get(), g.get(), "dot") != 0) {
    throw std::runtime_error("graphviz: layout failed: " + errors.Text("no message"));
  }
  char* data = nullptr;
  unsigned int length = 0;
  const int rendered = gvRenderData(gvc.get(), g.get(), format.c_str(), &data, &length);
  std::string out;
  if (rendered == 0 && data != nullptr) out.assign(data, length);
  if (data != nullptr) gvFreeRenderData(data);
  gvFreeLayout(gvc.get(), g.get());
  if (rendered != 0 || out.empty()) {
    throw std::runtime_error("graphviz: cannot render as '" + format +
                             "': " + errors.Text("no such output format"));
  }
  return out;
}

constexpr GraphvizPlugin kTable{&RenderDot};

}  // namespace
}  // namespace twinblocks::graph::internal

extern "C" const void* twinblocks_graphviz_plugin(int abi_version) {
  using twinblocks::graph::internal::GraphvizPlugin;
  return abi_version == GraphvizPlugin::kAbiVersion ? &twinblocks::graph::internal::kTable
                                                    : nullptr;
}
