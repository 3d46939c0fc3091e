/**
 * onlyMainContent on hand-written pages of further kinds that lost content or let boilerplate in: text readability
 * moves into elements of its own, an article readability finds only a fragment of, soft hyphens, an article streamed in by script,
 * a forum thread whose replies are marked up as comments.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>Shortbread with dark chocolate</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/recipes/${index}">Recipe collection number ${index}</a></li>`).join('');

describe('text readability moves into elements of its own', () => {
  it('keeps list items whose text sits in a bare <div> (readability turns it into a new paragraph)', () => {
    const steps = [
      'Mix the starch, the flour, the sugar and the baking powder in a large bowl until even.',
      'Add the beaten egg and the soft butter and knead quickly until the dough holds together.',
      'Shape small balls, press each with a fork and bake them for twenty minutes at 180 degrees.',
      'Let the biscuits dry on a sheet of paper before dipping them in the melted chocolate.',
    ];
    const html = page(`<nav><ul>${menu}</ul></nav><main><h1>Shortbread with dark chocolate</h1>
      <p>These small biscuits melt in the mouth; the dark chocolate gives them a bitter edge that children and grown-ups like alike.</p>
      <h2>Ingredients</h2><ul><li><div class="item">1 cup of corn starch</div></li><li><div class="item">3/4 cup of wheat flour</div></li><li><div class="item">100 g of dark chocolate</div></li></ul>
      <h2>Method</h2><ol class="steps">${steps.map((step) => `<li class="step"><div class="step-text">${step}</div></li>`).join('')}</ol></main>`);
    const markdown = main(html);
    for (const step of steps) expect(markdown).toContain(step);
    expect(markdown).toContain('1 cup of corn starch');
    expect(markdown).not.toContain('Recipe collection number 3');
  });
});

describe('paragraphs broken by <br><br>', () => {
  it('keeps an article body written as one paragraph with double line breaks (readability splits it)', () => {
    const parts = [
      'The world swimming federation confirmed on Monday that both coming championships move by one year.',
      'The championships planned for May now take place in the last two weeks of July of the following year.',
      'The European championships in August are not affected and go ahead as planned, the federation said.',
      'Athletes and coaches were told of the new dates in a letter sent out the same morning.',
    ];
    const html = page(`<nav><ul>${menu}</ul></nav><main><div class="news"><h1>Championships moved</h1>
      <div class="teaser"><p>What was rumoured for weeks is now official.</p></div>
      <div class="news-text" itemprop="articleBody"><p>${parts.join('<br><br> ')}</p></div></div></main><footer><ul>${menu}</ul></footer>`);
    const markdown = main(html);
    for (const part of parts) expect(markdown).toContain(part);
    expect(markdown).not.toContain('Recipe collection number 3');
  });
});

describe('text a reader does not see as part of the article', () => {
  it('drops soft hyphens, so hyphenation hints never split a word', () => {
    const html = page(`<main><h1>Market day</h1><p>Wäh&shy;rend Sie über den Markt schlen\u00ADdern, sehen Sie das Hand&shy;werk des täglichen Lebens und kosten selbst gemachte Butter aus der alten Mühle am Fluss.</p></main>`);
    const markdown = markdownOf(htmlToModel(html, { onlyMainContent: false }));
    expect(markdown).toContain('Während Sie über den Markt schlendern, sehen Sie das Handwerk');
    expect(markdown).not.toContain('\u00AD');
  });

  it('removes posts embedded from social networks inside the article, keeping its own quotes', () => {
    const prose = Array.from({ length: 4 }, (_, index) => `<p>Paragraph ${index + 1}: the hydrogen strategy of the government names ammonia as the carrier for imports by ship from overseas producers.</p>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>Hydrogen by ship</h1>${prose}
      <blockquote class="twitter-tweet"><p>Biokerosin, packaging and fertiliser: a thread on what comes next.</p>— A member (@member) <a href="https://x.example/status/1">May 2022</a></blockquote>
      <blockquote class="wp-embedded-content"><p><a href="https://news.example/training">Training on the new helicopters has begun</a></p></blockquote>
      <blockquote><p>We need the ports to be ready first, said the minister at the opening.</p></blockquote></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4: the hydrogen strategy');
    expect(markdown).toContain('We need the ports to be ready first');
    expect(markdown).not.toContain('Biokerosin, packaging and fertiliser');
    expect(markdown).not.toContain('Training on the new helicopters');
  });
});

describe('an article readability finds in a side block', () => {
  it('takes the page’s <main> when readability’s article lies wholly inside an <aside>', () => {
    // Posts in list items: readability scores no list item, so the sidebar's paragraphs win its scoring.
    const posts = Array.from(
      { length: 5 },
      (_, index) =>
        `<li class="post"><span class="author"><a href="/u/${index}">user${index}</a></span> <span class="post-text">Post ${index + 1}: since the update my phone no longer reaches the app store over mobile data, only over wifi at home. Has anyone seen this?</span></li>`,
    ).join('');
    const about =
      '<p>This forum is run by volunteers, who answer questions about phones, tablets, watches and computers, every day of the week, for free, in their own time. Please read the rules, be kind, search first, and post in the right section, since most questions, old or new, have been answered before.</p>';
    const html = page(`<nav><ul>${menu}</ul></nav><main id="content"><h1>App store unreachable over mobile data</h1><ol class="posts">${posts}</ol></main>
      <aside id="panel"><div class="box"><h3>About this forum</h3>${about}${about}</div></aside>`);
    const markdown = main(html);
    expect(markdown).toContain('Post 1: since the update my phone');
    expect(markdown).toContain('Post 5: since the update my phone');
    expect(markdown).not.toContain('This forum is run by volunteers');
  });
});

describe('notices and forms readability takes for a short article', () => {
  // Paragraphs under 25 characters: readability scores none of them, so any longer block wins its scoring.
  const shortPost = `<div id="post-406" class="post"><h2>A possibility</h2><p>“I know I am late.”</p><p>“Ok.” He read on.</p><p>It was the first sign.</p></div>`;

  it('removes a cookie notice that readability would take for the article', () => {
    const notice = `<div class="widget widget_eu_cookie_law_widget"><div id="eu-cookie-law"><form><p>Privacy and cookies: this site uses cookies. By continuing to use this website, you agree to their use. To find out more, including how to control cookies, see here: our cookie policy, which explains everything in detail.</p><input type="submit" value="Close and accept"></form></div></div>`;
    const html = page(`<header><a href="/">The blog</a></header><div id="content">${shortPost}</div><nav><ul>${menu}</ul></nav><footer><ul>${menu}</ul></footer>${notice}`);
    const markdown = main(html);
    expect(markdown).toContain('“I know I am late.”');
    expect(markdown).toContain('It was the first sign.');
    expect(markdown).not.toContain('this site uses cookies');
  });

  it('does not take the comments under a short post for the article', () => {
    const comment = (index: number) =>
      `<li class="comment"><p>Comment ${index}: what a lovely little scene, so quiet, so plain, and yet, somehow, it says everything about the two of them, at least to me, after reading it twice.</p></li>`;
    const html = page(`<article>${shortPost}</article><div id="comments"><h3>3 comments</h3><ol>${[1, 2, 3].map(comment).join('')}</ol></div><nav><ul>${menu}</ul></nav>`);
    const markdown = main(html);
    expect(markdown).toContain('“I know I am late.”');
    expect(markdown).toContain('It was the first sign.');
    expect(markdown).not.toContain('what a lovely little scene');
  });
});

describe('the article’s own text that readability drops', () => {
  const prose = Array.from(
    { length: 5 },
    (_, index) => `<p>Paragraph ${index + 1}: the new interface links the office software to the partner’s web files, so that clients and lawyers share documents safely and quickly.</p>`,
  ).join('');

  it('keeps a paragraph of prose from a block readability judged link-heavy, without the block’s links', () => {
    const links = Array.from({ length: 4 }, (_, index) => `<li><a href="https://help.example/${index}">Help centre article number ${index} about the new interface</a></li>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Shortbread with dark chocolate</h1>${prose}
      <div><h2>More on the subject</h2><p>A detailed overview of the new interface is in the help centre, and further information is on the partner’s own pages:</p><ul>${links}</ul></div>
      </article></main><footer><ul>${menu}</ul></footer>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the new interface');
    expect(markdown).toContain('further information is on the partner’s own pages');
    expect(markdown).not.toContain('Help centre article number 2');
    expect(markdown).not.toContain('Recipe collection number 3');
  });

  it('keeps a section heading that repeats the title’s words in another order', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Biscuits for the winter</h1>${prose}<h2>Dark chocolate shortbread</h2>${prose.replaceAll('Paragraph', 'Step')}</article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('## Dark chocolate shortbread');
    expect(markdown).toContain('Step 5: the new interface');
  });
});

describe('lists of other articles inside the content', () => {
  it('removes a list whose items are headed by links to other pages, with their excerpts', () => {
    const prose = Array.from({ length: 5 }, (_, index) => `<p>Paragraph ${index + 1}: the council voted on Tuesday to keep the old market hall open for another ten years, after a long debate.</p>`).join('');
    const others = Array.from(
      { length: 4 },
      (_, index) => `<li><h3><a href="/stories/${index}">Another story number ${index}</a></h3><p>Excerpt ${index}: a longer summary of that other story, written to make the reader click through to it and read on.</p></li>`,
    ).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Market hall stays open</h1>${prose}<ul class="list-unstyled">${others}</ul></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the council voted');
    expect(markdown).not.toContain('Another story number 2');
    expect(markdown).not.toContain('Excerpt 3: a longer summary');
  });

  it('keeps a list whose items are only linked headings, the things the article recommends (no excerpt, picture or date)', () => {
    const tools = ['Fluke 117', 'Klein Tools MM400', 'Fluke T6-1000'];
    const picks = `<ul>${tools.map((tool, index) => `<li><h3><a href="https://shop.example.com/item/${index}">${tool}</a></h3></li>`).join('')}</ul>`;
    const html = page(
      `<nav><ul>${menu}</ul></nav><main><article><h1>Tools every electrician needs</h1><h2>1. Multimeter</h2><p>A digital multimeter measures voltage, current and resistance, so that you can find an electrical fault quickly and safely.</p><h4>Top expert recommendations:</h4>${picks}<h2>2. Wire strippers</h2><p>Wire strippers take the insulation off a wire without nicking the copper; look for a pair with slots for several gauges.</p></article></main>`,
    );
    const markdown = main(html);
    for (const tool of tools) expect(markdown).toContain(tool);
    expect(markdown).toContain('Wire strippers take the insulation off');
  });

  it('keeps a list whose items are the article’s own headed steps', () => {
    const steps = Array.from({ length: 4 }, (_, index) => `<li><h3>Step ${index + 1}</h3><p>Knead the dough for step ${index + 1} until it is smooth and holds together, then let it rest in a cool place.</p></li>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Shortbread with dark chocolate</h1><p>These biscuits are quick to make and keep for a week in a tin, if nobody finds them first.</p><ol>${steps}</ol></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('### Step 4');
    expect(markdown).toContain('Knead the dough for step 4');
  });
});

describe('code and small articles beside the article', () => {
  it("keeps a code block's comments, whose highlighter classes name them comments", () => {
    const prose = Array.from({ length: 6 }, (_, index) => `<p>Paragraph ${index} of the guide explains the next step of the work with version control, in a sentence long enough to count as prose.</p>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>Git, the commands I use</h1>${prose}
      <pre><code class="language-bash hljs"><span class="hljs-comment"># stage every modified file</span>
git add -A
<span class="hljs-comment"># commit them with a message</span>
git commit -m "message"</code></pre>${prose}</article>`);
    const markdown = main(html);
    expect(markdown).toContain('# stage every modified file');
    expect(markdown).toContain('# commit them with a message');
  });

  it("keeps readability's article when the only <article> of the page is a small category box beside it", () => {
    const paragraphs = Array.from({ length: 8 }, (_, index) => `<p>Sentence ${index} about connected devices: sensors, homes and cities talk to each other over the network, and this paragraph says how.</p>`).join('');
    const footer = Array.from({ length: 300 }, (_, index) => `<li><a href="/topic/${index}">Topic page number ${index}</a> with a short description of the topic</li>`).join('');
    const html = page(`<div class="page"><article class="category"><a href="/iot">Internet of Things</a></article>
      <div class="content"><h1>What the Internet of Things is</h1>${paragraphs}</div><div class="directory"><ul>${footer}</ul></div></div>`);
    const markdown = main(html);
    expect(markdown).toContain('Sentence 7 about connected devices');
  });
});

describe('an article streamed in after the page (React streaming server rendering)', () => {
  const prose = Array.from({ length: 5 }, (_, index) => `<p>Paragraph ${index + 1} of the essay argues that interpretability tools must scale with the models they explain, or fall behind.</p>`).join('');
  // The shell comes first with a spinner in the boundary's place; the article follows in hidden divs and inline
  // scripts move it in, as Next.js's app router sends a page.
  const streamed = (calls: string) =>
    `<!DOCTYPE html><html><head><title>Scaling explanations</title></head><body><nav><ul>${menu}</ul></nav>
      <div class="column"><!--$?--><template id="B:3"></template><div class="spinner">Loading the post</div><!--/$--></div>
      <script>$RC=function(b,c){/* React runtime */};</script>
      <div hidden id="S:3"><div class="post"><h1>Scaling explanations</h1><div id="content"><template id="P:7"></template></div></div></div>
      <div hidden id="S:7"><div class="body">${prose}</div></div>
      <script>${calls}</script></body></html>`;

  it('puts the streamed article where the scripts move it, and drops the fallback spinner', () => {
    const markdown = main(streamed('$RS("S:7","P:7");$RC("B:3","S:3")'));
    expect(markdown).toContain('# Scaling explanations');
    expect(markdown).toContain('Paragraph 5 of the essay argues');
    expect(markdown).not.toContain('Loading the post');
    expect(markdown).not.toContain('Recipe collection number 3');
  });

  it('shows the moved article with onlyMainContent off too', () => {
    const full = markdownOf(htmlToModel(streamed('$RS("S:7","P:7");$RC("B:3","S:3")'), { onlyMainContent: false }));
    expect(full).toContain('# Scaling explanations');
    expect(full).toContain('Paragraph 5 of the essay argues');
    expect(full).not.toContain('Loading the post');
  });

  it('leaves hidden content no script moves out of the main content', () => {
    const markdown = main(streamed(''));
    expect(markdown).not.toContain('Paragraph 1 of the essay');
  });

  // The same page kept without its scripts (an archive or a crawler's copy): nothing names the moves, and the
  // segments go where React's numbers put them, as a browser showed the page.
  const unscripted = (segments: string) => streamed('').replace(/<script>[^<]*<\/script>/g, '').replace(/<div hidden id="S:3">[\s\S]*<\/body>/, `${segments}</body>`);
  const post = '<div class="post"><h1>Scaling explanations</h1><div id="content"><template id="P:7"></template></div></div>';
  const body = `<div class="body">${prose}</div>`;

  it('without any script, puts each segment in the placeholder of its number, nested segments included', () => {
    const markdown = main(unscripted(`<div hidden id="S:7">${body}</div><div hidden id="S:3">${post}</div>`));
    expect(markdown).toContain('# Scaling explanations');
    expect(markdown).toContain('Paragraph 5 of the essay argues');
    expect(markdown).not.toContain('Loading the post');
    // In the article's place: the title before the body, the body in its placeholder.
    expect(markdown.indexOf('# Scaling explanations')).toBeLessThan(markdown.indexOf('Paragraph 1 of the essay'));
  });

  it('without any script, shows a segment with no placeholder where it stands', () => {
    const markdown = main(unscripted(`<div hidden id="S:9">${post.replace('<template id="P:7"></template>', body)}</div>`));
    expect(markdown).toContain('Paragraph 5 of the essay argues');
  });
});

describe('an article whose blocks were pasted in as whole documents (a CMS block with its own <html> and <body>)', () => {
  const block = (n: number, sentences: number) =>
    `<html><head><title>Block ${n}</title><meta charset="utf-8"></head><body><div class="block block-text"><div class="center-wrapper"><div class="some-text"><div class="markdownable"><h2>${n}. Conference number ${n}</h2>${Array.from(
      { length: sentences },
      (_, index) => `<p>Conference ${n}, paragraph ${index + 1}: keynotes on travel technology, expense tools and the trade floor fill the four days of the event.</p>`,
    ).join('')}</div></div></div></div></body></html>`;

  it('reads the blocks as one article, as a browser does (the inner html, head and body tags ignored)', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><div class="article-content">
      <h1>The ten conferences of the year</h1>${block(1, 2)}${block(2, 5)}${block(3, 3)}</div></main>`);
    const markdown = main(html);
    for (const n of [1, 2, 3]) expect(markdown).toContain(`Conference ${n}, paragraph 2: keynotes`);
    expect(markdown.indexOf('Conference 1, paragraph 1')).toBeLessThan(markdown.indexOf('Conference 3, paragraph 3'));
    expect(markdown).not.toContain('Block 2');
  });

  it('keeps the content part of a layout with a sidebar (class sidebar-content), and drops the sidebar beside it', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>Gardening shows</h1><div class="sidebar-layout"><div class="wrap">
      <div class="sidebar-content">${block(1, 3)}${block(2, 4)}</div>
      <div class="sidebar"><p>Follow us on every network, and read our licence before you republish any story of ours.</p></div></div></div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Conference 2, paragraph 4: keynotes');
    expect(markdown).not.toContain('Follow us on every network');
    // Beside the main content, a sidebar-content is the sidebar's.
    const shop = main(page(`<nav><ul>${menu}</ul></nav><article><h1>Gardening shows</h1><div class="columns">
      <div class="main-content">${block(1, 3)}${block(2, 4)}</div>
      <div class="sidebar-content"><p>Log in to save this show to your favourites and set an alert for new seasons.</p></div></div></article>`));
    expect(shop).toContain('Conference 2, paragraph 4: keynotes');
    expect(shop).not.toContain('Log in to save this show');
  });
});

