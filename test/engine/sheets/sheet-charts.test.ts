/** Charts on a sheet: their title, kind and series, after the sheet's tables. */
import * as XLSX from '@e965/xlsx';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertSpreadsheet } from '../../../src/engine/sheets/convert-sheet.js';
import { convertInput, tablesOnPage } from './helpers.js';

const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

function points(values: string[]): string {
  return `<c:ptCount val="${values.length}"/>${values.map((value, index) => `<c:pt idx="${index}"><c:v>${value}</c:v></c:pt>`).join('')}`;
}

function series(name: string, categories: string[], values: string[]): string {
  return (
    `<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Data!$B$1</c:f><c:strCache>${points([name])}</c:strCache></c:strRef></c:tx>` +
    `<c:cat><c:strRef><c:f>Data!$A$2:$A$3</c:f><c:strCache>${points(categories)}</c:strCache></c:strRef></c:cat>` +
    `<c:val><c:numRef><c:f>Data!$B$2:$B$3</c:f><c:numCache><c:formatCode>General</c:formatCode>${points(values)}</c:numCache></c:numRef></c:val></c:ser>`
  );
}

function chartPart(title: string | null, plot: string): string {
  const titleXml =
    title === null ? '<c:autoTitleDeleted val="1"/>' : `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title>`;
  return `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${R}"><c:chart>${titleXml}<c:plotArea>${plot}</c:plotArea></c:chart></c:chartSpace>`;
}

function anchor(row: number, column: number, id: string): string {
  return (
    `<xdr:twoCellAnchor><xdr:from><xdr:col>${column}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
    `<xdr:to><xdr:col>${column + 5}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row + 10}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>` +
    `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    `<a:graphic><a:graphicData uri="${C}"><c:chart xmlns:c="${C}" r:id="${id}"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`
  );
}

/** A workbook whose first sheet carries two charts: the lower one first in the drawing part. */
function workbookWithCharts(): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['region', 'sales', 'costs'], ['North', 10, 4], ['South', 7, 5]]), 'Data');
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['no charts here']]), 'Other');
  const files = unzipSync(new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
  files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}"><Relationship Id="rIdD" Type="${R}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
  );
  files['xl/drawings/drawing1.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
      `xmlns:a="${A}" xmlns:r="${R}">${anchor(20, 0, 'rId2')}${anchor(5, 4, 'rId1')}</xdr:wsDr>`,
  );
  files['xl/drawings/_rels/drawing1.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}">` +
      `<Relationship Id="rId1" Type="${R}/chart" Target="../charts/chart1.xml"/>` +
      `<Relationship Id="rId2" Type="${R}/chart" Target="../charts/chart2.xml"/></Relationships>`,
  );
  files['xl/charts/chart1.xml'] = strToU8(
    chartPart(
      'Sales &amp; costs by region',
      `<c:barChart><c:barDir val="col"/>${series('sales', ['North', 'South'], ['10', '7'])}${series('costs', ['North', 'South'], ['4', '5'])}</c:barChart>`,
    ),
  );
  files['xl/charts/chart2.xml'] = strToU8(chartPart(null, `<c:pieChart>${series('sales', ['North', 'South'], ['10', '7'])}</c:pieChart>`));
  return zipSync(files);
}

describe('charts', () => {
  it('follow the tables of their sheet in the order they sit on it: caption with kind and title, then the series', async () => {
    const model = await convertSpreadsheet(convertInput(workbookWithCharts(), 'charts.xlsx'));
    const page = model.pages[0];
    expect(page?.blocks.map((block) => block.type)).toEqual(['section_header', 'table', 'caption', 'table', 'caption', 'table']);
    expect(page?.blocks[2]).toMatchObject({ markdown: 'Column chart: Sales & costs by region', label: 'chart' });
    expect(page?.blocks[4]).toMatchObject({ markdown: 'Pie chart', label: 'chart' });
    const [, column, pie] = tablesOnPage(model, 1);
    expect(column).toEqual([['', 'sales', 'costs'], ['North', '10', '4'], ['South', '7', '5']]);
    expect(pie).toEqual([['', 'sales'], ['North', '10'], ['South', '7']]);
    // The other sheet has no drawing.
    expect(model.pages[1]?.blocks.map((block) => block.type)).toEqual(['section_header', 'text']);
  });

  it('a chart sheet shows its chart instead of "(chart sheet)"', async () => {
    const files = unzipSync(workbookWithCharts());
    const text = (name: string) => new TextDecoder().decode(files[name]);
    files['xl/workbook.xml'] = strToU8(
      text('xl/workbook.xml').replace('</sheets>', '<sheet name="Trend" sheetId="9" r:id="rIdChartSheet"/></sheets>'),
    );
    files['xl/_rels/workbook.xml.rels'] = strToU8(
      text('xl/_rels/workbook.xml.rels').replace(
        '</Relationships>',
        `<Relationship Id="rIdChartSheet" Type="${R}/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>`,
      ),
    );
    files['[Content_Types].xml'] = strToU8(
      text('[Content_Types].xml').replace(
        '</Types>',
        '<Override PartName="/xl/chartsheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml"/></Types>',
      ),
    );
    files['xl/chartsheets/sheet1.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${R}"><drawing r:id="rId1"/></chartsheet>`,
    );
    files['xl/chartsheets/_rels/sheet1.xml.rels'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${R}/drawing" Target="../drawings/drawing2.xml"/></Relationships>`,
    );
    files['xl/drawings/drawing2.xml'] = strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
        `xmlns:a="${A}" xmlns:r="${R}">${anchor(0, 0, 'rId1')}</xdr:wsDr>`,
    );
    files['xl/drawings/_rels/drawing2.xml.rels'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${R}/chart" Target="../charts/chart3.xml"/></Relationships>`,
    );
    files['xl/charts/chart3.xml'] = strToU8(
      chartPart('Trend', `<c:lineChart>${series('sales', ['North', 'South'], ['10', '7'])}</c:lineChart>`),
    );
    const model = await convertSpreadsheet(convertInput(zipSync(files), 'chartsheet.xlsx'));
    expect(model.metadata.sheetNames).toEqual(['Data', 'Other', 'Trend']);
    expect(model.pages[2]?.blocks.map((block) => [block.type, block.markdown])).toEqual([
      ['section_header', '## Trend'],
      ['caption', 'Line chart: Trend'],
      ['table', '|  | sales |\n| --- | --- |\n| North | 10 |\n| South | 7 |'],
    ]);
  });

  it('a chart part that holds no chart is skipped; the cells still convert', async () => {
    const files = unzipSync(workbookWithCharts());
    files['xl/charts/chart1.xml'] = strToU8('<c:other xmlns:c="urn:x"><c:chart/></c:other>');
    const model = await convertSpreadsheet(convertInput(zipSync(files), 'broken-chart.xlsx'));
    expect(tablesOnPage(model, 1)[0]?.[0]).toEqual(['region', 'sales', 'costs']);
    expect(model.pages[0]?.blocks.filter((block) => block.type === 'caption').map((block) => block.markdown)).toEqual(['Pie chart']);
  });

  it('a chart part that is not well-formed XML is CORRUPT_DOCUMENT naming the part and the line', async () => {
    const files = unzipSync(workbookWithCharts());
    files['xl/charts/chart1.xml'] = strToU8('<c:chartSpace><c:chart><c:title');
    await expect(convertSpreadsheet(convertInput(zipSync(files), 'broken-chart.xlsx'))).rejects.toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged: it is an Excel workbook (.xlsx) whose part xl/charts/chart1.xml is not well-formed XML (line 1)',
    });
  });
});
