/** Equations in MathML (EPUB 3 books, web pages) read as LaTeX instead of their tokens run together. */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body>${body}</body></html>`;
const markdownFor = (body: string) => markdownOf(htmlToModel(page(body), { onlyMainContent: false }));
const math = (inner: string, attributes = '') => `<math xmlns="http://www.w3.org/1998/Math/MathML"${attributes}>${inner}</math>`;

describe('MathML', () => {
  it('reads scripts, fractions and roots as LaTeX, inline and displayed', () => {
    const markdown = markdownFor(
      `<p>Energy is ${math('<mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>')} and the root ${math('<msqrt><mi>x</mi></msqrt><mo>+</mo><mfrac><mn>1</mn><mn>2</mn></mfrac>')}.</p>` +
        `<p>The bound:</p>${math('<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>x</mi><mi>i</mi></msub><mo>≤</mo><mi>α</mi>', ' display="block"')}`,
    );
    expect(markdown).toBe('Energy is $E=mc^{2}$ and the root $\\sqrt{x}+\\frac{1}{2}$.\n\nThe bound:\n\n$$\\sum_{i=1}^{n}x_{i}\\leq \\alpha$$');
  });

  it("uses the page's own TeX when it carries it, and reads the equation's fallback picture once", () => {
    const markdown = markdownFor(
      `<p>The formula ${math('<semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">{\\displaystyle E=mc^{2}}</annotation></semantics>', ' alttext="{\\displaystyle E=mc^{2}}"')}` +
        '<img src="formula.svg" alt="{\\displaystyle E=mc^{2}}"> relates mass and energy.</p>',
    );
    expect(markdown).toBe('The formula $E=mc^{2}$ relates mass and energy.');
  });

  it('reads fenced groups, matrices, accents and function names', () => {
    const markdown = markdownFor(
      `<p>${math('<mi>sin</mi><mfenced><mi>x</mi><mi>y</mi></mfenced><mo>+</mo><mover><mi>v</mi><mo>→</mo></mover><mo>+</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>')}</p>`,
    );
    expect(markdown).toBe('$\\sin \\left(x, y\\right)+\\vec{v}+\\begin{matrix}1 & 0 \\\\ 0 & 1\\end{matrix}$');
  });
});
