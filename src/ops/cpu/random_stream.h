// The random source of the random ops (RandomUniform/Normal(Like), Bernoulli,
// Multinomial) and of training-mode Dropout.
//
// Counter-based: draw i of a run is SplitMix64's finaliser applied to
// key + (counter + i + 1) * golden-gamma, i.e. exactly the SplitMix64 sequence
// started at `key`. Because each draw is a pure function of its index, a fill
// can be split across threads and still give the same values for any thread
// count, and a seeded kernel gives the same sequence on every platform (the
// standard library's distributions are implementation-defined, so they are
// not used). A kernel owns one stream; each run consumes the draws it used, so
// successive runs of one kernel instance continue the sequence.
//
// Seeding: a `seed` attribute (a float, or Dropout's int) fixes the key, so two Sessions
// built from the same model produce the same sequence. Without it the key
// comes from std::random_device mixed with a process-wide counter, so every
// kernel instance (and hence every Session) draws differently.
#pragma once

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "graph/ir.h"

namespace oinfer {

class RandomStream {
 public:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // From the node's `seed` attribute when present, else fresh entropy.
  explicit RandomStream(const Node& node) {
    if (const Attribute* a = node.attr("seed"); a && (a->type == AttrType::kFloat || a->type == AttrType::kInt)) {
      // A float for the random ops, an int for Dropout.
      const double seed = a->type == AttrType::kInt ? static_cast<double>(a->i) : static_cast<double>(a->f);
      uint64_t bits;
      std::memcpy(&bits, &seed, sizeof bits);
      key_ = mix(bits ^ 0x6a09e667f3bcc908ULL);
    } else {
      static std::atomic<uint64_t> instances{0};
      uint64_t entropy = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
      try {
        std::random_device rd;
        entropy ^= (static_cast<uint64_t>(rd()) << 32) ^ rd();
      } catch (const std::exception&) {
        // No entropy device: the clock and the instance counter still differ per kernel.
      }
      key_ = mix(entropy ^ mix(++instances));
    }
  }

  // Draw i of the current run (0 <= i < the count passed to advance()).
  uint64_t bits(uint64_t i) const { return mix(key_ + (counter_ + i + 1) * 0x9e3779b97f4a7c15ULL); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform(uint64_t i) const { return static_cast<double>(bits(i) >> 11) * 0x1.0p-53; }
  // Standard normal from draws 2i and 2i+1 (Box-Muller, one value per pair).
  double normal(uint64_t i) const {
    const double u1 = 1.0 - uniform(2 * i);  // (0, 1]: log stays finite
    const double u2 = uniform(2 * i + 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  // Marks `n` draws as used, so the next run continues the sequence.
  void advance(uint64_t n) { counter_ += n; }

 private:
  uint64_t key_ = 0;
  uint64_t counter_ = 0;
};

}  // namespace oinfer
