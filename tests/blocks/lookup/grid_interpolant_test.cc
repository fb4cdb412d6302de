#include "blocks/lookup/detail/grid_interpolant.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "blocks/lookup/detail/cubic_spline.h"

namespace twinblocks::blocks::lookup {
namespace {

// A cubic and its second derivative, sampled on an uneven grid.
double P(double x) { return 2.0 * x * x * x - 3.0 * x * x + 0.5 * x + 1.0; }
double Ppp(double x) { return 12.0 * x - 6.0; }
const std::vector<double> kGrid = {-1.0, -0.7, -0.2, 0.1, 0.5, 1.2, 1.5, 2.3};

GridInterpolant Table1D(const std::vector<double>& x, const std::vector<double>& y,
                        Interpolation interpolation, Extrapolation extrapolation,
                        SplineEnds ends = SplineEnds::kNotAKnot) {
  std::vector<Breakpoints> axes;
  axes.emplace_back(x, "x", "x");
  return GridInterpolant(std::move(axes), y, interpolation, extrapolation, ends);
}

std::vector<double> Sample(const std::vector<double>& x) {
  std::vector<double> y;
  for (double xi : x) y.push_back(P(xi));
  return y;
}

double At(const GridInterpolant& t, double u) {
  int hint = 0;
  return t.Evaluate(&u, &hint);
}

// Linear interpolation returns the samples exactly at the breakpoints, and elsewhere errs by
// at most h^2 / 8 max |p''| over the interval (the interpolation error bound; p'' is linear,
// so its largest magnitude is at an end).
TEST(GridInterpolantTest, LinearReproducesBreakpointsAndKeepsWithinTheErrorBound) {
  const GridInterpolant t =
      Table1D(kGrid, Sample(kGrid), Interpolation::kLinear, Extrapolation::kLinear);
  for (double x : kGrid) EXPECT_EQ(At(t, x), P(x)) << x;
  for (std::size_t k = 0; k + 1 < kGrid.size(); ++k) {
    const double a = kGrid[k], b = kGrid[k + 1], h = b - a;
    const double bound = h * h / 8.0 * std::max(std::abs(Ppp(a)), std::abs(Ppp(b)));
    for (int i = 1; i < 50; ++i) {
      const double u = a + h * i / 50.0;
      EXPECT_LE(std::abs(At(t, u) - P(u)), bound + 1e-14) << "u = " << u;
    }
  }
}

// A cubic is its own not-a-knot spline: inside to rounding (1e-12 relative), and outside too
// when the end cubics extrapolate.
TEST(GridInterpolantTest, NotAKnotSplineReproducesACubic) {
  const GridInterpolant t = Table1D(kGrid, Sample(kGrid), Interpolation::kSpline,
                                    Extrapolation::kSpline, SplineEnds::kNotAKnot);
  for (int i = 0; i <= 1000; ++i) {
    const double u = -1.5 + 4.3 * i / 1000.0;  // from 0.5 below to 0.5 above the grid
    EXPECT_NEAR(At(t, u), P(u), 1e-12 * std::max(1.0, std::abs(P(u)))) << "u = " << u;
  }
  for (double x : kGrid) EXPECT_EQ(At(t, x), P(x)) << x;
}

// Natural spline through (0, 1), (1, 0), (2, 2), (4, 1), solved by hand: with h = 1, 1, 2 and
// chord slopes -1, 2, -1/2, the rows for the inner second derivatives are
// 4 M1 + M2 = 18 and M1 + 6 M2 = -15, so M1 = 123/23, M2 = -78/23 (M0 = M3 = 0). Then
// S(0.5) = M1/48 + 1/2 - M1/12 = 61/368 and, on [2, 4] at its middle,
// S(3) = M2/12 + (1 - M2/3) + 1/2 = 54/23.
TEST(GridInterpolantTest, NaturalSplineMatchesAHandSolvedCase) {
  const GridInterpolant t = Table1D({0, 1, 2, 4}, {1, 0, 2, 1}, Interpolation::kSpline,
                                    Extrapolation::kClip, SplineEnds::kNatural);
  EXPECT_NEAR(At(t, 0.5), 61.0 / 368.0, 1e-15);
  EXPECT_NEAR(At(t, 3.0), 54.0 / 23.0, 1e-15);
  EXPECT_EQ(At(t, 2.0), 2.0);
  EXPECT_EQ(At(t, -3.0), 1.0);  // clip
  EXPECT_EQ(At(t, 9.0), 1.0);
  // Three points, natural: 2 (1 + 2) M1 = 6 (-1/2 - 1) on x = 0, 1, 3, y = 0, 1, 0, so
  // M1 = -3/2: S = 1.25 x - 0.25 x^3 on [0, 1], S = s - s^3 / 8 with s = 3 - x on [1, 3].
  const GridInterpolant three = Table1D({0, 1, 3}, {0, 1, 0}, Interpolation::kSpline,
                                        Extrapolation::kLinear, SplineEnds::kNatural);
  EXPECT_NEAR(At(three, 0.5), 0.59375, 1e-15);
  EXPECT_NEAR(At(three, 2.0), 0.875, 1e-15);
  EXPECT_NEAR(At(three, 2.5), 0.484375, 1e-15);
  // Linear extrapolation follows the end tangents: S'(0) = 1.25, S'(3) = -(1 - 3 s^2 / 8) = -1.
  EXPECT_NEAR(At(three, -1.0), -1.25, 1e-15);
  EXPECT_NEAR(At(three, 4.0), -1.0, 1e-15);
}

TEST(GridInterpolantTest, SplineSlopesOfALineAndAParabola) {
  // Two breakpoints: the line. Three, not-a-knot: the parabola through them.
  std::vector<double> m(3);
  const std::vector<double> y2 = {1.0, 3.0};
  SplineSlopes({0.0, 4.0}, SplineEnds::kNotAKnot).Calc(y2.data(), 1, m.data(), 1);
  EXPECT_DOUBLE_EQ(m[0], 0.5);
  EXPECT_DOUBLE_EQ(m[1], 0.5);
  const std::vector<double> x3 = {-1.0, 0.5, 2.0};
  std::vector<double> y3;
  for (double x : x3) y3.push_back(3.0 * x * x - x + 2.0);
  SplineSlopes(x3, SplineEnds::kNotAKnot).Calc(y3.data(), 1, m.data(), 1);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m[i], 6.0 * x3[i] - 1.0, 1e-13) << i;
}

TEST(GridInterpolantTest, ClipAndLinearExtrapolation) {
  const std::vector<double> x = {0.0, 1.0, 3.0};
  const std::vector<double> y = {1.0, 3.0, 2.0};
  const GridInterpolant clip = Table1D(x, y, Interpolation::kLinear, Extrapolation::kClip);
  const GridInterpolant lin = Table1D(x, y, Interpolation::kLinear, Extrapolation::kLinear);
  EXPECT_EQ(At(clip, -2.0), 1.0);
  EXPECT_EQ(At(clip, 10.0), 2.0);
  EXPECT_EQ(At(lin, -2.0), 1.0 + 2.0 * -2.0);  // slope 2 on [0, 1]
  EXPECT_EQ(At(lin, 5.0), 2.0 - 0.5 * 2.0);    // slope -1/2 on [1, 3]
  EXPECT_EQ(At(lin, 2.0), 2.5);
  EXPECT_TRUE(std::isnan(At(lin, std::numeric_limits<double>::quiet_NaN())));
  // A flat end stays flat out to an infinite input.
  const GridInterpolant flat_end =
      Table1D({0.0, 1.0}, {4.0, 4.0}, Interpolation::kLinear, Extrapolation::kLinear);
  EXPECT_EQ(At(flat_end, std::numeric_limits<double>::infinity()), 4.0);
  // Flat and nearest always clip.
  const GridInterpolant flat = Table1D(x, y, Interpolation::kFlat, Extrapolation::kLinear);
  EXPECT_EQ(At(flat, -5.0), 1.0);
  EXPECT_EQ(At(flat, 0.99), 1.0);
  EXPECT_EQ(At(flat, 1.0), 3.0);
  EXPECT_EQ(At(flat, 3.0), 2.0);
  EXPECT_EQ(At(flat, 50.0), 2.0);
  const GridInterpolant nearest = Table1D(x, y, Interpolation::kNearest, Extrapolation::kClip);
  EXPECT_EQ(At(nearest, 0.49), 1.0);
  EXPECT_EQ(At(nearest, 0.5), 3.0);  // halfway: the upper breakpoint, as Simulink
  EXPECT_EQ(At(nearest, 1.99), 3.0);
  EXPECT_EQ(At(nearest, 2.0), 2.0);
  EXPECT_EQ(At(nearest, -9.0), 1.0);
  EXPECT_EQ(nearest.Cut(0, 2), 2.0);
  EXPECT_EQ(flat.Cut(0, 2), 3.0);
}

// Bilinear: T on rows x1 = [0, 1, 3], columns x2 = [10, 20], stored column by column.
TEST(GridInterpolantTest, BilinearMatchesTheHandFormula) {
  const std::vector<double> x1 = {0.0, 1.0, 3.0}, x2 = {10.0, 20.0};
  const double T[3][2] = {{1.0, 2.0}, {4.0, -1.0}, {0.5, 3.0}};
  std::vector<double> values;
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 3; ++i) values.push_back(T[i][k]);
  }
  std::vector<Breakpoints> axes;
  axes.emplace_back(x1, "x1", "x1");
  axes.emplace_back(x2, "x2", "x2");
  const GridInterpolant t(axes, values, Interpolation::kLinear, Extrapolation::kLinear);
  auto hand = [&](double u1, double u2) {
    const int i = u1 < 1.0 ? 0 : 1;
    const double f1 = (u1 - x1[i]) / (x1[i + 1] - x1[i]);
    const double f2 = (u2 - 10.0) / 10.0;
    return (1 - f1) * (1 - f2) * T[i][0] + f1 * (1 - f2) * T[i + 1][0] + (1 - f1) * f2 * T[i][1] +
           f1 * f2 * T[i + 1][1];
  };
  for (const auto& [u1, u2] : std::vector<std::pair<double, double>>{
           {0.25, 12.0}, {2.0, 15.0}, {1.0, 10.0}, {2.9, 19.5}, {-1.0, 25.0}, {4.0, 5.0}}) {
    double u[2] = {u1, u2};
    int hints[2] = {0, 0};
    EXPECT_NEAR(t.Evaluate(u, hints), hand(u1, u2), 1e-14) << u1 << ", " << u2;
  }
}

