/** OMML → LaTeX on hand-written equations (the corpus file is covered in convert-docx.test.ts). */
import { describe, expect, it } from 'vitest';
import { fillGridBefore, hasEquations, replaceEquations } from '../../../src/engine/docx/equations.js';
import { ommlToLatex } from '../../../src/engine/docx/omml.js';

const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
const r = (text: string) => `<m:r><m:t>${text}</m:t></m:r>`;
const math = (content: string) => ommlToLatex(`<m:oMath ${M}>${content}</m:oMath>`);

describe('ommlToLatex', () => {
  it('converts runs with symbols', () => {
    expect(math(r('α+β≤∞'))).toBe('\\alpha+\\beta \\leq \\infty');
    expect(math(r('a{b}_c'))).toBe('a\\{b\\}\\_c');
  });

  it('converts fractions, scripts and radicals', () => {
    expect(math(`<m:f><m:num>${r('1')}</m:num><m:den>${r('x+1')}</m:den></m:f>`)).toBe('\\frac{1}{x+1}');
    expect(math(`<m:f><m:fPr><m:type m:val="lin"/></m:fPr><m:num>${r('a')}</m:num><m:den>${r('b')}</m:den></m:f>`)).toBe('a/b');
    expect(math(`<m:sSup><m:e>${r('x')}</m:e><m:sup>${r('2')}</m:sup></m:sSup>`)).toBe('x^{2}');
    expect(math(`<m:sSubSup><m:e>${r('x')}</m:e><m:sub>${r('i')}</m:sub><m:sup>${r('2')}</m:sup></m:sSubSup>`)).toBe('x_{i}^{2}');
    expect(math(`<m:sSup><m:e>${r('(a+b)')}</m:e><m:sup>${r('n')}</m:sup></m:sSup>`)).toBe('{(a+b)}^{n}');
    expect(math(`<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${r('x')}</m:e></m:rad>`)).toBe('\\sqrt{x}');
    expect(math(`<m:rad><m:deg>${r('3')}</m:deg><m:e>${r('x')}</m:e></m:rad>`)).toBe('\\sqrt[3]{x}');
  });

  it('converts n-ary operators, delimiters, functions and limits', () => {
    expect(math(`<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('i=1')}</m:sub><m:sup>${r('n')}</m:sup><m:e>${r('i')}</m:e></m:nary>`)).toBe(
      '\\sum_{i=1}^{n}i',
    );
    expect(math(`<m:nary><m:sub/><m:sup/><m:e>${r('f')}</m:e></m:nary>`)).toBe('\\int_{}^{}f');
    expect(math(`<m:d><m:e>${r('x')}</m:e></m:d>`)).toBe('\\left(x\\right)');
    expect(math(`<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e>${r('a')}</m:e><m:e>${r('b')}</m:e></m:d>`)).toBe(
      '\\left[a \\mid b\\right]',
    );
    expect(math(`<m:func><m:fName>${r('sin')}</m:fName><m:e>${r('x')}</m:e></m:func>`)).toBe('\\sin{x}');
    expect(math(`<m:func><m:fName><m:limLow><m:e>${r('lim')}</m:e><m:lim>${r('n→∞')}</m:lim></m:limLow></m:fName><m:e>${r('a')}</m:e></m:func>`)).toBe(
      '\\lim_{n\\rightarrow \\infty}{a}',
    );
  });

  it('converts accents, bars, group characters, arrays and matrices', () => {
    expect(math(`<m:acc><m:accPr><m:chr m:val="⃗"/></m:accPr><m:e>${r('v')}</m:e></m:acc>`)).toBe('\\vec{v}');
    expect(math(`<m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e>${r('z')}</m:e></m:bar>`)).toBe('\\overline{z}');
    expect(math(`<m:groupChr><m:e>${r('abc')}</m:e></m:groupChr>`)).toBe('\\underbrace{abc}');
    expect(math(`<m:m><m:mr><m:e>${r('1')}</m:e><m:e>${r('0')}</m:e></m:mr><m:mr><m:e>${r('0')}</m:e><m:e>${r('1')}</m:e></m:mr></m:m>`)).toBe(
      '\\begin{matrix}1 & 0 \\\\ 0 & 1\\end{matrix}',
    );
    expect(math(`<m:eqArr><m:e>${r('a=1')}</m:e><m:e>${r('b=2')}</m:e></m:eqArr>`)).toBe('\\begin{array}{l}a=1 \\\\ b=2\\end{array}');
  });

  it('returns an empty string for unreadable XML', () => {
    expect(ommlToLatex('<m:oMath><unclosed')).toBe('');
  });
});

describe('document XML preparation', () => {
  const document = (body: string) =>
    `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ${M}><w:body>${body}</w:body></w:document>`;

  it('replaces display and inline equations by styled runs holding LaTeX', () => {
    const xml = document(`<w:p><m:oMathPara><m:oMath>${r('x')}</m:oMath></m:oMathPara></w:p><w:p><w:r><w:t>so </w:t></w:r><m:oMath>${r('y&lt;1')}</m:oMath></w:p>`);
    expect(hasEquations(xml)).toBe(true);
    const { xml: replaced, count } = replaceEquations(xml);
    expect(count).toBe(2);
    expect(replaced).toContain('<w:rStyle w:val="DocmillMathDisplay"/></w:rPr><w:t xml:space="preserve">x</w:t>');
    expect(replaced).toContain('<w:rStyle w:val="DocmillMathInline"/></w:rPr><w:t xml:space="preserve">y&lt;1</w:t>');
    expect(replaced).not.toContain('oMath');
  });

  it('fills rows that start late with empty cells', () => {
    const xml = document('<w:tbl><w:tr><w:trPr><w:gridBefore w:val="2"/></w:trPr><w:tc><w:p/></w:tc></w:tr></w:tbl>');
    const { xml: filled, count } = fillGridBefore(xml);
    expect(count).toBe(1);
    expect(filled.match(/<w:tc>/g)).toHaveLength(3);
  });
});
