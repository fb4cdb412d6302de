#include "blocks/math/register_math_blocks.h"

#include "blocks/math/concatenate.h"
#include "blocks/math/cross_product.h"
#include "blocks/math/dot_product.h"
#include "blocks/math/math_function.h"
#include "blocks/math/matrix_multiply.h"
#include "blocks/math/reshape.h"
#include "blocks/math/rounding.h"
#include "blocks/math/transpose.h"
#include "blocks/math/trigonometric_function.h"

namespace twinblocks::blocks {

void RegisterMathBlocks(BlockRegistry& registry) {
  // Math and continuous.
  registry.Add(TrigonometricFunctionType());
  registry.Add(MathFunctionType());
  registry.Add(RoundingType());
  // Matrix operations.
  registry.Add(MatrixMultiplyType());
  registry.Add(TransposeType());
  registry.Add(CrossProductType());
  registry.Add(DotProductType());
  registry.Add(ReshapeType());
  registry.Add(ConcatenateType());
}

}  // namespace twinblocks::blocks
