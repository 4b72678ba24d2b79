#include "core/ids.h"

#include <set>

#include <gtest/gtest.h>

namespace sbx::ids {
namespace {

TEST(Ids, UuidIsCanonicalVersion4AndUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string u = NewUuid();
    ASSERT_TRUE(IsUuid(u)) << u;
    EXPECT_EQ(u[14], '4');
    EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos) << u;
    EXPECT_TRUE(seen.insert(u).second);
  }
}

TEST(Ids, IsUuidRejectsOtherShapes) {
  EXPECT_FALSE(IsUuid(""));
  EXPECT_FALSE(IsUuid("c0a830f9-d92c-4051-ba31-27782f3e933"));     // short
  EXPECT_FALSE(IsUuid("C0A830F9-D92C-4051-BA31-27782F3E9334"));    // upper case
  EXPECT_FALSE(IsUuid("c0a830f9xd92c-4051-ba31-27782f3e9334"));    // separator
  EXPECT_FALSE(IsUuid("../../../etc/passwd-aaaaaaaaaaaaaaaaaa"));
  EXPECT_TRUE(IsUuid("c0a830f9-d92c-4051-ba31-27782f3e9334"));
}

TEST(Ids, RandomTokenLengthAndAlphabet) {
  EXPECT_EQ(RandomToken(32).size(), 43u);  // ceil(256 / 6)
  EXPECT_EQ(RandomToken(18).size(), 24u);
  std::string t = RandomToken(64);
  EXPECT_TRUE(IsTokenShaped(t));
  EXPECT_NE(RandomToken(32), RandomToken(32));
}

TEST(Ids, IsTokenShaped) {
  EXPECT_FALSE(IsTokenShaped(""));
  EXPECT_FALSE(IsTokenShaped("a/b"));
  EXPECT_FALSE(IsTokenShaped("a.b"));
  EXPECT_FALSE(IsTokenShaped(std::string(129, 'a')));
  EXPECT_TRUE(IsTokenShaped("Az09-_"));
}

}  // namespace
}  // namespace sbx::ids
