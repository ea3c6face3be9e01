// core/include/wick/generator.h: wick::Generator, the source of every random draw (rand, randn, randint,
// randperm and what is made of them), as PyTorch's torch.Generator; and the default one.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>
#include <vector>

#include "wick/array_ref.h"
#include "wick/device.h"

namespace wick {

// Note [Generator state]
// ~~~~~~~~~~~~~~~~~~~~~~
// get_state() gives, and set_state() takes, Wick's own format (not PyTorch's): little-endian
// 64-bit words, 8 bytes each, kStateWords of them in all:
//   word 0      the initial seed (what initial_seed() returns);
//   words 1...  the engine's state as C++'s `operator<<` writes a std::mt19937_64, one word per
//               number written: the 312 words of the Mersenne Twister and, where the standard library
//               writes it (libstdc++ does), the position of the next word.
// That is the whole state: draws keep nothing else between calls (randn's Box-Muller pairs are made
// within a call, Note [Random draws] in core/src/factory.cpp, so no normal is cached), and restoring a
// state replays the draws that followed it. set_state() checks the size only, as PyTorch does.
class Generator {
 public:
  // PyTorch's default_rng_seed_val: the seed of a new generator, and of the default one at start-up.
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  // A generator for random values of tensors on `device`, seeded with kDefaultSeed.
  explicit Generator(Device device = kCPU);
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  Device device() const { return device_; }
  void manual_seed(uint64_t seed);
  // Seeds with a new nondeterministic seed, which it returns.
  uint64_t seed();
  uint64_t initial_seed() const;
  // Note [Generator state]
  std::vector<uint8_t> get_state() const;
  void set_state(ArrayRef<uint8_t> state);
  static size_t state_size();

  // Calls draw(engine) with the engine locked: draws from one generator never interleave.
  template <typename Draw>
  decltype(auto) locked(Draw&& draw) {
    std::lock_guard<std::mutex> lock(mutex_);
    return draw(engine_);
  }

 private:
  mutable std::mutex mutex_;
  std::mt19937_64 engine_;
  uint64_t initial_seed_;
  const Device device_;
};

// The generator that draws when none is given: torch.default_generator.
Generator& default_generator();

// `generator`, or the default one where it is null; its device must be of the type of `device`, the
// device that the values drawn are for.
Generator& generator_for(Generator* generator, Device device);

}  // namespace wick
