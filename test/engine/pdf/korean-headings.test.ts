/**
 * Korean rules printed by LibreOffice: its headings set the digit in a Latin font between Hangul in a CJK font, with
 * the word processor's autospace between them (`제1장 총칙` drawn `제 1 장 총칙`), which the document's body shows
 * within its runs (`제1조(목적)`): read as typed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const rules = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-rules.pdf', import.meta.url)));

describe('Korean rules printed by LibreOffice', () => {
  it('reads its chapter and section headings as typed, at their levels', async () => {
    const headings = mainMarkdown(await convertBytes(rules(), { mode: 'fast' })).split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual(['# 개인정보 보호 규정', '## 제1장 총칙', '## 제2장 개인정보의 처리', '### 제1절 수집 및 이용', '### 제2절 제공 및 파기', '## 부칙']);
  });

  it('keeps the articles, their numbered items and the date in its last line as typed', async () => {
    const markdown = mainMarkdown(await convertBytes(rules(), { mode: 'fast' }));
    expect(markdown).toContain('제1조(목적) 이 규정은 「개인정보 보호법」에 따라');
    expect(markdown).toContain('1. 정보주체의 동의를 받은 경우');
    expect(markdown).toContain('이 규정은 2025년 1월 1일부터 시행한다.');
  });
});

describe('a Korean paper printed by LibreOffice', () => {
  it('reads a sentence cut at the foot of the first column on at the head of the second', async () => {
    const blocks = allBlocks(await convertBytes(paper(), { mode: 'fast' }));
    const head = blocks.find((block) => block.markdown.startsWith('학습한다.'));
    expect(head?.carriesOn).toBe('sentence');
    expect(blocks[blocks.indexOf(head!) - 1]?.markdown).toMatch(/모델을$/);
  });

  const paper = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-paper.pdf', import.meta.url)));

  it('reads its abstract, led by a bold label LiteParse runs into one bold item with the text after it, as a paragraph', async () => {
    const markdown = mainMarkdown(await convertBytes(paper(), { mode: 'fast' }));
    expect(markdown).toContain('\n\n요 약 본 논문에서는 한국어 문서의 구조를 자동으로 분석하는 기법을 제안한다. 제안하는 기법은 문서 이미지에서 텍스트 영역을 검출하고,');
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    // The authors' marks, raised and set an autospace from their names.
    expect(markdown).toContain('김민수¹, 이지은², 박준영¹');
    expect(headings).toEqual(['# 딥러닝 기반 한국어 문서 구조 분석 기법', '## 1. 서론', '## 2. 관련 연구', '### 2.1 규칙 기반 기법', '### 2.2 학습 기반 기법', '## 3. 제안 기법', '## 4. 결론']);
  });
});

describe('a Korean textbook page printed by LibreOffice (Noto Sans CJK)', () => {
  const textbook = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-textbook.pdf', import.meta.url)));

  it('reads its unit, section and (1) headings at their levels', async () => {
    const headings = mainMarkdown(await convertBytes(textbook(), { mode: 'fast' })).split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual(['# Ⅰ. 생태계와 환경', '## 1. 학습 목표', '## 2. 생태계의 구성', '### (1) 생물적 요인', '### (2) 비생물적 요인', '## 3. 확인 문제']);
  });

  it('reads its captioned table with the group spanning its rows, each cell\'s list with its spaces, and the box under it as text', async () => {
    const blocks = allBlocks(await convertBytes(textbook(), { mode: 'fast' }));
    const table = blocks.find((block) => block.type === 'table')!;
    expect(blocks[blocks.indexOf(table) - 1]).toMatchObject({ type: 'caption', markdown: '<표 2-1> 생태계 구성 요소의 예' });
    expect(table.markdown).toContain('<tr><td rowspan="3">생물적 요인</td><td>생산자</td><td>벼, 소나무, 식물 플랑크톤</td></tr>\n<tr><td>소비자</td><td>메뚜기, 개구리, 매</td></tr>');
    expect(blocks[blocks.indexOf(table) + 1]?.markdown).toMatch(/^탐구 활동 먹이 그물 만들기 과정: ① 주변 생태계에/);
  });
});

describe('a Korean report section numbered Ⅲ. 1. 가. 1) (1), printed by LibreOffice (Noto Serif and Sans CJK)', () => {
  const levels = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-levels.pdf', import.meta.url)));

  it('reads its headings at the levels their numbering and type give, the Roman numeral set in the body\'s type too', async () => {
    const markdown = mainMarkdown(await convertBytes(levels(), { mode: 'fast' }));
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# Ⅲ. 세부 추진 과제',
      '## 1. 디지털 행정 서비스 확대',
      '### 가. 온라인 민원 창구 일원화',
      '#### 1) 통합 포털 구축',
      '#### 2) 전자 증명서 발급',
      '### 나. 데이터 기반 정책 결정',
      '## 2. 지역 균형 인프라 구축',
      '### 가. 광역 교통망 확충',
      '### 나. 생활 SOC 확충',
      '# Ⅳ. 기대 효과',
    ]);
    expect(markdown).toContain('- (1) 주민등록표 등본 등 자주 쓰는 증명서 50종을 전자 문서로 발급한다.');
  });
});

describe("a Korean paper's abstract led by a bold label, printed by LibreOffice", () => {
  const abstract = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/korean-abstract.pdf', import.meta.url)));

  it('reads the abstract as one paragraph after its bold label, not its first line apart as bold', async () => {
    const blocks = allBlocks(await convertBytes(abstract(), { mode: 'fast' }));
    const lead = blocks.find((block) => block.markdown.startsWith('국문 요약'))!;
    expect(lead.type).toBe('text');
    expect(lead.markdown).toMatch(/^국문 요약 본 연구는 .* 2018년부터 2023년까지 수집한 .* 더 크게 나타났다\.$/u);
  });

  it('reads its keywords line, a bold label over a list of terms, as text, not a heading', async () => {
    const blocks = allBlocks(await convertBytes(abstract(), { mode: 'fast' }));
    expect(blocks.find((block) => block.markdown.includes('주제어:'))).toMatchObject({ type: 'text', markdown: '주제어: 도시 공원, 접근성, 신체 활동, 다수준 분석' });
    expect(blocks.filter((block) => block.type === 'section_header').map((block) => block.markdown)).toEqual(['## Ⅰ. 서론']);
  });
});
