// A small paper store for the arxiv server's end-to-end tests (layout:
// src/servers/arxiv/paper_store.h), with a PDF written by hand the same way
// the C++ unit tests write theirs (src/servers/arxiv/test_pdf.cc), so the
// markdown poppler makes of it is known exactly.

/** A PDF with one Letter page per element of `pages`; lines are {x, y (from the top), size, bold, text}. */
export function makePdf(pages) {
  const num = (v) => v.toFixed(2);
  const esc = (t) => t.replace(/[()\\]/g, (c) => `\\${c}`);
  const objects = [];
  const kids = pages.map((_, i) => `${5 + 2 * i} 0 R `).join('');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  pages.forEach((lines, i) => {
    const stream = lines
      .map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${num(l.size)} Tf ${num(l.x)} ${num(792 - l.y)} Td (${esc(l.text)}) Tj ET\n`)
      .join('');
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R ' +
      `/F2 4 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}endstream`);
  });
  let pdf = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) pdf += `${String(off).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

export const BERT_PDF = makePdf([[
  { x: 72, y: 80, size: 18, text: 'BERT: Pre-training of Deep Bidirectional Transformers' },
  { x: 72, y: 110, size: 10, text: 'Jacob Devlin, Ming-Wei Chang, Kenton Lee, Kristina Toutanova' },
  { x: 72, y: 140, size: 10, text: 'We introduce a new language representation model called BERT.' },
]]);

export const BERT_MARKDOWN =
  '# BERT: Pre-training of Deep Bidirectional Transformers\n\n' +
  'Jacob Devlin, Ming-Wei Chang, Kenton Lee, Kristina Toutanova\n\n' +
  'We introduce a new language representation model called BERT.\n\n-----\n\n';

export const ATTENTION_MARKDOWN = '# Attention Is All You Need\n\nThe Transformer.\n';

/** {relative path: content} of the store, to seed under `prefix` ("paper-store/"). */
export function storeFiles(prefix) {
  return {
    [`${prefix}1706.03762/metadata.json`]: JSON.stringify({
      id: '1706.03762v7',
      title: 'Attention Is All You Need',
      authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar'],
      summary: 'The dominant sequence transduction models are based on complex recurrent or\n' +
        'convolutional neural networks.',
      categories: ['cs.CL', 'cs.LG'],
      published: '2017-06-12T17:57:34Z',
    }),
    [`${prefix}1706.03762/paper.md`]: ATTENTION_MARKDOWN,
    [`${prefix}1810.04805/metadata.json`]: JSON.stringify({
      id: '1810.04805v2',
      title: 'BERT: Pre-training of Deep Bidirectional Transformers for Language\n  Understanding',
      authors: ['Jacob Devlin', 'Ming-Wei Chang', 'Kenton Lee', 'Kristina Toutanova'],
      summary: 'We introduce a new language representation model called BERT — deep and bidirectional.',
      categories: ['cs.CL'],
      published: '2018-10-11T00:50:01Z',
    }),
    [`${prefix}1810.04805/paper.pdf`]: BERT_PDF,
  };
}

/** search_papers' text for one paper (upstream's json.dumps(indent=2) layout). */
export const SEARCH_BERT = `{
  "total_results": 1,
  "papers": [
    {
      "id": "1810.04805v2",
      "title": "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
      "authors": [
        "Jacob Devlin",
        "Ming-Wei Chang",
        "Kenton Lee",
        "Kristina Toutanova"
      ],
      "abstract": "We introduce a new language representation model called BERT \\u2014 deep and bidirectional.",
      "categories": [
        "cs.CL"
      ],
      "published": "2018-10-11T00:50:01+00:00",
      "url": "http://arxiv.org/pdf/1810.04805v2",
      "resource_uri": "arxiv://1810.04805v2"
    }
  ]
}`;
