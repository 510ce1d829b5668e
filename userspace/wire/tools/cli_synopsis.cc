// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_synopsis.h"

#include <memory>
#include <utility>

namespace rue::cli11 {

SynopsisFormatter::SynopsisFormatter(std::string synopsis)
    : synopsis_(std::move(synopsis)) {}

std::string SynopsisFormatter::make_usage(const CLI::App* /*app*/,
                                          std::string /*name*/) const {
  return get_label("Usage") + ": " + synopsis_ + "\n";
}

void SetSynopsis(CLI::App* app, std::string synopsis) {
  app->formatter(std::make_shared<SynopsisFormatter>(std::move(synopsis)));
}

void LikeGetopt(CLI::App* app) {
  app->option_defaults()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
      ->disable_flag_override();
  app->allow_extras();
}

}  // namespace rue::cli11
