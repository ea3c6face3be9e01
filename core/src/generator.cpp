// core/src/generator.cpp: wick::Generator's seeding and state (Note [Generator state]), and the default generator.
#include "wick/generator.h"

#include <sstream>
#include <string>

#include "wick/error.h"

namespace wick {
namespace {

// The words that `operator<<` writes for an engine.
std::vector<uint64_t> engine_words(const std::mt19937_64& engine) {
  std::ostringstream text;
  text << engine;
  std::istringstream in(text.str());
  std::vector<uint64_t> words;
  for (uint64_t w; in >> w;) words.push_back(w);
  return words;
}

void put_word(std::vector<uint8_t>& bytes, uint64_t w) {
  for (int i = 0; i < 8; ++i) bytes.push_back(uint8_t(w >> (8 * i)));
}

uint64_t get_word(const uint8_t* p) {
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w |= uint64_t(p[i]) << (8 * i);
  return w;
}

}  // namespace

Generator::Generator(Device device) : engine_(kDefaultSeed), initial_seed_(kDefaultSeed), device_(device) {}

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  engine_.seed(seed);
  initial_seed_ = seed;
}

uint64_t Generator::seed() {
  std::random_device device;
  const uint64_t seed = uint64_t(device()) << 32 | uint64_t(device());
  manual_seed(seed);
  return seed;
}

uint64_t Generator::initial_seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return initial_seed_;
}

size_t Generator::state_size() {
  static const size_t size = 8 * (1 + engine_words(std::mt19937_64()).size());
  return size;
}

std::vector<uint8_t> Generator::get_state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<uint8_t> bytes;
  bytes.reserve(state_size());
  put_word(bytes, initial_seed_);
  for (uint64_t w : engine_words(engine_)) put_word(bytes, w);
  return bytes;
}

void Generator::set_state(ArrayRef<uint8_t> state) {
  WICK_CHECK(state.size() == state_size(), "Expected an RNG state of size ", state_size(),
             " but found the input RNG state size to be ", state.size());
  std::string text;
  for (size_t i = 8; i < state.size(); i += 8) text += std::to_string(get_word(state.data() + i)) + ' ';
  std::istringstream in(text);
  std::mt19937_64 engine;
  in >> engine;
  WICK_INTERNAL_ASSERT(!in.fail(), "an engine state of the right size did not read back");
  std::lock_guard<std::mutex> lock(mutex_);
  engine_ = engine;
  initial_seed_ = get_word(state.data());
}

Generator& default_generator() {
  static Generator g;
  return g;
}

Generator& generator_for(Generator* generator, Device device) {
  if (!generator) return default_generator();
  const Device own = generator->device();
  WICK_CHECK(own.type == device.type, "Expected a '", device.is_cuda() ? "cuda" : "cpu",
             "' device type for generator but found '", own.is_cuda() ? "cuda" : "cpu", "'");
  return *generator;
}

}  // namespace wick
