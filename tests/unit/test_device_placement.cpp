// Device placement and copy insertion (src/runtime/device_placement.h), with a
// fake "which steps have a device kernel" predicate: no GPU needed.
#include <gtest/gtest.h>

#include <set>

#include "runtime/device_placement.h"

using namespace oinfer;
using namespace oinfer::runtime;

namespace {

struct Builder {
  std::vector<PlacementSlot> slots;
  std::vector<PlacementStep> steps;
  int input(DataType t = DataType::kFloat, int64_t n = 1000) { return add(PlacementSlot::kInput, t, n); }
  int constant(DataType t = DataType::kFloat, int64_t n = 1000) { return add(PlacementSlot::kConstant, t, n); }
  int add(PlacementSlot::Kind k, DataType t, int64_t n) {
    PlacementSlot s;
    s.kind = k;
    s.dtype = t;
    s.numel = n;
    slots.push_back(s);
    return static_cast<int>(slots.size() - 1);
  }
  // Adds a step and returns its (single) output slot.
  int step(const std::string& op, std::vector<int> in, DataType t = DataType::kFloat, int64_t n = 1000,
           int viewOf = -1) {
    int out = add(PlacementSlot::kValue, t, n);
    PlacementStep st;
    st.opType = op;
    st.readsShapeOnly = op == "Shape" || op == "Size";  // as their registry entries say
    st.in = std::move(in);
    st.out = {out};
    st.view = viewOf >= 0;
    st.viewOfInput = viewOf;
    if (st.view) slots[out].viewBase = st.in[viewOf];
    steps.push_back(st);
    return out;
  }
};

// Conv, Relu, Add, Gemm, Cast, Slice have device kernels; Slice reads inputs 1.. on the host,
// Conv owns its weights (inputs 1, 2).
DeviceKernelQuery fakeCuda(const Builder& b) {
  return [&b](size_t s) -> std::optional<std::vector<Place>> {
    const auto& st = b.steps[s];
    static const std::set<std::string> ops = {"Conv", "Relu", "Add", "Gemm", "Cast", "Slice"};
    if (!ops.count(st.opType)) return std::nullopt;
    std::vector<Place> p(st.in.size(), Place::kDevice);
    if (st.opType == "Conv")
      for (size_t i = 1; i < p.size(); ++i) p[i] = Place::kOwned;
    if (st.opType == "Slice")
      for (size_t i = 1; i < p.size(); ++i) p[i] = Place::kHost;
    return p;
  };
}

int countCopies(const Placement& p, Device to, bool constant) {
  int n = 0;
  for (const auto& c : p.copies) n += c.to == to && c.constant == constant;
  return n;
}

}  // namespace

TEST(DevicePlacement, UnsupportedOpInTheMiddleFallsBackWithExactlyTwoCopies) {
  Builder b;
  int x = b.input();
  int w = b.constant(), bias = b.constant(DataType::kFloat, 8);
  int c1 = b.step("Conv", {x, w, bias});
  int r1 = b.step("Relu", {c1});
  int lrn = b.step("LRN", {r1});  // no device kernel
  int c2 = b.step("Conv", {lrn, w, bias});
  int r2 = b.step("Relu", {c2});
  int a = b.step("Add", {r2, r1});  // r1 also read again on the device
  Placement p = placeDevices(b.slots, b.steps, {a}, fakeCuda(b));

  EXPECT_EQ(p.stepDevice, (std::vector<Device>{Device::kCUDA, Device::kCUDA, Device::kCPU, Device::kCUDA,
                                               Device::kCUDA, Device::kCUDA}));
  EXPECT_EQ(p.numDeviceSteps, 5u);
  // x up, r1 down (for LRN), LRN's output up, result down. Weights are owned: no copy.
  ASSERT_EQ(p.copies.size(), 4u);
  EXPECT_EQ(p.copies[0].src, x);
  EXPECT_EQ(p.copies[0].to, Device::kCUDA);
  EXPECT_EQ(p.copies[0].beforeStep, 0);
  EXPECT_EQ(p.copies[1].src, r1);
  EXPECT_EQ(p.copies[1].to, Device::kCPU);
  EXPECT_EQ(p.copies[1].beforeStep, 2);
  EXPECT_EQ(p.copies[2].src, lrn);
  EXPECT_EQ(p.copies[2].to, Device::kCUDA);
  EXPECT_EQ(p.copies[2].beforeStep, 3);
  EXPECT_EQ(p.copies[3].src, a);
  EXPECT_EQ(p.copies[3].to, Device::kCPU);
  EXPECT_EQ(p.copies[3].beforeStep, 6);
  EXPECT_EQ(p.inputCopy[0][0], 0);
  EXPECT_EQ(p.inputCopy[0][1], -1);  // owned weight
  EXPECT_EQ(p.inputCopy[2][0], 1);
  EXPECT_EQ(p.inputCopy[3][0], 2);
  EXPECT_EQ(p.inputCopy[5][1], -1);  // r1 read on the device where it lives
  EXPECT_EQ(p.resultCopy, (std::vector<int>{3}));
  EXPECT_EQ(p.slotHome[r1], Device::kCUDA);
  EXPECT_EQ(p.slotHome[lrn], Device::kCPU);
}

TEST(DevicePlacement, OneCopyPerValueAndDirectionSharedByReaders) {
  Builder b;
  int x = b.input();
  int r = b.step("Relu", {x});
  int s1 = b.step("Sin", {r});
  int s2 = b.step("Cos", {r});
  int s3 = b.step("Tan", {r});
  int a = b.step("Add", {s1, s2});
  int a2 = b.step("Add", {a, s3});
  Placement p = placeDevices(b.slots, b.steps, {a2}, fakeCuda(b));
  EXPECT_EQ(countCopies(p, Device::kCPU, false), 2);  // r once, result once
  EXPECT_EQ(countCopies(p, Device::kCUDA, false), 4);  // x, s1, s2, s3
  EXPECT_EQ(p.inputCopy[1][0], p.inputCopy[2][0]);
  EXPECT_EQ(p.inputCopy[1][0], p.inputCopy[3][0]);
  EXPECT_NE(p.inputCopy[1][0], -1);
}

