// What clatter may write over (io/output_target.hpp, io/atomic_file.hpp): a missing path or a
// regular file; never a link, a FIFO, a directory, nor a file in a folder that is not one. Found
// by [issue 27]'s fuzzer: a run as root replaced a character device by a regular file.

#include "clatter/io/output_target.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"

namespace fs = std::filesystem;
using clatter::InvalidArgument;
using clatter::io::require_output_folder;
using clatter::io::require_replaceable_file;
using clatter::io::write_file_atomic;

namespace {

class OutputTarget : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("clatter_output_target_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // the message of the InvalidArgument `f` throws, naming `field`
  template <class F>
  static std::string refusal(F&& f, const std::string& field) {
    try {
      f();
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.field(), field);
      return e.what();
    }
    ADD_FAILURE() << "nothing was refused";
    return {};
  }

  fs::path dir_;
};

TEST_F(OutputTarget, MissingPathsAndRegularFilesPass) {
  EXPECT_NO_THROW(require_replaceable_file(dir_ / "new.csv", "--out"));
  std::ofstream(dir_ / "old.csv") << "x\n";
  EXPECT_NO_THROW(require_replaceable_file(dir_ / "old.csv", "--out"));
  EXPECT_NO_THROW(require_output_folder(dir_ / "not_yet", "--out"));
  EXPECT_NO_THROW(require_output_folder(dir_, "--out"));
}

TEST_F(OutputTarget, LinksFifosAndDirectoriesAreRefusedNamingTheField) {
  fs::create_symlink(dir_ / "elsewhere", dir_ / "link");
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0644), 0);
  fs::create_directory(dir_ / "sub");
  EXPECT_NE(refusal([&] { require_replaceable_file(dir_ / "link", "--out"); }, "--out")
                .find("a symbolic link"),
            std::string::npos);
  EXPECT_NE(refusal([&] { require_replaceable_file(dir_ / "fifo", "--history"); }, "--history")
                .find("a FIFO"),
            std::string::npos);
  EXPECT_NE(refusal([&] { require_replaceable_file(dir_ / "sub", "--out"); }, "--out")
                .find("a directory"),
            std::string::npos);
}

TEST_F(OutputTarget, AFileAsTheFolderAndOverlongNamesAreRefused) {
  std::ofstream(dir_ / "afile") << "x\n";
  EXPECT_NE(refusal([&] { require_replaceable_file(dir_ / "afile" / "x.csv", "--out"); }, "--out")
                .find("not a directory"),
            std::string::npos);
  refusal([&] { require_replaceable_file(dir_ / std::string(300, 'n'), "--out"); }, "--out");
  refusal([&] { require_output_folder(dir_ / std::string(300, 'n'), "--out"); }, "--out");
}

TEST_F(OutputTarget, AtomicWritesNeverReplaceALinkNorFollowIt) {
  fs::create_symlink(dir_ / "elsewhere", dir_ / "link");
  refusal([&] { write_file_atomic(dir_ / "link", "data", "--out"); }, "--out");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
  // a regular file is replaced whole, and no temporary stays
  write_file_atomic(dir_ / "f.json", "one", "--out");
  write_file_atomic(dir_ / "f.json", "two", "--out");
  std::ifstream in(dir_ / "f.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);
}

}  // namespace
