#include "core/crypto.h"

#include <gtest/gtest.h>

namespace sbx::crypto {
namespace {

TEST(Crypto, Sha256KnownVector) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Crypto, HmacRfc4231Case2) {
  EXPECT_EQ(Hex(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Crypto, ConstantTimeEqual) {
  EXPECT_TRUE(ConstantTimeEqual("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEqual("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEqual("abc", "abcd"));
  EXPECT_TRUE(ConstantTimeEqual("", ""));
}

TEST(Crypto, RandomBytes) {
  EXPECT_EQ(RandomBytes(0).size(), 0u);
  EXPECT_EQ(RandomBytes(32).size(), 32u);
  EXPECT_NE(RandomBytes(32), RandomBytes(32));
}

}  // namespace
}  // namespace sbx::crypto
