//===- SharedMemBankModelTest.cpp - bank model vs. H200 measurements ------===//
//
// The expected numbers are the wavefront counts measured on an H200 (sm_90)
// with ncu (research note anchors-sharedmem.md §2.2, re-measured in
// docs/validation.md), and the closed form gcd(a*s/4, 32) checked against
// the lane-by-lane count for every stride.
//
//===----------------------------------------------------------------------===//
#include "SharedMem/BankModel.h"
#include "SharedMem/SymVal.h"

#include "gtest/gtest.h"
#include <functional>
#include <numeric>

using namespace cgt::smem;

namespace {

/// Full warp, element index f(lane), element size S bytes.
LaneAddresses lanes(const std::function<int64_t(int)> &F, unsigned S,
                    unsigned Active = 32) {
  LaneAddresses A;
  for (unsigned L = 0; L < Active; ++L)
    A[L] = F(L) * static_cast<int64_t>(S);
  return A;
}

TEST(SharedMemBankModel, ClosedFormMatchesLaneCount) {
  for (unsigned S : {4u, 8u, 16u})
    for (int64_t A = -70; A <= 70; ++A) {
      if (A == 0)
        continue;
      WarpCost C = warpCost(lanes([&](int L) { return A * L + 5; }, S), S);
      EXPECT_EQ(C.Wavefronts, affineWavefronts(A, S)) << "a=" << A << " s=" << S;
      EXPECT_EQ(C.Ideal, S / 4) << "a=" << A << " s=" << S;
    }
}

struct Measured {
  const char *Name;
  std::function<int64_t(int)> Index;
  unsigned Bytes;
  unsigned Active;
  unsigned Wavefronts; // measured on the H200
  unsigned Conflicts;  // l1tex__data_bank_conflicts_..., measured
};

TEST(SharedMemBankModel, MatchesH200Measurements) {
  const Measured Cases[] = {
      {"float a=1", [](int t) { return t; }, 4, 32, 1, 0},
      {"float a=2", [](int t) { return 2 * t; }, 4, 32, 2, 1},
      {"float a=32", [](int t) { return 32 * t; }, 4, 32, 32, 31},
      {"float a=33", [](int t) { return 33 * t; }, 4, 32, 1, 0},
      {"float broadcast", [](int) { return 7; }, 4, 32, 1, 0},
      {"float t/2", [](int t) { return t / 2; }, 4, 32, 1, 0},
      {"float (t%16)*32", [](int t) { return (t % 16) * 32; }, 4, 32, 16, 15},
      {"double a=1", [](int t) { return t; }, 8, 32, 2, 0},
      {"double a=16", [](int t) { return 16 * t; }, 8, 32, 32, 30},
      {"double a=17", [](int t) { return 17 * t; }, 8, 32, 2, 0},
      {"double t%16", [](int t) { return t % 16; }, 8, 32, 2, 0},
      {"double halves even/odd",
       [](int t) { return t < 16 ? 2 * t : 2 * (t - 16) + 1; }, 8, 32, 4, 2},
      {"double broadcast", [](int) { return 3; }, 8, 32, 1, 0},
      {"float4 a=1", [](int t) { return t; }, 16, 32, 4, 0},
      {"float4 a=2", [](int t) { return 2 * t; }, 16, 32, 8, 4},
      {"float4 a=9", [](int t) { return 9 * t; }, 16, 32, 4, 0},
      {"float4 broadcast", [](int) { return 0; }, 16, 32, 2, 0},
      {"float4 (t%8)*8+t/8", [](int t) { return (t % 8) * 8 + t / 8; }, 16, 32, 32, 28},
      {"float4 t%16", [](int t) { return t % 16; }, 16, 32, 4, 0},
      {"float4 quarters even/odd",
       [](int t) { return t < 16 ? 2 * t : 2 * (t - 16) + 1; }, 16, 32, 8, 4},
      {"uchar a=1", [](int t) { return t; }, 1, 32, 1, 0},
      {"uchar a=4", [](int t) { return 4 * t; }, 1, 32, 1, 0},
      {"uchar a=128", [](int t) { return 128 * t; }, 1, 32, 32, 31},
      {"8 active lanes a=32", [](int t) { return 32 * t; }, 4, 8, 8, 7},
      {"xor swizzle column", [](int t) { return t * 32 + (5 ^ t); }, 4, 32, 1, 0},
      {"xor swizzle row", [](int t) { return 5 * 32 + (t ^ 5); }, 4, 32, 1, 0},
  };
  for (const Measured &M : Cases) {
    WarpCost C = warpCost(lanes(M.Index, M.Bytes, M.Active), M.Bytes);
    EXPECT_EQ(C.Wavefronts, M.Wavefronts) << M.Name;
    EXPECT_EQ(C.excess(), M.Conflicts) << M.Name;
  }
}

TEST(SharedMemBankModel, EmptyWarpCostsNothing) {
  LaneAddresses None;
  EXPECT_EQ(warpCost(None, 4).Wavefronts, 0u);
}

TEST(SharedMemSymVal, UniformOffsetCancelsBetweenLanes) {
  SymVal K = SymVal::symbol(42);
  SymVal Lane0 = add(SymVal::constant(0), scale(K, 32));
  SymVal Lane1 = add(SymVal::constant(1), scale(K, 32));
  EXPECT_TRUE(Lane0.sameTerms(Lane1));
  EXPECT_EQ(sub(Lane1, Lane0).asConst(), std::optional<int64_t>(1));
}

TEST(SharedMemSymVal, LaneDependentUnknownCoefficientIsNotLinear) {
  SymVal Ld = SymVal::symbol(7);
  // tid * ld for two lanes: different symbolic parts, so no bank verdict.
  SymVal A = mul(SymVal::constant(1), Ld, 99), B = mul(SymVal::constant(2), Ld, 99);
  EXPECT_FALSE(A.sameTerms(B));
  // Non-linear op on symbolic operands: same operands -> same symbol.
  SymVal X = opaque(5, Ld, SymVal::constant(3)), Y = opaque(5, Ld, SymVal::constant(3));
  SymVal Z = opaque(5, Ld, SymVal::constant(4));
  EXPECT_TRUE(X.sameTerms(Y));
  EXPECT_FALSE(X.sameTerms(Z));
  EXPECT_TRUE(add(SymVal::top(), SymVal::constant(1)).Top);
}

} // namespace

TEST(SharedMemSymVal, BlockMarkFollowsTheValueNotItsIdentity) {
  SymVal B = SymVal::symbol(11);
  B.BlockDep = true;
  SymVal N = SymVal::symbol(12);
  EXPECT_TRUE(add(B, N).BlockDep);
  EXPECT_TRUE(scale(B, 0).BlockDep);
  EXPECT_TRUE(mul(B, N, 3).BlockDep);
  EXPECT_TRUE(opaque(5, N, B).BlockDep);
  EXPECT_FALSE(add(N, SymVal::constant(2)).BlockDep);
  // The mark says where a value came from, not what it is.
  SymVal Plain = SymVal::symbol(11);
  EXPECT_EQ(Plain, B);
  EXPECT_EQ(Plain.hash(), B.hash());
}
