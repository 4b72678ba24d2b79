// PDFs for the pdf-tools suites, written by code: small valid documents
// (Helvetica text lines, Letter pages, an optional Info dictionary) and the
// hostile corpus (each a file a parser must refuse or bound, not crash on).
import zlib from 'node:zlib';

function escape(text) {
  return text.replace(/[()\\]/g, (c) => `\\${c}`);
}

/** Assembles numbered objects (strings or Buffers, without "n 0 obj") into a PDF with a correct xref. */
export function assemble(objects, trailerExtra = '', { header = '%PDF-1.4\n' } = {}) {
  const parts = [Buffer.from(header)];
  let size = parts[0].length;
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    size += chunk.length;
  });
  const xref = size;
  let table = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) table += `${String(o).padStart(10, '0')} 00000 n \n`;
  table += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  parts.push(Buffer.from(table));
  return Buffer.concat(parts);
}

/** One page per element of `pages` (arrays of ASCII lines); `info` becomes the Info dictionary. */
export function makePdf(pages, info = null) {
  const objects = [];
  const kids = pages.map((_, i) => `${5 + 2 * i} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  objects.push(`<< ${Object.entries(info ?? {}).map(([k, v]) => `/${k} (${escape(v)})`).join(' ')} >>`);
  pages.forEach((lines, i) => {
    let content = 'BT /F1 12 Tf 14 TL 72 720 Td\n';
    for (const line of lines) content += `(${escape(line)}) Tj T*\n`;
    content += 'ET\n';
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> ` +
      `/Contents ${6 + 2 * i} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}endstream`);
  });
  return assemble(objects, info ? '/Info 4 0 R ' : '');
}

/** A page whose one content stream inflates to `inflated` bytes of text operators. */
function inflatingPdf(inflated) {
  const unit = Buffer.from('BT /F1 12 Tf 72 720 Td (AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA) Tj ET\n');
  const chunk = Buffer.alloc(1 << 20);
  for (let i = 0; i < chunk.length; i += unit.length) unit.copy(chunk, i);
  // deflateSync of the whole would need `inflated` bytes of memory: the raw
  // deflate of one chunk, ended with a sync flush, is repeated instead (each
  // copy decodes on its own), after a zlib header and before an empty final
  // block; no Adler-32 (readers reach their bound first).
  const parts = [];
  const body = zlib.deflateRawSync(chunk, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const copies = Math.ceil(inflated / chunk.length);
  parts.push(Buffer.from([0x78, 0xda]));
  for (let i = 0; i < copies; i++) parts.push(body);
  parts.push(Buffer.from([0x03, 0x00]));
  const stream = Buffer.concat(parts);
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream,
      Buffer.from('\nendstream')]),
  ]);
}

/** The hostile corpus: name → bytes. */
export function hostilePdfs() {
  const valid = makePdf([['Fine text'], ['More text']]);
  const depth = 200_000;
  return {
    'nested-arrays.pdf': assemble([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Junk ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
    ]),
    'nested-dicts.pdf': assemble([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [3 0 R] /Count 1 /Deep ${'<< /A '.repeat(depth / 4)}1${' >>'.repeat(depth / 4)} >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ]),
    'inflate-bomb.pdf': inflatingPdf(2 * 2 ** 30),
    'truncated.pdf': valid.subarray(0, Math.floor(valid.length / 2)),
    'truncated-stream.pdf': (() => {
      const text = valid.toString('latin1');
      const cut = text.indexOf('stream\n') + 12;
      return valid.subarray(0, cut);
    })(),
    'xref-loop.pdf': (() => {
      // The trailer's /Prev points at its own xref section.
      const pdf = makePdf([['Loop']]).toString('latin1');
      const at = pdf.lastIndexOf('startxref\n') + 10;
      const xref = parseInt(pdf.slice(at), 10);
      return Buffer.from(pdf.replace('/Root 1 0 R ', `/Root 1 0 R /Prev ${xref} `), 'latin1');
    })(),
    'page-tree-cycle.pdf': assemble([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 1000000000 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1000000000 >>',
    ]),
    'huge-page-tree.pdf': (() => {
      // 200,000 page objects under one node.
      const n = 200_000;
      const objects = ['<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids [${Array.from({ length: n }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${n} >>`];
      for (let i = 0; i < n; i++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>');
      return assemble(objects);
    })(),
    'really-a-zip.pdf': Buffer.concat([Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1'), Buffer.alloc(200, 7)]),
  };
}