TEST(DevicePlacement, DeviceConstantsAreUploadedOnceNotCopiedPerRun) {
  Builder b;
  int x = b.input();
  int k = b.constant();
  int a1 = b.step("Add", {x, k});
  int a2 = b.step("Add", {a1, k});
  Placement p = placeDevices(b.slots, b.steps, {a2}, fakeCuda(b));
  EXPECT_EQ(countCopies(p, Device::kCUDA, true), 1);
  EXPECT_EQ(p.inputCopy[0][1], p.inputCopy[1][1]);
  EXPECT_TRUE(p.copies[p.inputCopy[0][1]].constant);
}

TEST(DevicePlacement, ShapeSubgraphsStayOnTheHost) {
  Builder b;
  int x = b.input();
  int r = b.step("Relu", {x});
  int shp = b.step("Shape", {r}, DataType::kInt64, 4);
  int idx = b.constant(DataType::kInt64, 1);
  // Gather and Cast on small int64 shape values: host, even though Cast has a device kernel.
  int g = b.step("Gather", {shp, idx}, DataType::kInt64, 1);
  int c = b.step("Cast", {g}, DataType::kInt64, 1);
  int sl = b.step("Slice", {r, c, c});  // starts/ends read on the host: no copy
  Placement p = placeDevices(b.slots, b.steps, {sl}, fakeCuda(b));
  EXPECT_EQ(p.stepDevice[0], Device::kCUDA);
  EXPECT_EQ(p.stepDevice[1], Device::kCPU);
  EXPECT_EQ(p.stepDevice[2], Device::kCPU);
  EXPECT_EQ(p.stepDevice[3], Device::kCPU);
  EXPECT_EQ(p.stepDevice[4], Device::kCUDA);
  EXPECT_EQ(p.inputCopy[1][0], -1) << "Shape reads only the shape of a device tensor";
  EXPECT_EQ(p.inputCopy[4][1], -1);
  EXPECT_EQ(p.inputCopy[4][2], -1);
  // x up and the result down, nothing else.
  EXPECT_EQ(p.copies.size(), 2u);
}

TEST(DevicePlacement, ViewsFollowTheirBase) {
  Builder b;
  int x = b.input();
  int shape = b.constant(DataType::kInt64, 2);
  int vHost = b.step("Reshape", {x, shape}, DataType::kFloat, 1000, 0);  // of a host input
  int r = b.step("Relu", {vHost});
  int vDev = b.step("Reshape", {r, shape}, DataType::kFloat, 1000, 0);   // of a device value
  int n = b.step("Neg", {vDev});                                        // host op reading the view
  Placement p = placeDevices(b.slots, b.steps, {n}, fakeCuda(b));
  EXPECT_EQ(p.stepDevice[0], Device::kCPU);
  EXPECT_EQ(p.slotHome[vHost], Device::kCPU);
  EXPECT_EQ(p.stepDevice[2], Device::kCUDA);
  EXPECT_EQ(p.slotHome[vDev], Device::kCUDA);
  EXPECT_EQ(p.inputCopy[0][0], -1);
  EXPECT_EQ(p.inputCopy[2][0], -1);
  EXPECT_EQ(p.inputCopy[2][1], -1) << "a static view needs its shape input nowhere";
  ASSERT_EQ(p.copies.size(), 2u);  // the view up (for Relu), the device view down (for Neg)
  EXPECT_EQ(p.copies[0].src, vHost);
  EXPECT_EQ(p.copies[1].src, vDev);
  EXPECT_EQ(p.copies[1].to, Device::kCPU);
  EXPECT_EQ(p.resultCopy, (std::vector<int>{-1}));
}

TEST(DevicePlacement, DynamicStepsRunOnTheHostWithHostInputs) {
  Builder b;
  int x = b.input();
  int r = b.step("Relu", {x});
  b.steps.back().dynamic = false;
  int nz = b.step("NonZero", {r}, DataType::kInt64, -1);
  b.steps.back().dynamic = true;
  Placement p = placeDevices(b.slots, b.steps, {nz}, [](size_t) { return std::vector<Place>{Place::kDevice}; });
  EXPECT_EQ(p.stepDevice[1], Device::kCPU);
  EXPECT_NE(p.inputCopy[1][0], -1);
  EXPECT_EQ(p.resultCopy, (std::vector<int>{-1}));
}

TEST(DevicePlacement, CallerDeviceBuffersNeedNoBoundaryCopies) {
  Builder b;
  int x = b.input();
  int r = b.step("Relu", {x});
  Placement p = placeDevices(b.slots, b.steps, {r}, fakeCuda(b), /*inputsOnDevice=*/true, /*resultsOnDevice=*/true);
  EXPECT_TRUE(p.copies.empty());
  EXPECT_EQ(p.stepDevice[0], Device::kCUDA);
}

TEST(DevicePlacement, NoDeviceKernelsMeansNoCopies) {
  Builder b;
  int x = b.input();
  int r = b.step("Relu", {x});
  int a = b.step("Add", {r, x});
  Placement p = placeDevices(b.slots, b.steps, {a}, [](size_t) { return std::nullopt; });
  EXPECT_TRUE(p.copies.empty());
  EXPECT_EQ(p.numDeviceSteps, 0u);
}