// Trilinear on a 2 x 3 x 2 grid: the hand formula sums the 8 corners of the cell.
TEST(GridInterpolantTest, TrilinearMatchesTheHandFormula) {
  const std::vector<double> x1 = {0.0, 2.0}, x2 = {-1.0, 0.0, 4.0}, x3 = {1.0, 1.5};
  auto v = [](int i, int j, int k) { return 1.0 + i + 3.0 * j * j - 2.0 * k + i * j * k; };
  std::vector<double> values;
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 2; ++i) values.push_back(v(i, j, k));
    }
  }
  std::vector<Breakpoints> axes;
  axes.emplace_back(x1, "x1", "x1");
  axes.emplace_back(x2, "x2", "x2");
  axes.emplace_back(x3, "x3", "x3");
  const GridInterpolant t(axes, values, Interpolation::kLinear, Extrapolation::kClip);
  for (const std::vector<double>& u : std::vector<std::vector<double>>{
           {0.5, 2.0, 1.1}, {1.5, -0.5, 1.4}, {2.0, 0.0, 1.0}, {0.1, 3.9, 1.25}}) {
    const int j = u[1] < 0.0 ? 0 : 1;
    const double f1 = u[0] / 2.0, f2 = (u[1] - x2[j]) / (x2[j + 1] - x2[j]),
                 f3 = (u[2] - 1.0) / 0.5;
    double hand = 0.0;
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) {
        for (int c = 0; c < 2; ++c) {
          hand += (a ? f1 : 1 - f1) * (b ? f2 : 1 - f2) * (c ? f3 : 1 - f3) * v(a, j + b, c);
        }
      }
    }
    int hints[3] = {0, 0, 0};
    EXPECT_NEAR(t.Evaluate(u.data(), hints), hand, 1e-13);
  }
  // Clip: a point outside takes the value at the nearest face.
  double far[3] = {5.0, -9.0, 0.0};
  int hints[3] = {0, 0, 0};
  EXPECT_NEAR(t.Evaluate(far, hints), v(1, 0, 0), 1e-15);
  const int k[3] = {1, 0, 0};  // ValueAtCells/Multilinear agree at a corner
  const double f[3] = {0.0, 0.0, 0.0};
  EXPECT_EQ(t.Multilinear(k, f), v(1, 0, 0));
}

