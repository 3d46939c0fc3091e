/**
 * Placing a result's pictures as files: the limits that keep an image bomb out (pixels declared, count, total bytes),
 * each failing the document with IMAGES_OVER_LIMIT naming it, and a remote API's answer, whose base64 pictures are
 * lifted on arrival.
 */
import { describe, expect, it } from 'vitest';
import { embeddedImageReference, liftDataImages, type EmbeddedImage } from '../../../src/backend/embedded-images.js';
import { IMAGE_LIMITS } from '../../../src/pipeline/images/image-limits.js';
import { placeImages, placeResultImages } from '../../../src/pipeline/images/place-images.js';
import { png, sha256 } from '../../engine/images/make-image-documents.js';

const place = { file: 'in/report.docx', linkOf: (name: string) => `report.docx.assets/${name}` };

function embedded(bytes: Uint8Array, mediaType = 'image/png'): EmbeddedImage {
  return { sha256: sha256(bytes), mediaType, bytes };
}

function markdownOf(images: EmbeddedImage[]): string {
  return images.map((image, index) => `![picture ${index}](${embeddedImageReference(image.sha256)})`).join('\n\n');
}

/** A PNG whose header declares `width` × `height` pixels over a few bytes of data: what a decompression bomb looks like. */
function declaredPng(width: number, height: number): Uint8Array {
  const bytes = png(20, 20, 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}

describe('placeImages limits', () => {
  it('refuses a picture declaring more pixels than allowed, naming the file', () => {
    const bomb = embedded(declaredPng(60_000, 60_000));
    expect(() => placeImages({ markdown: markdownOf([bomb]) }, [bomb], place)).toThrow(
      expect.objectContaining({ code: 'IMAGES_OVER_LIMIT', message: expect.stringMatching(/^in\/report\.docx: a picture of 60000 × 60000 pixels/) }),
    );
  });

  it('refuses more pictures than the count allows, and more bytes than the total allows', () => {
    const images = [1, 2, 3].map((seed) => embedded(png(20, 20, seed)));
    const data = { markdown: markdownOf(images) };
    expect(() => placeImages(data, images, place, { ...IMAGE_LIMITS, maxCount: 2 })).toThrow(/in\/report\.docx: more than 2 pictures/);
    const total = images.reduce((sum, image) => sum + image.bytes.byteLength, 0);
    expect(() => placeImages(data, images, place, { ...IMAGE_LIMITS, maxTotalBytes: total - 1 })).toThrow(/over the limit of \d+ bytes together/);
    expect(placeImages(data, images, place, { ...IMAGE_LIMITS, maxCount: 3, maxTotalBytes: total }).assets).toHaveLength(3);
  });

  it('counts a repeated picture once against the limits', () => {
    const logo = embedded(png(20, 20, 4));
    const data = { markdown: markdownOf([logo, logo, logo]) };
    const placed = placeImages(data, [logo], place, { ...IMAGE_LIMITS, maxCount: 1 });
    expect(placed.assets.map((asset) => asset.name)).toEqual(['image-1.png']);
    expect(placed.data.markdown?.match(/report\.docx\.assets\/image-1\.png/g)).toHaveLength(3);
  });
});

describe('a remote API answer with base64 pictures', () => {
  it('is lifted and placed as the local engine result is, spans moved with the Markdown', () => {
    const photo = png(40, 30, 2);
    const uri = `data:image/png;base64,${Buffer.from(photo).toString('base64')}`;
    const markdown = `# Title\n\n![Photo](${uri})\n\nText after.`;
    const data = {
      markdown,
      blocks: [
        {
          pageNumber: 1,
          width: null,
          height: null,
          status: 'ok' as const,
          items: [
            { id: 'p1.b0', readingOrder: 0, type: 'title', content: '# Title', markdownSpan: [0, 7] as [number, number] },
            { id: 'p1.b1', readingOrder: 1, type: 'figure', content: `![Photo](${uri})`, markdownSpan: [9, 9 + `![Photo](${uri})`.length] as [number, number] },
            { id: 'p1.b2', readingOrder: 2, type: 'text', content: 'Text after.', markdownSpan: [markdown.length - 11, markdown.length] as [number, number] },
          ],
        },
      ],
    };
    const placed = placeResultImages({ data, attempts: 1, durationMs: 1 }, place);
    expect(placed.assets.map((asset) => sha256(asset.bytes))).toEqual([sha256(photo)]);
    expect(placed.data.markdown).toBe('# Title\n\n![Photo](report.docx.assets/image-1.png)\n\nText after.');
    for (const item of placed.data.blocks![0]!.items) expect(placed.data.markdown!.slice(...item.markdownSpan!)).toBe(item.content);
    expect(liftDataImages(placed.data).images).toEqual([]);
  });
});
