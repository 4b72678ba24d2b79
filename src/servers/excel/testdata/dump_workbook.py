# What a grader sees of a workbook through Debian's openpyxl (and pandas):
# per sheet its bounds, merged ranges, tables, charts, conditional formats,
# data validations and every cell openpyxl holds with its value, type and
# the style attributes the excel tools set. One line per fact, so two
# workbooks compare with a plain diff.
import sys
import warnings

warnings.simplefilter("ignore")
import openpyxl

wb = openpyxl.load_workbook(sys.argv[1])
out = ["sheets " + repr(wb.sheetnames)]
for dn in wb.defined_names.definedName:
    out.append(f"name {dn.name} scope={dn.localSheetId} {dn.attr_text}")
for ws in wb.worksheets:
    out.append(f"sheet {ws.title!r} max_row={ws.max_row} max_column={ws.max_column} "
               f"min_row={ws.min_row} min_column={ws.min_column}")
    out.append("  merged " + repr(sorted(str(r) for r in ws.merged_cells.ranges)))
    for table in sorted(ws.tables.values(), key=lambda t: t.displayName):
        name = table.displayName
        # random names (Table_xxxxxxxx) are shown by their prefix only
        shown = name if "_" not in name else name.split("_")[0] + "_*"
        cols = [c.name for c in table.tableColumns]
        style = table.tableStyleInfo
        out.append(f"  table {shown} ref={table.ref} columns={cols} style={style.name} "
                   f"rows={style.showRowStripes} cols={style.showColumnStripes}")
    for chart in ws._charts:
        series = [(s.tx.strRef.f if s.tx and s.tx.strRef else None,
                   (s.cat.numRef or s.cat.strRef).f if s.cat else (s.xVal.numRef.f if s.xVal and s.xVal.numRef else None),
                   s.val.numRef.f if s.val else (s.yVal.numRef.f if s.yVal else None)) for s in chart.series]
        out.append(f"  chart {chart.tagname} series={series}")
    for cf in ws.conditional_formatting:
        for rule in cf.rules:
            fill = rule.dxf.fill.fgColor.rgb if rule.dxf and rule.dxf.fill else None
            out.append(f"  cf {cf.sqref} type={rule.type} op={rule.operator} formula={rule.formula} fill={fill}")
    for dv in ws.data_validations.dataValidation:
        out.append(f"  dv {dv.sqref} type={dv.type} f1={dv.formula1}")
    for (r, c), cell in sorted(ws._cells.items()):
        line = f"  {cell.coordinate} {cell.value!r} {cell.data_type}"
        if cell.has_style:
            f = cell.font
            line += (f" font=({f.name},{f.b},{f.i},{f.u},{f.sz},{f.color.rgb if f.color else None})"
                     f" fill=({cell.fill.fill_type},{cell.fill.fgColor.rgb})"
                     f" border={cell.border.left.style} numfmt={cell.number_format!r}"
                     f" align=({cell.alignment.horizontal},{cell.alignment.vertical},{cell.alignment.wrap_text})")
        out.append(line)
print("\n".join(out))

import pandas

for name, frame in pandas.read_excel(sys.argv[1], sheet_name=None).items():
    print(f"pandas {name!r} shape={frame.shape} columns={list(frame.columns)}")
    print(f"  {frame.to_dict(orient='split')['data']!r}")