// A tensor-product spline reproduces a product of cubics (and a bicubic polynomial), as the
// 1-D spline reproduces each cubic.
TEST(GridInterpolantTest, BicubicSplineReproducesABicubicPolynomial) {
  const std::vector<double> x1 = {-1.0, -0.2, 0.4, 1.0, 2.0};
  const std::vector<double> x2 = {0.0, 0.3, 1.1, 1.5, 2.5, 3.0};
  auto q = [](double a, double b) {
    return P(a) * (b * b * b - b) + 2.0 * a * b * b - a * a * a + 0.5;
  };
  std::vector<double> values;
  for (double b : x2) {
    for (double a : x1) values.push_back(q(a, b));
  }
  std::vector<Breakpoints> axes;
  axes.emplace_back(x1, "x1", "x1");
  axes.emplace_back(x2, "x2", "x2");
  const GridInterpolant t(axes, values, Interpolation::kSpline, Extrapolation::kSpline);
  int hints[2] = {0, 0};
  for (int i = 0; i <= 20; ++i) {
    for (int k = 0; k <= 20; ++k) {
      double u[2] = {-1.2 + 3.4 * i / 20.0, -0.2 + 3.4 * k / 20.0};
      const double want = q(u[0], u[1]);
      EXPECT_NEAR(t.Evaluate(u, hints), want, 1e-11 * std::max(1.0, std::abs(want)))
          << u[0] << ", " << u[1];
    }
  }
}

TEST(GridInterpolantTest, GridSizeStopsAtTheLimit) {
  EXPECT_EQ(GridSize({3, 4, 5}, 100), 60);
  EXPECT_EQ(GridSize({3, 4, 5}, 59), -1);
  EXPECT_EQ(GridSize({1 << 20, 1 << 20, 1 << 20, 1 << 20}, 1 << 30), -1);
}

}  // namespace
}  // namespace twinblocks::blocks::lookup
