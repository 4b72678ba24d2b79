#include "archive/signed_url.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <string>

#include "core/crypto.h"

namespace sbx::archive {
namespace {

constexpr char kSecret[] = "0123456789abcdef0123456789abcdef-test-secret";
constexpr char kSandbox[] = "c0a830f9-d92c-4051-ba31-27782f3e9334";
constexpr char kObject[] = "9bc2a172-cde4-4e0e-b748-ade7bdacad38";
constexpr std::int64_t kExpires = 1'771'274'725;

class SignedUrlTest : public ::testing::Test {
 protected:
  UrlSigner signer_{kSecret};
  std::string sig_ = signer_.Sign("PUT", kSandbox, kObject, kExpires);

  Status VerifyWith(std::string_view method, std::string_view sandbox, std::string_view object,
                    std::string_view expires, std::string_view sig, std::int64_t now) {
    return signer_.Verify(method, sandbox, object, expires, sig, now);
  }
};

void ExpectForbidden(const Status& s, const std::string& message) {
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kForbidden);
  EXPECT_EQ(s.error().message, message);
}

const std::string kInvalid = "Signed URL signature is invalid";
const std::string kExpired = "Signed URL has expired";

TEST_F(SignedUrlTest, SignatureIsHexHmacOfTheDocumentedMessage) {
  std::string message = std::string("v1\nPUT\n") + kSandbox + "\n" + kObject + "\n1771274725";
  EXPECT_EQ(sig_, crypto::Hex(crypto::HmacSha256(kSecret, message)));
  EXPECT_EQ(sig_.size(), 64u);
}

TEST_F(SignedUrlTest, ValidSignatureVerifies) {
  EXPECT_TRUE(VerifyWith("PUT", kSandbox, kObject, "1771274725", sig_, kExpires - 1).ok());
  EXPECT_TRUE(VerifyWith("PUT", kSandbox, kObject, "1771274725", sig_, 0).ok());
}

TEST_F(SignedUrlTest, UpperCaseHexIsAccepted) {
  std::string upper = sig_;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(VerifyWith("PUT", kSandbox, kObject, "1771274725", upper, kExpires - 1).ok());
}

TEST_F(SignedUrlTest, EachTamperedFieldIsRejected) {
  const std::int64_t now = kExpires - 100;
  ExpectForbidden(VerifyWith("GET", kSandbox, kObject, "1771274725", sig_, now), kInvalid);
  ExpectForbidden(VerifyWith("put", kSandbox, kObject, "1771274725", sig_, now), kInvalid);
  ExpectForbidden(
      VerifyWith("PUT", "c0a830f9-d92c-4051-ba31-27782f3e9335", kObject, "1771274725", sig_, now),
      kInvalid);
  ExpectForbidden(
      VerifyWith("PUT", kSandbox, "9bc2a172-cde4-4e0e-b748-ade7bdacad39", "1771274725", sig_, now),
      kInvalid);
  // A later expiry with the old signature must not verify (no extension by editing).
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274726", sig_, now), kInvalid);
  // One flipped hex digit, first and last.
  std::string first = sig_;
  first[0] = first[0] == '0' ? '1' : '0';
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", first, now), kInvalid);
  std::string last = sig_;
  last.back() = last.back() == '0' ? '1' : '0';
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", last, now), kInvalid);
  // Field boundaries are part of the message: moving a character between
  // sandbox and object changes the signature.
  std::string sandbox_plus = std::string(kSandbox) + "9";
  std::string object_minus = std::string(kObject).substr(1);
  EXPECT_NE(signer_.Sign("PUT", sandbox_plus, object_minus, kExpires), sig_);
}

TEST_F(SignedUrlTest, OtherSecretIsRejected) {
  UrlSigner other("another-secret-another-secret-another-secret");
  ExpectForbidden(other.Verify("PUT", kSandbox, kObject, "1771274725", sig_, kExpires - 1),
                  kInvalid);
}

TEST_F(SignedUrlTest, ExpiresExactlyAtTheBoundary) {
  EXPECT_TRUE(VerifyWith("PUT", kSandbox, kObject, "1771274725", sig_, kExpires - 1).ok());
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", sig_, kExpires), kExpired);
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", sig_, kExpires + 1), kExpired);
}

TEST_F(SignedUrlTest, ExpiredForgeryReportsInvalidNotExpired) {
  std::string forged(64, 'a');
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", forged, kExpires + 10),
                  kInvalid);
}

TEST_F(SignedUrlTest, MalformedExpiresIsRejected) {
  const std::string malformed =
      "Signed URL parameters are malformed: expires must be a Unix time in seconds; request a "
      "new URL";
  for (std::string bad :
       {"", "-1", "+1771274725", " 1771274725", "1771274725 ", "17712747a5", "1.5", "0x10",
        "01771274725", "9223372036854775808", "99999999999999999999", "1771274725\n"}) {
    SCOPED_TRACE("expires=" + bad);
    ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, bad, sig_, 0), malformed);
  }
  // The largest int64 parses (and is then checked against the signature).
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "9223372036854775807", sig_, 0), kInvalid);
  std::string sig_max = signer_.Sign("PUT", kSandbox, kObject, INT64_MAX);
  EXPECT_TRUE(VerifyWith("PUT", kSandbox, kObject, "9223372036854775807", sig_max, kExpires).ok());
  std::string sig_zero = signer_.Sign("PUT", kSandbox, kObject, 0);
  ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "0", sig_zero, 0), kExpired);
}

TEST_F(SignedUrlTest, MalformedSignatureIsRejected) {
  const std::string malformed =
      "Signed URL parameters are malformed: signature must be 64 hex digits; request a new URL";
  std::string non_hex = sig_;
  non_hex[10] = 'g';
  std::string with_nul = sig_;
  with_nul[5] = '\0';
  for (const std::string& bad : {std::string(), sig_.substr(0, 63), sig_ + "0", non_hex, with_nul,
                                 std::string(64, ' '), sig_.substr(0, 62) + "%2"}) {
    SCOPED_TRACE("signature=" + bad);
    ExpectForbidden(VerifyWith("PUT", kSandbox, kObject, "1771274725", bad, 0), malformed);
  }
}

TEST_F(SignedUrlTest, MakeUrlHasTheDocumentedShape) {
  std::string expected = std::string("https://sbx.example/objects/") + kSandbox + "/" + kObject +
                         "?expires=1771274725&signature=" + sig_;
  EXPECT_EQ(signer_.MakeUrl("https://sbx.example", "PUT", kSandbox, kObject, kExpires), expected);
  EXPECT_EQ(signer_.MakeUrl("https://sbx.example/", "PUT", kSandbox, kObject, kExpires), expected);
  // Only one trailing slash is dropped.
  EXPECT_EQ(signer_.MakeUrl("https://sbx.example//", "PUT", kSandbox, kObject, kExpires),
            std::string("https://sbx.example//objects/") + kSandbox + "/" + kObject +
                "?expires=1771274725&signature=" + sig_);
  // The signature in the URL is for the method it was made for.
  std::string get_url = signer_.MakeUrl("http://h:8080/base", "GET", kSandbox, kObject, kExpires);
  EXPECT_EQ(get_url, std::string("http://h:8080/base/objects/") + kSandbox + "/" + kObject +
                         "?expires=1771274725&signature=" +
                         signer_.Sign("GET", kSandbox, kObject, kExpires));
}

}  // namespace
}  // namespace sbx::archive
