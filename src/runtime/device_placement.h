// Device placement: which steps of a plan run on the CUDA device, and which
// host<->device copies that needs. A pure function of the plan's steps and
// slots plus a predicate saying which steps have a device kernel (and where
// that kernel wants each input), so it is unit-tested without a GPU.
//
// Rules, in step order:
//  - a view (OpDef::viewOfInput) runs where its base value lives and stays a
//    view there;
//  - steps that read only their input's shape (OpDef::readsShapeOnly: Shape,
//    Size) run on the host and read it wherever it lives: no copy;
//  - a shape computation stays on the host: a step whose outputs are all small
//    integer tensors (<= kSmallInts elements) and whose inputs are all on the
//    host already;
//  - otherwise a step runs on the device when the predicate accepts it, else on
//    the host.
// Each input is then read where the reader wants it (a device step: per its
// InputPlace; kOwned inputs need nothing; a host step: on the host). A value
// read away from its home gets one copy per direction, made right before its
// first such reader and shared by the later ones. Constants wanted on the
// device are uploaded once (a constant copy, not a per-run one). Results are
// handed back on the host unless `resultsOnDevice`; graph inputs live on the
// host unless `inputsOnDevice`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "oinfer/session.h"

namespace oinfer::runtime {

enum class Place { kDevice, kHost, kOwned };  // mirrors cuda::InputPlace

struct PlacementSlot {
  enum Kind { kInput, kConstant, kValue } kind = kValue;
  DataType dtype = DataType::kFloat;
  int64_t numel = -1;  // -1 when unknown (dynamic)
  int viewBase = -1;   // for a view's output: the slot it views
};

struct PlacementStep {
  std::string opType;          // for the device-kernel query and messages
  bool readsShapeOnly = false;  // OpDef::readsShapeOnly
  std::vector<int> in, out;  // slot ids, -1 for absent
  bool view = false;          // output 0 views input viewOfInput
  int viewOfInput = -1;
  bool dynamic = false;       // output shapes known only at run time: host
};

// Per input of step s: where its device kernel reads it; nullopt: no device kernel.
using DeviceKernelQuery = std::function<std::optional<std::vector<Place>>(size_t step)>;

struct PlacementCopy {
  int src = -1;            // slot copied
  Device to = Device::kCUDA;
  int beforeStep = 0;      // runs right before this step (== numSteps: after the last)
  bool constant = false;   // a constant uploaded once, not copied per run
};

struct Placement {
  std::vector<Device> stepDevice;             // per step
  std::vector<Device> slotHome;               // per slot: where its buffer lives
  std::vector<PlacementCopy> copies;          // in the order they run
  std::vector<std::vector<int>> inputCopy;    // per step, per input: index into copies or -1
  std::vector<int> resultCopy;                // per result: index into copies or -1
  size_t numDeviceSteps = 0;
};

constexpr int64_t kSmallInts = 64;

Placement placeDevices(const std::vector<PlacementSlot>& slots, const std::vector<PlacementStep>& steps,
                       const std::vector<int>& results, const DeviceKernelQuery& deviceKernel,
                       bool inputsOnDevice = false, bool resultsOnDevice = false);

struct Plan;
// Places `plan`'s steps (the query is asked by step index) and rewrites the
// plan: per-run copies become steps (node == nullptr, copy == true) with their
// own arena slots ("name@cuda" / "name@host"), constants wanted on the device
// become kConstant slots on the device (uploaded once by the runtime), readers
// and results point at the copies, every slot and step gets its device. The
// arenas are planned afterwards (planArenas).
Placement placePlan(Plan& plan, const DeviceKernelQuery& deviceKernel, bool inputsOnDevice = false,
                    bool resultsOnDevice = false);

}  // namespace oinfer::runtime
