# Writes a workbook as Excel writes them, not as openpyxl does: shared
# strings (one rich), a shared formula with cached values, a date and a
# time with date styles, an empty styled cell, a merged range whose hidden
# cells hold values, defined names (one scoped to a sheet), data
# validations (a literal list, a range list, a whole-number rule), a
# calculation chain and a custom part openpyxl does not model.
# Usage: seed_workbook.py OUT.xlsx
import sys
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

parts = {
    "[Content_Types].xml": HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/>'
    '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>'
    '</Types>',
    "_rels/.rels": HEAD + f'<Relationships xmlns="{PKG}">'
    f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>'
    f'<Relationship Id="rId2" Type="{REL}/custom-properties" Target="docProps/custom.xml"/>'
    '</Relationships>',
    "docProps/custom.xml": HEAD + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property '
    'fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Owner"><vt:lpwstr>finance</vt:lpwstr></property></Properties>',
    "xl/workbook.xml": HEAD + f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><bookViews><workbookView activeTab="1"/></bookViews>'
    '<sheets><sheet name="Sales" sheetId="1" r:id="rId1"/><sheet name="Lists" sheetId="2" r:id="rId2"/></sheets>'
    '<definedNames><definedName name="Regions">Sales!$A$2:$A$4</definedName>'
    '<definedName name="Choices" localSheetId="1">Lists!$A$1</definedName></definedNames>'
    '<calcPr calcId="191029"/></workbook>',
    "xl/_rels/workbook.xml.rels": HEAD + f'<Relationships xmlns="{PKG}">'
    f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/>'
    f'<Relationship Id="rId3" Type="{REL}/styles" Target="styles.xml"/>'
    f'<Relationship Id="rId4" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
    f'<Relationship Id="rId5" Type="{REL}/calcChain" Target="calcChain.xml"/>'
    '</Relationships>',
    "xl/styles.xml": HEAD + f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="21" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
    "xl/sharedStrings.xml": HEAD + f'<sst xmlns="{MAIN}" count="7" uniqueCount="7">'
    '<si><t>Region</t></si><si><t>Units</t></si><si><t>Total</t></si><si><t>North</t></si>'
    '<si><r><rPr><b/></rPr><t>So</t></r><r><t>uth</t></r></si><si><t xml:space="preserve"> East </t></si><si><t>Day</t></si></sst>',
    "xl/calcChain.xml": HEAD + f'<calcChain xmlns="{MAIN}"><c r="C2" i="1"/><c r="C3"/><c r="C4"/></calcChain>',
    "xl/worksheets/sheet1.xml": HEAD + f'<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><dimension ref="A1:E6"/>'
    '<sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
    '<cols><col min="1" max="1" width="14" customWidth="1"/></cols><sheetData>'
    '<row r="1" spans="1:4"><c r="A1" s="2" t="s"><v>0</v></c><c r="B1" s="2" t="s"><v>1</v></c>'
    '<c r="C1" s="2" t="s"><v>2</v></c><c r="D1" s="2" t="s"><v>6</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2"><v>10</v></c><c r="C2"><f t="shared" ref="C2:C4" si="0">B2*2</f><v>20</v></c>'
    '<c r="D2" s="1"><v>45292</v></c><c r="E2" s="3"><v>0.5</v></c></row>'
    '<row r="3" ht="20" customHeight="1"><c r="A3" t="s"><v>4</v></c><c r="B3"><v>2.5</v></c><c r="C3"><f t="shared" si="0"/><v>5</v></c>'
    '<c r="D3" s="1"/></row>'
    '<row r="4"><c r="A4" t="s"><v>5</v></c><c r="B4" t="b"><v>1</v></c><c r="C4"><f t="shared" si="0"/><v>2</v></c>'
    '<c r="D4" t="str"><v>n/a</v></c><c r="E4" t="e"><v>#DIV/0!</v></c></row>'
    '<row r="6"><c r="A6" t="inlineStr"><is><t>merged</t></is></c><c r="B6"><v>99</v></c></row>'
    '</sheetData><mergeCells count="1"><mergeCell ref="A6:B6"/></mergeCells>'
    '<dataValidations count="3">'
    '<dataValidation type="list" allowBlank="1" showErrorMessage="1" errorTitle="Bad" error="Pick one" sqref="A2:A4 A10">'
    '<formula1>"North,South, East"</formula1></dataValidation>'
    '<dataValidation type="whole" operator="between" sqref="B2:B4" promptTitle="Units" prompt="1 to 100">'
    '<formula1>1</formula1><formula2>100</formula2></dataValidation>'
    '<dataValidation type="list" sqref="E2"><formula1>$A$2:$A$4</formula1></dataValidation>'
    '</dataValidations><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
    "xl/worksheets/sheet2.xml": HEAD + f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>3</v></c></row>'
    '</sheetData></worksheet>',
}

with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in parts.items():
        z.writestr(name, data)
