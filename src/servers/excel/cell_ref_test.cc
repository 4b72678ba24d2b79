// Reference parsing against upstream's cell_utils and openpyxl's utils
// (texts as openpyxl 3.1 words them).
#include "servers/excel/cell_ref.h"

#include <gtest/gtest.h>

#include "servers/excel/formula_shift.h"

namespace sbx::servers::excel {
namespace {

TEST(CellRefTest, ColumnsBothWays) {
  EXPECT_EQ(ColumnLetter(1), "A");
  EXPECT_EQ(ColumnLetter(26), "Z");
  EXPECT_EQ(ColumnLetter(27), "AA");
  EXPECT_EQ(ColumnLetter(16384), "XFD");
  EXPECT_EQ(ColumnLetter(18278), "ZZZ");
  EXPECT_EQ(ColumnLetter(18279), "");
  EXPECT_EQ(*ColumnIndex("xfd"), 16384);
  EXPECT_EQ(ColumnIndex("AAAA").error().message, "AAAA is not a valid column name");
  EXPECT_EQ(ColumnIndex("").error().message, " is not a valid column name");
}

// cell_utils.parse_cell_range: re.match at the start of the upper-cased text.
TEST(CellRefTest, ParseCellRangeAsUpstream) {
  auto r = ParseCellRange("b3junk");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->start, (CellPos{3, 2}));
  EXPECT_FALSE(r->end);
  r = ParseCellRange("A1", "c10");
  ASSERT_TRUE(r && r->end);
  EXPECT_EQ(*r->end, (CellPos{10, 3}));
  EXPECT_EQ(ParseCellRange("1A").error().message, "Invalid cell reference: 1A");
  EXPECT_EQ(ParseCellRange("A1", "$B$2").error().message, "Invalid cell reference: $B$2");
  EXPECT_EQ(ParseCellRange("ABCD1").error().message, "ABCD is not a valid column name");
  // A1:A1, as read_data_from_excel builds it, parses as A1.
  EXPECT_EQ(ParseCellPrefix("A5:A5")->row, 5);
}

TEST(CellRefTest, ValidateCellReference) {
  EXPECT_TRUE(ValidateCellReference("A1"));
  EXPECT_TRUE(ValidateCellReference("abcd12"));
  EXPECT_FALSE(ValidateCellReference(""));
  EXPECT_FALSE(ValidateCellReference("A"));
  EXPECT_FALSE(ValidateCellReference("1"));
  EXPECT_FALSE(ValidateCellReference("A1B"));
  EXPECT_FALSE(ValidateCellReference("$A$1"));
  EXPECT_FALSE(ValidateCellReference("A1:B2"));
}

TEST(CellRefTest, RangeBoundariesAndText) {
  EXPECT_EQ(*RangeBoundaries("A1:C3"), (Bounds{1, 1, 3, 3}));
  EXPECT_EQ(*RangeBoundaries("$B$2"), (Bounds{2, 2, 2, 2}));
  EXPECT_EQ(*RangeBoundaries("A:B"), (Bounds{1, 0, 2, 0}));
  EXPECT_EQ(*RangeBoundaries("2:4"), (Bounds{0, 2, 0, 4}));
  EXPECT_FALSE(RangeBoundaries("Sheet1!A1"));
  EXPECT_FALSE(RangeBoundaries("A1:B"));
  EXPECT_EQ(RangeText(Bounds{1, 1, 1, 1}), "A1");
  EXPECT_EQ(RangeText(Bounds{1, 1, 2, 5}), "A1:B5");
  EXPECT_EQ(*ParseCoordinate("$c$7"), (CellPos{7, 3}));
  EXPECT_FALSE(ParseCoordinate("AAAA1"));
}

// openpyxl's Translator on the cells of a shared formula.
TEST(CellRefTest, FormulaShift) {
  EXPECT_EQ(ShiftFormula("=A1+$B$2+C$3+$D4", 1, 1), "=B2+$B$2+D$3+$D5");
  EXPECT_EQ(ShiftFormula("=SUM(A1:A3)*LOG10(2)", 2, 0), "=SUM(A3:A5)*LOG10(2)");
  EXPECT_EQ(ShiftFormula("=\"A1\"&'My Sheet'!B2&Abc1!C3", 1, 0), "=\"A1\"&'My Sheet'!B3&Abc1!C4");
  EXPECT_EQ(ShiftFormula("=A1", -1, 0), "=#REF!");
  EXPECT_EQ(FormulaShift("=B1*2", {1, 3}).At({4, 3}), "=B4*2");
}

}  // namespace
}  // namespace sbx::servers::excel
