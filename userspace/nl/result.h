// SPDX-License-Identifier: GPL-2.0
//
// Result<T>: a value or an error ({errno, message}), the return type of
// every fallible rue::nl call.  No exceptions cross an API boundary.
#ifndef RUE_NL_RESULT_H_
#define RUE_NL_RESULT_H_

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rue::nl {

// What went wrong: a positive errno and, when there is more to say, a
// human-readable message (the kernel's extended-ack text, or which
// attribute of which message was malformed).
struct Error {
  int code = 0;
  std::string message;

  // The message, or strerror(code) when there is no message.
  std::string ToString() const;
};

// An Error whose message is "what: strerror(errno)", from the current
// errno; for failed system calls.
Error SystemError(const std::string& what);

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return std::holds_alternative<T>(state_); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

// Result<void>: success, or an error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return !error_.has_value(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

inline Status Ok() { return Status(); }

}  // namespace rue::nl

#endif  // RUE_NL_RESULT_H_