describe('an article made of sections that each wrap their own body (AsciiDoc, Sphinx)', () => {
  it('keeps every section of the <article>, not only the one readability scores highest', () => {
    const section = (title: string, sentences: string[]) =>
      `<div class="sect1"><h2>${title}</h2><div class="sectionbody">${sentences.map((sentence) => `<div class="paragraph"><p>${sentence}</p></div>`).join('')}</div></div>`;
    // A section whose body is mostly a list of links (the patches sent), which readability's cleaning drops.
    const patches = Array.from({ length: 10 }, (_, index) => `<li><p><a href="https://lists.example.org/patch/${index}">compiler: add support for feature number ${index}</a></p></li>`).join('');
    const withPatches = (title: string, sentence: string) =>
      section(title, [sentence, 'More work went into the tests and the build this month.', 'The next report will say more on the remaining work.']).replace('</div></div>', `<div class="ulist"><ul>${patches}</ul></div></div></div>`);
    const progress = withPatches('Patches status', 'Some nice progress on the compiler side these past months.');
    const state = withPatches('State of the backend', 'The backend now compiles the core library.');
    const thanks = section(
      'Thanks',
      Array.from({ length: 4 }, (_, index) => `A big thank you, number ${index + 1}, to the people who sponsor, review, test and report bugs: your support, help and patience are very much appreciated.`),
    );
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h2>Progress report</h2><div class="content">${progress}${state}${thanks}</div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('nice progress on the compiler side');
    expect(markdown).toContain('The backend now compiles the core library');
    expect(markdown).toContain('A big thank you, number 4');
    expect(markdown).not.toContain('Recipe collection number 3');
  });
});

