# Writes seed packages for fuzz_ooxml_package into the folder given: small
# workbooks, stored (so the fuzzer sees the XML bytes) and deflated. Run by
# scripts/fuzz.sh; nothing binary is kept in the repository.
import os
import sys
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
PARTS = {
    "[Content_Types].xml":
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '</Types>',
    "_rels/.rels":
        f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml":
        f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
        f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>',
    "xl/worksheets/sheet1.xml":
        f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45000</v></c></row></sheetData></worksheet>',
    "xl/sharedStrings.xml":
        f'<sst xmlns="{MAIN}" count="1" uniqueCount="2"><si><t xml:space="preserve"> a </t></si><si><r><t>b</t></r><rPh><t>c</t></rPh></si></sst>',
    "xl/styles.xml":
        f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
        '<fonts count="1"><font><b/><sz val="11"/></font></fonts><fills count="1"><fill><patternFill/></fill></fills>'
        '<borders count="1"><border/></borders><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0"><alignment wrapText="1"/></xf></cellXfs><dxfs count="0"/></styleSheet>',
}

DRAWN = dict(PARTS)
DRAWN["xl/worksheets/sheet1.xml"] = (
    f'<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><sheetData/><drawing r:id="rId1"/></worksheet>')
DRAWN["xl/worksheets/_rels/sheet1.xml.rels"] = (
    f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/drawing" Target="../drawings/drawing1.xml"/></Relationships>')
DRAWN["xl/drawings/drawing1.xml"] = (
    '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing">'
    '<xdr:oneCellAnchor><xdr:from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>'
    '<xdr:ext cx="1" cy="1"/><xdr:graphicFrame><xdr:nvGraphicFramePr><xdr:cNvPr id="3" name="Chart 1"/></xdr:nvGraphicFramePr>'
    '</xdr:graphicFrame><xdr:clientData/></xdr:oneCellAnchor></xdr:wsDr>')

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, method in (("stored.xlsx", zipfile.ZIP_STORED), ("deflated.xlsx", zipfile.ZIP_DEFLATED)):
    with zipfile.ZipFile(os.path.join(out, name), "w", method) as z:
        for part, text in PARTS.items():
            z.writestr(zipfile.ZipInfo(part, (1980, 1, 1, 0, 0, 0)), text, compress_type=method)
with zipfile.ZipFile(os.path.join(out, "drawn.xlsx"), "w", zipfile.ZIP_STORED) as z:
    for part, text in DRAWN.items():
        z.writestr(zipfile.ZipInfo(part, (1980, 1, 1, 0, 0, 0)), text)
with zipfile.ZipFile(os.path.join(out, "minimal.zip"), "w", zipfile.ZIP_STORED) as z:
    z.writestr(zipfile.ZipInfo("[Content_Types].xml", (1980, 1, 1, 0, 0, 0)), PARTS["[Content_Types].xml"])
