import {
  artifact,
  applyStyle,
  type PdfKitDocument,
  type PdfStruct,
  type TextStyle,
} from './tagged-pdf.ts';

export interface TableCell {
  text: string;
  /** A second, smaller line under the text (a line item's detail). */
  detail?: string;
  align: 'left' | 'right';
  width: number;
}

/** How a table looks: where it sits, its cells' padding, styles and colours. */
export interface TableLook {
  left: number;
  width: number;
  pad: number;
  head: TextStyle;
  body: TextStyle;
  detail: TextStyle;
  /** The tint behind the header row. */
  headFill: string;
  /** The rule under every row. */
  rule: string;
}

/** The height of a row: its tallest cell, padded. */
function rowHeight(doc: PdfKitDocument, cells: TableCell[], text: TextStyle, look: TableLook) {
  let height = 0;
  for (const cell of cells) {
    doc.font(text.font).fontSize(text.size);
    let h = doc.heightOfString(cell.text, { width: cell.width - 2 * look.pad });
    if (cell.detail) {
      doc.font(look.detail.font).fontSize(look.detail.size);
      h += 2 + doc.heightOfString(cell.detail, { width: cell.width - 2 * look.pad });
    }
    height = Math.max(height, h);
  }
  return height + 2 * look.pad;
}

/**
 * One row of a tagged table (`TR` of `TH` or `TD` cells, side by side from `look.left`), with
 * its tint and rule as artifacts; returns the row's bottom.
 */
export function tableRow(
  doc: PdfKitDocument,
  table: PdfStruct,
  cells: TableCell[],
  header: boolean,
  top: number,
  look: TableLook,
): number {
  const tr = doc.struct('TR');
  table.add(tr);
  const text = header ? look.head : look.body;
  // Measured first, so the tint and rule are drawn behind the text.
  const height = rowHeight(doc, cells, text, look);
  const right = look.left + look.width;
  artifact(doc, () => {
    if (header) doc.rect(look.left, top, look.width, height).fill(look.headFill);
    doc
      .moveTo(look.left, top + height)
      .lineTo(right, top + height)
      .lineWidth(0.75)
      .stroke(look.rule);
  });
  let x = look.left;
  for (const cell of cells) {
    const cellX = x;
    const options = { width: cell.width - 2 * look.pad, align: cell.align };
    tr.add(
      doc.struct(header ? 'TH' : 'TD', {}, () => {
        doc.text(cell.text, cellX + look.pad, top + look.pad, {
          ...applyStyle(doc, text),
          ...options,
        });
        if (cell.detail) {
          doc.text(cell.detail, cellX + look.pad, doc.y + 2, {
            ...applyStyle(doc, look.detail),
            ...options,
          });
        }
      }),
    );
    x += cell.width;
  }
  tr.end();
  return top + height;
}
