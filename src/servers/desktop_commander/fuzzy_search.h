// upstream's near-match search for edit_block (tools/fuzzySearch.ts and the
// diff helpers of tools/edit.ts): the text segment with the smallest
// Levenshtein distance to a query, found by halving the text and then
// trimming the segment one character at a time from each end, and the
// reports upstream prints about it. Everything counts UTF-16 code units,
// as JavaScript strings do.
//
// The distance is the bit-parallel algorithm (Myers/Hyyrö, 64 rows per
// word), O(n·⌈m/64⌉) per pair. A budget bounds the total work of one search:
// a search that would exceed it throws filesystem::FsError instead of
// running for minutes.
//
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace sbx::servers::desktop_commander {

// Levenshtein distance of two UTF-16 strings; adds the work done (text
// length × pattern words) to `work`.
std::int64_t EditDistance(std::u16string_view a, std::u16string_view b, std::uint64_t& work);

struct FuzzyMatch {
  std::int64_t start = 0, end = 0;
  std::u16string value;
  std::int64_t distance = 0;
};

// recursiveFuzzyIndexOf(text, query). Throws FsError once `work` passes
// `budget`.
FuzzyMatch FuzzyIndexOf(std::u16string_view text, std::u16string_view query, std::uint64_t budget);

// getSimilarityRatio(a, b): 1 - distance / longer length (1 for two empty).
double SimilarityRatio(std::u16string_view a, std::u16string_view b);

// highlightDifferences: "prefix{-expected part-}{+actual part+}suffix".
std::u16string HighlightDifferences(std::u16string_view expected, std::u16string_view actual);

struct CharacterCodes {
  std::string report;  // "10:2[\x0a],97:1[a]"
  std::size_t unique = 0;
  std::size_t diff_length = 0;
};
// getCharacterCodeData: the code units of the differing middle parts.
CharacterCodes CharacterCodeData(std::u16string_view expected, std::u16string_view actual);

}  // namespace sbx::servers::desktop_commander
