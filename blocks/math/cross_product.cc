#include "blocks/math/cross_product.h"

#include <memory>

namespace twinblocks::blocks {

CrossProduct::CrossProduct(const Params& params) {
  DeclareInput("u1", 3);
  DeclareInput("u2", 3);
  DeclareOutput("y", 3);
}

void CrossProduct::DoCalcOutputs(Context& c, int stage) const {
  const double* a = in(c, 0);
  const double* b = in(c, 1);
  double* y = out(c, 0);
  // Through locals: y may not alias the inputs, but the compiler cannot know.
  const double y0 = a[1] * b[2] - a[2] * b[1];
  const double y1 = a[2] * b[0] - a[0] * b[2];
  const double y2 = a[0] * b[1] - a[1] * b[0];
  y[0] = y0;
  y[1] = y1;
  y[2] = y2;
}

BlockType CrossProductType() {
  BlockType t;
  t.name = "CrossProduct";
  t.category = "Matrix operations";
  t.summary = "Cross product of two 3-vectors.";
  t.doc =
      "y = u1 x u2 = [u1y u2z - u1z u2y, u1z u2x - u1x u2z, u1x u2y - u1y u2x] (a torque from "
      "a lever arm and a force, a velocity from an angular velocity and a position). Both "
      "inputs have width 3. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Cross Product (3-element vectors)";
  t.inputs = {{"u1", "3-vector, the left factor"}, {"u2", "3-vector, the right factor"}};
  t.outputs = {{"y", "u1 x u2, width 3"}};
  t.create = [](const Params& p) { return std::make_unique<CrossProduct>(p); };
  return t;
}

}  // namespace twinblocks::blocks
