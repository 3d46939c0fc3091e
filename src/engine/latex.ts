/**
 * LaTeX shared by the equation converters (Word's OMML, docx/omml.ts; MathML, html/mathml.ts): the commands of
 * Unicode's mathematical symbols and Greek letters, the characters LaTeX reserves, operator names, script bases and
 * the tidying of spaces commands leave.
 */

export const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\epsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi',
  π: '\\pi', ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon',
  φ: '\\phi', ϕ: '\\phi', χ: '\\chi', ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta',
  Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot', '∙': '\\cdot', '±': '\\pm', '∓': '\\mp',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∼': '\\sim', '≃': '\\simeq',
  '≅': '\\cong', '∝': '\\propto', '≪': '\\ll', '≫': '\\gg', '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla',
  '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '∈': '\\in', '∉': '\\notin', '∋': '\\ni', '⊂': '\\subset',
  '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq', '∪': '\\cup', '∩': '\\cap', '∅': '\\emptyset',
  '∀': '\\forall', '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee', '⊕': '\\oplus', '⊗': '\\otimes',
  '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots', '°': '^{\\circ}', '′': "'", '″': "''",
  '−': '-', '∗': '*', '⊥': '\\perp', '∥': '\\parallel', '∠': '\\angle', 'ℏ': '\\hbar', 'ℓ': '\\ell',
  '⟨': '\\langle', '⟩': '\\rangle', '⌈': '\\lceil', '⌉': '\\rceil', '⌊': '\\lfloor', '⌋': '\\rfloor',
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint',
  '∯': '\\oiint', '∰': '\\oiiint', '⋃': '\\bigcup', '⋂': '\\bigcap', '⋀': '\\bigwedge', '⋁': '\\bigvee',
  ℝ: '\\mathbb{R}', ℕ: '\\mathbb{N}', ℤ: '\\mathbb{Z}', ℚ: '\\mathbb{Q}', ℂ: '\\mathbb{C}',
  '\u2061': '', '\u200b': '', '\u2062': '', '\u2063': '',
};

export const LATEX_SPECIALS: Record<string, string> = {
  '\\': '\\backslash ', '{': '\\{', '}': '\\}', '#': '\\#', '%': '\\%', '&': '\\&', $: '\\$', _: '\\_',
  '^': '\\hat{}', '~': '\\sim ',
};

export const KNOWN_FUNCTIONS = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'log',
  'ln', 'lg', 'exp', 'lim', 'liminf', 'limsup', 'max', 'min', 'sup', 'inf', 'det', 'dim', 'ker', 'arg', 'deg',
  'gcd', 'hom', 'Pr',
]);

function group(latex: string): string {
  return `{${latex}}`;
}

/** A script's base: bare when it is one character or one command (`r^{2}`, `\\pi^{2}`), braced otherwise. */
export function base(latex: string): string {
  const trimmed = latex.trim();
  return /^(?:[A-Za-z0-9]|\\[A-Za-z]+)$/.test(trimmed) ? (trimmed.startsWith('\\') ? `${trimmed} ` : trimmed) : group(trimmed);
}

/** An operator name written as a command: `\\sin`, `\\lim`, or `\\operatorname{argmax}`. */
export function operatorName(word: string): string {
  return KNOWN_FUNCTIONS.has(word) ? `\\${word}` : `\\operatorname{${word}}`;
}

/** Collapses the spaces left after commands where they are not needed. */
export function tidyLatex(latex: string): string {
  return latex
    .replace(/\s+/g, ' ')
    .replace(/ ([{}^_()[\],=+\-<>|/!.;:])/g, (match, character: string, offset: number, whole: string) => {
      // Keep the space when it ends a command followed by a letter-like token; drop it before punctuation.
      const before = whole.slice(0, offset);
      return /\\[A-Za-z]+$/.test(before) && /[A-Za-z]/.test(character) ? match : character;
    })
    .trim();
}
