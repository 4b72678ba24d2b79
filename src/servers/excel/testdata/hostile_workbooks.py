# Writes the hostile workbooks the excel tests open, into the folder
# argv[1]: not a zip, a truncated zip, a zip bomb (one entry inflating to
# argv[2] MiB of zeros, default 300), entries named "../" and "/abs", a
# billion-laughs DOCTYPE in a worksheet, and a good workbook (good.xlsx)
# they are built from.
import io
import os
import sys
import zipfile

out = sys.argv[1]
bomb_mib = int(sys.argv[2]) if len(sys.argv) > 2 else 300
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
GOOD = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '</Types>',
    "_rels/.rels": f'<?xml version="1.0"?><Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": f'<?xml version="1.0"?><Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    "xl/worksheets/sheet1.xml": f'<?xml version="1.0"?><worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>',
}


def write(name, parts, extra=()):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in parts.items():
            z.writestr(n, data)
        for n, data in extra:
            z.writestr(n, data)
    with open(os.path.join(out, name), "wb") as f:
        f.write(buf.getvalue())
    return buf.getvalue()


good = write("good.xlsx", GOOD)
with open(os.path.join(out, "notzip.xlsx"), "wb") as f:
    f.write(b"name,qty\napple,3\n")
with open(os.path.join(out, "truncated.xlsx"), "wb") as f:
    f.write(good[: len(good) // 2])
write("bomb.xlsx", GOOD, [("xl/media/zeros.bin", b"\0" * (bomb_mib << 20))])
write("dotdot.xlsx", GOOD, [("../evil.xml", "<x/>")])
write("absolute.xlsx", GOOD, [("/etc/evil.xml", "<x/>")])
laughs = dict(GOOD)
entities = '<!ENTITY a "lol">' + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
laughs["xl/worksheets/sheet1.xml"] = (f'<?xml version="1.0"?><!DOCTYPE worksheet [{entities}]>'
                                      f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&j;</t></is></c>'
                                      '</row></sheetData></worksheet>')
write("laughs.xlsx", laughs)