describe('teaser cards of other pages marked up as articles of their own', () => {
  const prose = Array.from({ length: 5 }, (_, index) => `<p>Paragraph ${index + 1}: connected objects and sensor networks capture and transmit a wide range of data, used in ever more fields of research.</p>`).join('');
  const card = (index: number) =>
    `<article class="news"><div class="tag">Publications</div><figure><img src="/news-${index}.jpg" alt="Picture ${index}"><figcaption>A lab of the institute, photographed for the news</figcaption></figure><h2><a href="/en/news-${index}">Institute news item number ${index}</a></h2><time><p>0${index}/12/2021</p></time></article>`;

  it('removes nested <article> cards headed by a link to another page, keeping the article', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Internet of Things</h1>${prose}<h2>Related news</h2>${[1, 2, 3].map(card).join('')}</article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: connected objects');
    expect(markdown).not.toContain('Institute news item number 3');
  });

  it('removes a carousel of cards of other posts under the article (a linked heading, an excerpt and a date each)', () => {
    const slide = (index: number) =>
      `<div class="swiper-slide"><div class="article-item"><figure><a href="/blogs/news/post-${index}"><img src="/post-${index}.jpg" alt=""></a></figure><h3 class="article-item__title"><a href="/blogs/news/post-${index}">Another post of the blog number ${index}</a></h3><div class="article-item__excerpt">Excerpt ${index}: the first lines of that other post, cut short so that the reader clicks through, with a second sentence, a longer one, that tells what the story is about and why it matters...</div><div class="article-item__date">Dec ${index + 10}, 2025</div></div></div>`;
    const html = page(
      `<nav><ul>${menu}</ul></nav><main><article><h1>Internet of Things</h1>${prose}${prose}<h2>You may also like</h2><div class="swiper"><div class="swiper-wrapper">${[1, 2, 3].map(slide).join('')}</div></div></article></main>`,
    );
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: connected objects');
    expect(markdown).not.toContain('Another post of the blog number 2');
    expect(markdown).not.toContain('Excerpt 3: the first lines');
  });

  it('keeps a carousel of linked cards that comes before the text (the page’s own offers in slides)', () => {
    const offers = ['Accidents', 'Illness', 'Cancer'].map((name) => `<div class="slider-item"><h3><a href="/cover/${name.toLowerCase()}">${name}</a></h3><p>What the plan pays for ${name.toLowerCase()}.</p></div>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Pet insurance</h1><div class="slider">${offers}</div>${prose}${prose}</article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Cancer');
    expect(markdown).toContain('What the plan pays for illness.');
  });

  it('keeps the cards when they are most of the content (a listing page)', () => {
    const html = page(`<main><h1>News</h1><p>The latest news of the institute.</p>${Array.from({ length: 12 }, (_, index) => card(index)).join('')}</main>`);
    const markdown = main(html);
    expect(markdown).toContain('Institute news item number 3');
  });
});

describe('a list of links the article’s own sentence announces', () => {
  const prose = (topic: string) =>
    Array.from({ length: 3 }, (_, index) => `<p>${topic} ${index + 1}: the compiler backend made steady progress this month, with patches reviewed upstream and tests passing on more targets.</p>`).join('');
  const patches = Array.from({ length: 5 }, (_, index) => `<li><p><a href="https://forge.example/pulls/${index}">Backend: support for packed structure number ${index}</a></p></li>`).join('');

  it('keeps a link-dense list introduced by a sentence ending in a colon, in the middle of the article', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>Progress report</h1>${prose('Overview')}
      <div class="paragraph"><p>Many patches were sent for review this month:</p></div><div class="ulist"><ul>${patches}</ul></div>
      ${prose('Next steps')}</article></main><footer><ul>${menu}</ul></footer>`);
    const markdown = main(html);
    expect(markdown).toContain('Backend: support for packed structure number 3');
    expect(markdown).toContain('Next steps 3');
    expect(markdown).not.toContain('Recipe collection number 3');
  });

  it('still removes such a list when nothing of the article follows it, and a table of contents', () => {
    const toc = Array.from({ length: 4 }, (_, index) => `<li><a href="#part-${index}">Part number ${index} of this report</a></li>`).join('');
    const html = page(`<main><article><h1>Progress report</h1><p>In this report we look at the following parts:</p><ul>${toc}</ul>${prose('Overview')}
      <p>Other readers found these pages helpful as well:</p><ul>${patches}</ul></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Overview 3');
    expect(markdown).not.toContain('Part number 2 of this report');
    expect(markdown).not.toContain('packed structure number 3');
  });
});

describe('the author’s box under the article', () => {
  const prose = Array.from(
    { length: 5 },
    (_, index) => `<p>Paragraph ${index + 1}: the new board runs the open operating system out of the box and draws less than two watts while it plays video.</p>`,
  ).join('');
  const bio = 'Jane started this site in 2010 as a side project, before leaving her job as an engineering manager to write about embedded boards full time.';

  it('removes the box holding the biography the page’s JSON-LD gives for a Person', () => {
    const jsonLd = JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'Article', headline: 'A new board' }, { '@type': 'Person', name: 'Jane Doe', description: bio }] });
    const html = page(`<script type="application/ld+json">${jsonLd}</script><main><article><h1>A new board</h1>${prose}
      <div class="sabox"><div class="sabox-name"><a href="/author/jane">Jane Doe</a></div><div class="sabox-desc"><p>${bio}</p></div></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the new board');
    expect(markdown).not.toContain('as a side project');
  });

  it('removes a box marked up as a Person with a description, and one whose class says author details', () => {
    const html = page(`<main><article><h1>A new board</h1>${prose}
      <div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jane Doe</span><div itemprop="description">${bio}</div></div>
      <div class="author_detail_box"><h3>John Roe</h3><p>Executive editor of the site, writing about phones and laptops since the first netbooks came out.</p></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the new board');
    expect(markdown).not.toContain('as a side project');
    expect(markdown).not.toContain('since the first netbooks');
  });

  it('removes an unmarked box: a headshot and the name, then a paragraph saying who that person is', () => {
    const html = page(`<main><article><h1>A new board</h1>${prose}
      <div class="box-7f2"><img src="/jane.jpg" alt="Headshot of Jane Doe"><a href="/people/jane"><span>Jane Doe</span></a><div>Contributing writer</div>
      <div><p>Jane Doe is a writer and editor who has covered embedded boards and single-board computers for a decade.</p></div></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the new board');
    expect(markdown).not.toContain('covered embedded boards');
  });

  it('keeps the people a heading of the page introduces (a headshot, a name and "X is a …" for each), and removes the author’s box', () => {
    const advisor = (name: string, says: string) =>
      `<div class="expert"><div class="expert-wrap"><img src="/${name.split(' ')[0]}.jpg" alt="Headshot of ${name}"><div class="expert-name">${name}<div>Official training advisor</div></div></div><p>${name} is ${says}</p></div>`;
    // The advisors in the content's last third, where an author's box is looked for.
    const html = page(`<main><article><h1>A new board</h1>${prose}${prose}<h3>Meet our training advisors:</h3>
      ${advisor('Alysha Flynn', 'a road marathoner and trail ultra runner who has been running and coaching for over twenty-five years.')}
      ${advisor('Kristy Baumann', 'a registered dietitian, an accomplished marathon runner and a mother of two who helps runners fuel well.')}
      <h2>Where to buy</h2><p>The board is sold online from today, with the case and the power supply as options.</p>
      <div class="box-7f2"><img src="/jane.jpg" alt="Headshot of Jane Doe"><a href="/people/jane"><span>Jane Doe</span></a>
      <div><p>Jane Doe is a writer and editor who has covered embedded boards and single-board computers for a decade.</p></div></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('has been running and coaching for over twenty-five years');
    expect(markdown).toContain('helps runners fuel well');
    expect(markdown).not.toContain('covered embedded boards');
  });

  it('removes the author’s box under a heading that speaks of the author or names them', () => {
    for (const heading of ['About the author', 'Jane Doe']) {
      const html = page(`<main><article><h1>A new board</h1>${prose}<h3>${heading}</h3>
        <div class="box-7f2"><img src="/jane.jpg" alt="Headshot of Jane Doe"><a href="/people/jane"><span>Jane Doe</span></a>
        <div><p>Jane Doe is a writer and editor who has covered embedded boards and single-board computers for a decade.</p></div></div></article></main>`);
      expect(main(html)).not.toContain('covered embedded boards');
    }
  });

  it('keeps paragraphs of that shape when the article is a list of them (companies with their logos)', () => {
    const companies = ['Alpha Data', 'Beta Works', 'Gamma Cloud', 'Delta Labs', 'Epsilon Systems'];
    const items = companies
      .map((name, index) => `<div class="item"><img src="/logo${index}.png" alt="${name}"><b>${index + 1}. ${name}</b><p>${name} is a leading platform for data teams that want to share their models and reports across the company.</p></div>`)
      .join('');
    const html = page(`<main><article><h1>Top data companies</h1><p>These are the companies that shaped the data market this year, in no particular order at all.</p>${items}</article></main>`);
    const markdown = main(html);
    for (const name of companies) expect(markdown).toContain(`${name} is a leading platform`);
  });

  it('removes a paragraph near the end that opens with the author the page’s metadata names, with no box or picture', () => {
    const html = `<!DOCTYPE html><html lang="en"><head><title>A new board</title><meta name="author" content="Jane Doe"></head><body><main><article><h1>A new board</h1>${prose}
      <p><em><a href="/people/jane">Jane Doe</a>, senior editor, has covered embedded boards and single-board computers for a decade.</em></p></article></main></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the new board');
    expect(markdown).not.toContain('covered embedded boards');
  });

  it('keeps a paragraph opening with the author’s name early in the article, and one naming somebody else', () => {
    const html = `<!DOCTYPE html><html lang="en"><head><title>A new board</title><meta name="author" content="Jane Doe"></head><body><main><article><h1>A new board</h1>
      <p>Jane Doe is the first to admit it: she never thought a board this small would replace the desktop computer on her desk at home.</p>${prose}
      <p>John Roe is the engineer who designed the board’s power circuit, and he says the next version will draw even less.</p></article></main></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('never thought a board this small');
    expect(markdown).toContain('designed the board’s power circuit');
  });

  it('keeps the biography when it is the page’s content (an author’s own page)', () => {
    const jsonLd = JSON.stringify({ '@type': 'Person', name: 'Jane Doe', description: bio });
    const html = page(`<script type="application/ld+json">${jsonLd}</script><main><h1>Jane Doe</h1><p>${bio}</p></main>`);
    expect(main(html)).toContain('as a side project');
  });
});

describe('calls to action and copyright lines inside the article', () => {
  const prose = Array.from(
    { length: 5 },
    (_, index) => `<p>Paragraph ${index + 1}: the city council approved the new cycling lanes, which open along the river in the spring after two years of planning.</p>`,
  ).join('');

  it('removes a call-to-action box and a copyright line, keeping the article', () => {
    const html = page(`<main><article><h1>New cycling lanes</h1>${prose}
      <div class="wp-block-cta"><h4>Try our route planner</h4><p>Plan every ride in seconds with thirty days free.</p><a href="/signup">Start now</a></div>
      <p>Copyright © 2023 City Radio. All rights reserved. Visit our terms of use for further information.</p></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: the city council');
    expect(markdown).not.toContain('Plan every ride in seconds');
    expect(markdown).not.toContain('All rights reserved');
  });
});

describe('references and figures the article sets apart', () => {
  const prose = Array.from(
    { length: 5 },
    (_, index) => `<p>Paragraph ${index + 1}: a secure element keeps the device’s keys in hardware and wipes them as soon as it detects that someone opened the case.</p>`,
  ).join('');

  it('keeps a margin figure with its caption that the page sets in an <aside> inside the article', () => {
    const html = page(`<main><article><h1>Tamper protection</h1>${prose.slice(0, prose.length / 2)}
      <aside class="margin"><figure><img src="/mesh.png" alt=""><figcaption><p>A sample tamper protection system: a conductive mesh lines the inside of the housing.</p></figcaption></figure></aside>
      ${prose}</article><aside class="sidebar"><h3>Popular</h3><p>Sidebar text about something else entirely, of no use to the article.</p></aside></main>`);
    const markdown = main(html);
    expect(markdown).toContain('a conductive mesh lines the inside of the housing');
    expect(markdown).not.toContain('Sidebar text about something else');
  });

  it('removes picture credits: an agency line, and the credit a caption ends with, keeping the caption', () => {
    const html = page(`<main><article><h1>Tamper protection</h1>${prose}
      <figure><img src="/a.jpg" alt=""><figcaption>The factory floor in May.<br>Photo Credit: Screenshot from the maker’s website</figcaption></figure>
      <figure><img src="/b.jpg" alt=""><figcaption>The new test bench in the lab. | Photo by Lisa Example</figcaption></figure>
      <div class="pic"><img src="/c.jpg" alt=""><span>Getty Images / Jane Example</span></div>${prose}</article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('The factory floor in May.');
    expect(markdown).toContain('The new test bench in the lab.');
    expect(markdown).not.toContain('Screenshot from the maker');
    expect(markdown).not.toContain('Lisa Example');
    expect(markdown).not.toContain('Getty Images');
  });

  it('keeps a line that gives a web address written out ("Website: https://…")', () => {
    const html = page(`<main><article><h1>Code editors</h1>${prose}<h2>An editor</h2><p>A fast editor for code, markup and prose, with a plugin system.</p>
      <p><strong>Website:</strong> <a href="https://editor.example/">https://editor.example/</a></p>${prose}</article></main>`);
    expect(main(html)).toContain('https://editor.example/');
  });
});

describe('a thread of posts (forums, Q&A pages)', () => {
  const text = (author: string, topic: string) =>
    `${author} writes about ${topic}: the shortbread spread in the oven because the butter was too warm, so chill the dough for half an hour before shaping the biscuits next time.`;

  it('keeps the replies of a thread marked up as comments (schema.org Comment), not only its first post', () => {
    const post = (id: number, author: string, topics: string[], reply: boolean) =>
      `<div id="post_${id}" class="topic-body crawler-post"${reply ? ' itemprop="comment" itemscope itemtype="http://schema.org/Comment"' : ''}>
        <div class="crawler-post-meta"><span class="creator"><a href="/u/${author}">${author}</a></span> <time>May 3, 2024</time></div>
        <div class="post" itemprop="text">${topics.map((topic) => `<p>${text(author, topic)}</p>`).join('')}</div>
        <div itemprop="interactionStatistic"><span class="post-likes">3 Likes</span></div></div>`;
    const html = page(`<nav><ul>${menu}</ul></nav><div id="main-outlet" role="main"><h1>Shortbread spreading in the oven</h1>
      <div itemscope itemtype="http://schema.org/DiscussionForumPosting">
      ${post(1, 'ana', ['the first bake', 'the second bake', 'the third bake', 'the recipe', 'the oven'], false)}
      ${post(2, 'ben', ['the butter'], true)}${post(3, 'cleo', ['the flour'], true)}${post(4, 'dev', ['the tray'], true)}</div></div>`);
    const markdown = main(html);
    for (const [author, topic] of [['ana', 'the oven'], ['ben', 'the butter'], ['cleo', 'the flour'], ['dev', 'the tray']]) {
      expect(markdown).toContain(text(author as string, topic as string));
    }
    expect(markdown).not.toContain('Recipe collection number 3');
  });

  it('keeps short replies that look like teaser cards (a heading linking to the author) when they are the thread’s posts', () => {
    const post = (author: string, topics: string[]) =>
      `<article class="message message--post js-post"><div class="message-inner">
        <div class="message-cell message-cell--user"><h4 class="message-name"><a href="/members/${author}">${author}</a></h4></div>
        <div class="message-cell message-cell--main"><div class="message-content"><div class="bbWrapper">${topics.map((topic) => text(author, topic)).join('<br><br>')}</div></div></div>
      </div></article>`;
    const html = page(`<nav><ul>${menu}</ul></nav><main><h1>Shortbread spreading in the oven</h1><div class="block-body js-replyNewMessageContainer">
      ${post('ana', ['the first bake', 'the chocolate', 'the tin'])}${post('ben', ['the butter'])}${post('cleo', ['the flour'])}</div></main>`);
    const markdown = main(html);
    for (const [author, topic] of [['ana', 'the tin'], ['ben', 'the butter'], ['cleo', 'the flour']]) {
      expect(markdown).toContain(text(author as string, topic as string));
    }
  });
});

describe('an article laid out by a page builder in text modules of its own', () => {
  const tips = (topic: string, count: number) =>
    Array.from({ length: count }, (_, index) => `<p>${topic} ${index + 1}: put a fixed share of every pay cheque aside before the bills arrive, so that saving comes first and spending adjusts to what is left.</p>`).join('');
  // Each module sits in wrappers of its own: readability takes the longest one alone.
  const textModule = (heading: string, topic: string, count: number) =>
    `<div class="row-wrapper"><div class="row"><div class="col"><div class="widget rich-text"><h2>${heading}</h2>${tips(topic, count)}</div></div></div></div>`;
  const builderPage = (modules: string) =>
    `<!DOCTYPE html><html><head><title>Money tips for working adults</title></head><body><nav><ul>${menu}</ul></nav><main><h1>Money tips for working adults</h1>${modules}</main></body></html>`;

  it('keeps every text module of the page’s <main>, not only the one readability takes', () => {
    const markdown = main(builderPage(textModule('Build savings', 'Savings tip', 5) + textModule('Set goals', 'Goal tip', 3) + textModule('Pay down debt', 'Debt tip', 3) + textModule('Invest', 'Investing tip', 3)));
    for (const tip of ['Savings tip 5', 'Goal tip 1', 'Debt tip 3', 'Investing tip 2']) expect(markdown).toContain(tip);
    expect(markdown).not.toContain('Recipe collection number 3');
  });

  it('does not widen a short post to its <article> for the author cards, share bars and notices around it', () => {
    const bio = (name: string) =>
      `${name} is the executive editor of a weekly health letter. ${'Before that, she reported on medicine, fitness and public health for newspapers and magazines for many years. '.repeat(2)}`;
    const card = (heading: string, name: string) =>
      `<div class="box"><h2>${heading}</h2><div class="cards"><div class="card"><div class="picture"><img src="/x.jpg" alt=""></div><div class="text"><p><span>${name}</span>, Executive Editor</p><div class="bio">${bio(name)}<a href="/authors/x">See Full Bio</a></div><a href="/authors/x">View all posts by ${name}</a></div></div></div></div>`;
    const share = `<div class="bar"><span>Share</span><a href="https://social.example/share"><span class="label">Share this page to Facebook</span></a><span>Print This Page</span></div>`;
    const html = `<!DOCTYPE html><html><head><title>Regular walks can lift your mood</title></head><body><main><article>
      <header><h1>Regular walks can lift your mood</h1></header><div class="meta"><time>July 1, 2023</time></div>${share}
      <div class="post-body">${tips('Walking note', 5)}</div>${card('About the Author', 'Mary Example')}${card('About the Reviewer', 'Tina Example')}${share}
      <div class="notice"><h2>Disclaimer:</h2><div class="inner"><div>${'As a service to our readers, the publisher keeps its archive of older articles online; note the date of each one. '.repeat(3)}</div></div></div>
      </article></main></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('Walking note 5');
    expect(markdown).not.toContain('View all posts by Mary Example');
    expect(markdown).not.toContain('As a service to our readers');
  });

  it('does not widen to <main> for the team cards and buttons around one text', () => {
    const team = Array.from({ length: 30 }, (_, index) => `<div class="person"><div>Advisor ${index}</div><div>Managing Director</div><a href="/team/${index}">Profile</a></div>`).join('');
    const markdown = main(builderPage(`${textModule('Build savings', 'Savings tip', 5)}<div class="row-wrapper"><div class="row"><div class="col"><div class="team">${team}</div></div></div></div>`));
    expect(markdown).toContain('Savings tip 5');
    expect(markdown).not.toContain('Managing Director');
  });
});
