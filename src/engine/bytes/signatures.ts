/**
 * Signatures of files that are no document the engine reads, so that an error can say what a file looks like
 * ("a PNG image", "a Windows executable") instead of only that it is not what its name claims.
 */
import { latin1, startsWith } from './binary.js';

interface Signature {
  bytes: readonly number[];
  /** A text format: its signature wins even though the file reads as text. */
  text?: boolean;
  /** Where the signature starts (0 unless said). */
  at?: number;
  looksLike: string;
}

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

const SIGNATURES: readonly Signature[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], looksLike: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], looksLike: 'a JPEG image' },
  { bytes: ascii('GIF87a'), looksLike: 'a GIF image' },
  { bytes: ascii('GIF89a'), looksLike: 'a GIF image' },
  { bytes: ascii('WEBP'), at: 8, looksLike: 'a WebP image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], looksLike: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], looksLike: 'a TIFF image' },
  { bytes: [0x00, 0x00, 0x01, 0x00], looksLike: 'an icon (ICO) image' },
  { bytes: ascii('8BPS'), looksLike: 'a Photoshop image' },
  { bytes: ascii('%!PS'), text: true, looksLike: 'a PostScript file' },
  { bytes: ascii('MZ'), looksLike: 'a Windows executable or library' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], looksLike: 'a Linux or Unix executable (ELF)' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], looksLike: 'a macOS executable (Mach-O)' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], looksLike: 'a macOS executable (Mach-O)' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], looksLike: 'a Java class file or a macOS universal executable' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], looksLike: 'a WebAssembly module' },
  { bytes: [0x1f, 0x8b], looksLike: 'a gzip-compressed file' },
  { bytes: ascii('BZh'), looksLike: 'a bzip2-compressed file' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], looksLike: 'an xz-compressed file' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], looksLike: 'a zstd-compressed file' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], looksLike: 'a 7-Zip archive' },
  { bytes: ascii('Rar!\x1a\x07'), looksLike: 'a RAR archive' },
  { bytes: ascii('ustar'), at: 257, looksLike: 'a tar archive' },
  { bytes: ascii('SQLite format 3\0'), looksLike: 'an SQLite database' },
  { bytes: ascii('ID3'), looksLike: 'an MP3 audio file' },
  { bytes: ascii('OggS'), looksLike: 'an Ogg audio or video file' },
  { bytes: ascii('fLaC'), looksLike: 'a FLAC audio file' },
  { bytes: ascii('WAVE'), at: 8, looksLike: 'a WAV audio file' },
  { bytes: ascii('AVI '), at: 8, looksLike: 'an AVI video' },
  { bytes: ascii('ftyp'), at: 4, looksLike: 'an MP4 or QuickTime video (or HEIC image)' },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], looksLike: 'a Matroska or WebM video' },
  { bytes: ascii('wOFF'), looksLike: 'a web font (WOFF)' },
  { bytes: ascii('wOF2'), looksLike: 'a web font (WOFF2)' },
  { bytes: ascii('OTTO'), looksLike: 'an OpenType font' },
  { bytes: [0x00, 0x01, 0x00, 0x00, 0x00], looksLike: 'a TrueType font' },
];

/**
 * What bytes look like, from a known signature, or null. `isText`: whether the file reads as text, in which case a
 * signature of printable letters ("MZ", "BZh", "ID3") is only the start of a line of text.
 */
export function binaryLooksLike(bytes: Uint8Array, isText: boolean): string | null {
  for (const signature of SIGNATURES) {
    if (!startsWith(bytes, signature.bytes, signature.at ?? 0)) continue;
    if (isText && !signature.text && signature.bytes.every((byte) => byte >= 0x20 && byte < 0x7f)) continue;
    return signature.looksLike;
  }
  // BMP: "BM" then the file size, little-endian (two letters alone are too common a start).
  if (bytes.length >= 14 && latin1(bytes, 0, 2) === 'BM') {
    const declared = (bytes[2] ?? 0) | ((bytes[3] ?? 0) << 8) | ((bytes[4] ?? 0) << 16) | ((bytes[5] ?? 0) << 24);
    if (declared === bytes.length) return 'a BMP image';
  }
  return null;
}
