// libFuzzer target: MJCF import (mjcf/import.cpp), from an MJCF text to scene keys or messages. Each input is
// written to a private temporary file, because the importer reads files as a user's scene does (includes and
// assets resolve against the file's folder). libmujoco itself is not instrumented: coverage guides the fuzzer
// through our pre-checks, the supported-element check and the mapping; crashes, sanitizer reports in our
// code, hangs and exceptions escaping the importer are findings, and so is a MuJoCo error that ends the
// process (mju_error's default handler calls exit: libFuzzer reports that as a finding too).
#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mjcf/import.hpp"

namespace {

std::string scratch_file;

bool write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

void remove_scratch() {
  if (scratch_file.empty()) return;
  std::remove(scratch_file.c_str());
  const std::string folder = scratch_file.substr(0, scratch_file.rfind('/'));
  rmdir(folder.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char folder[] = "/tmp/softgrad-fuzz-mjcf.XXXXXX";
  if (!mkdtemp(folder)) __builtin_trap();
  scratch_file = std::string(folder) + "/model.xml";
  std::atexit(remove_scratch);
  sg::mjcf::register_importer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!write_file(scratch_file, data, size)) __builtin_trap();
  const sg::scene::MjcfKeys imported = sg::mjcf::import_mjcf(scratch_file);
  // Keys or messages, never both or neither; __builtin_trap makes a violation a finding.
  if (imported.keys.empty() == imported.errors.empty()) __builtin_trap();
  return 0;
}
