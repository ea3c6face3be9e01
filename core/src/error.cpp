// core/src/error.cpp: internal assertions and the per-thread warning handler.
#include <atomic>
#include <cstdio>

#include "wick/error.h"

namespace wick {
namespace detail {

void internal_assert_fail(const char* file, int line, const char* cond, const std::string& msg) {
  throw Error(str_cat("internal assert failed at ", file, ":", line, ": ", cond,
                      msg.empty() ? "" : ": ", msg, " (this is a bug in wick; please report it)"));
}

}  // namespace detail

namespace {

class StderrWarningHandler : public WarningHandler {
 public:
  void process(WarningKind /*kind*/, const std::string& msg) override {
    std::fprintf(stderr, "wick warning: %s\n", msg.c_str());
  }
};

StderrWarningHandler stderr_handler;
std::atomic<WarningHandler*> default_handler{&stderr_handler};
thread_local WarningHandler* current_handler = nullptr;

}  // namespace

WarningHandler* warning_handler() { return current_handler ? current_handler : default_handler.load(); }

void set_default_warning_handler(WarningHandler* h) { default_handler.store(h ? h : &stderr_handler); }

WarningHandler* set_warning_handler(WarningHandler* h) {
  WarningHandler* previous = current_handler;
  current_handler = h;
  return previous;
}

}  // namespace wick
