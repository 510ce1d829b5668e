// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A parameter of the rue module (/sys/module/rue/parameters), set for one
// test and put back after it.
#ifndef RUE_TESTS_MODULE_PARAM_H_
#define RUE_TESTS_MODULE_PARAM_H_

#include <fstream>
#include <string>

namespace rue::test {

class ParamOverride {
 public:
  ParamOverride(const std::string& name, const std::string& value)
      : path_("/sys/module/rue/parameters/" + name) {
    std::ifstream in(path_);
    in >> old_;
    std::ofstream(path_) << value;
  }
  ~ParamOverride() {
    if (!old_.empty()) std::ofstream(path_) << old_;
  }
  ParamOverride(const ParamOverride&) = delete;
  ParamOverride& operator=(const ParamOverride&) = delete;

  // Whether the parameter exists (the module is loaded and knows it).
  bool ok() const { return !old_.empty(); }

 private:
  std::string path_;
  std::string old_;
};

}  // namespace rue::test

#endif  // RUE_TESTS_MODULE_PARAM_H_
