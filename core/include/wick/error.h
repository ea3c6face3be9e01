// core/include/wick/error.h: typed exceptions, WICK_CHECK, and the warning handler.
//
// Note [User errors and bugs]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A user error (bad shape, bad dim, wrong dtype) is reported by WICK_CHECK and
// its _INDEX/_VALUE/_TYPE variants, which throw an exception whose type the
// Python layer maps to the matching Python exception. A broken invariant of
// wick itself is WICK_INTERNAL_ASSERT, which names the file and line. Neither
// compiles away in release builds: no user input may reach undefined behaviour.
//
// Which exception: IndexError for an index or dim out of range; TypeError for
// a dtype an op does not take or two dtypes that must match; ValueError for an
// argument whose value is invalid on its own (a negative size, a zero step, a
// bad device string); NotImplementedError for what exists but not here (an op
// on a device it lacks); Error (RuntimeError) for the rest, shapes that do not
// fit together first, as PyTorch does.
//
// A message does not name the op: the Python binding adds its own name (See
// Note [Op names in messages] in python_ext/errors.cpp).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "wick/macros.h"

namespace wick {

class Error : public std::exception {
 public:
  explicit Error(std::string msg) : msg_(std::move(msg)) {}
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

// Each maps to the Python exception of the same name; Error is RuntimeError.
class IndexError : public Error { using Error::Error; };
class ValueError : public Error { using Error::Error; };
class TypeError : public Error { using Error::Error; };
class NotImplementedError : public Error { using Error::Error; };
class OutOfMemoryError : public Error { using Error::Error; };  // MemoryError

namespace detail {

template <typename... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream ss;
  (ss << ... << args);
  return ss.str();
}

template <typename E, typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(str_cat(args...));
}

[[noreturn]] void internal_assert_fail(const char* file, int line, const char* cond,
                                       const std::string& msg);

}  // namespace detail

#define WICK_CHECK_KIND(kind, cond, ...)                       \
  do {                                                         \
    if (WICK_UNLIKELY(!(cond))) ::wick::detail::fail<kind>(__VA_ARGS__); \
  } while (0)

#define WICK_CHECK(cond, ...) WICK_CHECK_KIND(::wick::Error, cond, __VA_ARGS__)
#define WICK_CHECK_INDEX(cond, ...) WICK_CHECK_KIND(::wick::IndexError, cond, __VA_ARGS__)
#define WICK_CHECK_VALUE(cond, ...) WICK_CHECK_KIND(::wick::ValueError, cond, __VA_ARGS__)
#define WICK_CHECK_TYPE(cond, ...) WICK_CHECK_KIND(::wick::TypeError, cond, __VA_ARGS__)

#define WICK_INTERNAL_ASSERT(cond, ...)                                              \
  do {                                                                               \
    if (WICK_UNLIKELY(!(cond)))                                                      \
      ::wick::detail::internal_assert_fail(__FILE__, __LINE__, #cond,                \
                                           ::wick::detail::str_cat("", ##__VA_ARGS__)); \
  } while (0)

// Warnings go to the handler installed on the current thread, else to the
// process-wide default, which prints to stderr until a binding replaces it
// (the Python layer queues them and issues Python warnings; Note [Error translation]).
enum class WarningKind { User, Deprecation };

class WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  virtual void process(WarningKind kind, const std::string& msg) = 0;
};

WarningHandler* warning_handler();
// Installs `h` for the current thread (nullptr restores the default) and returns the previous one.
WarningHandler* set_warning_handler(WarningHandler* h);
// Replaces the process-wide default handler (nullptr: print to stderr).
void set_default_warning_handler(WarningHandler* h);

template <typename... Args>
void warn(const Args&... args) {
  warning_handler()->process(WarningKind::User, detail::str_cat(args...));
}

}  // namespace wick
