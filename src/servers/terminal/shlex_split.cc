#include "servers/terminal/shlex_split.h"

namespace sbx::servers::terminal {
namespace {

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

Result<std::vector<std::string>> ShlexSplit(std::string_view line) {
  // The states of shlex.read_token with whitespace_split set and no
  // commenters or punctuation characters: between words, in a word, in a
  // quote, after a backslash. Multi-byte UTF-8 characters never contain
  // these ASCII bytes, so working on bytes gives the same words.
  enum class State { kBetween, kWord, kSingle, kDouble, kEscape };
  std::vector<std::string> words;
  std::string word;  // a word exists from its first character or quote on
  State state = State::kBetween;
  State after_escape = State::kWord;
  for (char c : line) {
    switch (state) {
      case State::kBetween:
      case State::kWord:
        if (IsWhitespace(c)) {
          if (state == State::kWord) {
            words.push_back(std::move(word));
            word.clear();
          }
          state = State::kBetween;
        } else if (c == '\'') {
          state = State::kSingle;
        } else if (c == '"') {
          state = State::kDouble;
        } else if (c == '\\') {
          after_escape = State::kWord;
          state = State::kEscape;
        } else {
          word += c;
          state = State::kWord;
        }
        break;
      case State::kSingle:
        if (c == '\'') state = State::kWord;
        else word += c;
        break;
      case State::kDouble:
        if (c == '"') {
          state = State::kWord;
        } else if (c == '\\') {
          after_escape = State::kDouble;
          state = State::kEscape;
        } else {
          word += c;
        }
        break;
      case State::kEscape:
        // Within double quotes only the quote and the backslash itself are
        // escaped; before anything else the backslash stays.
        if (after_escape == State::kDouble && c != '"' && c != '\\') word += '\\';
        word += c;
        state = after_escape;
        break;
    }
  }
  switch (state) {
    case State::kSingle:
    case State::kDouble:
      return MakeError(ErrorCode::kInvalidArgument, "No closing quotation");
    case State::kEscape:
      return MakeError(ErrorCode::kInvalidArgument, "No escaped character");
    case State::kWord:
      words.push_back(std::move(word));
      break;
    case State::kBetween:
      break;
  }
  return words;
}

}  // namespace sbx::servers::terminal
