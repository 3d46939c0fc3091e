/**
 * Credentials: provider API keys and tokens by their documented prefixes, private key blocks, JWTs (checked by
 * decoding their header) and the values of password-like `key=value` / `key: value` pairs. Every mode finds these:
 * a leaked secret is never worth a precision trade-off.
 */
import type { PiiSpan } from './entities.js';

const PROVIDER_TOKENS: readonly RegExp[] = [
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g, // AWS access key ids
  /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, // GitHub classic tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g, // GitHub fine-grained tokens
  /\bxox[abpres]-[A-Za-z0-9-]{10,255}/g, // Slack
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,255}\b/g, // Stripe
  /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, // Google API keys
  /\bsk-ant-[A-Za-z0-9_-]{20,255}/g, // Anthropic
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g, // OpenAI
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm
  /\bglpat-[A-Za-z0-9_-]{20,255}/g, // GitLab
];

/** A PEM private key; an unterminated block still hides its base64 lines. */
const PRIVATE_KEY_BLOCK =
  /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:\r?\n[A-Za-z0-9+/=:, -]{1,100})*)/g;

const JWT_CANDIDATE = /(?<![\w-])[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{8,}(?![\w-])/g;

/** The key of a password-like pair, possibly prefixed (`db_password`, `GITHUB_TOKEN`, `client-secret`). */
const SECRET_PAIR =
  /(?<![A-Za-z0-9])[A-Za-z0-9_.-]{0,40}?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?([^\s"'`,;<>]{4,200})/gi;

export function findSecrets(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const add = (start: number, end: number): void => void spans.push({ start, end, entity: 'SECRET' });
  for (const pattern of PROVIDER_TOKENS) {
    for (const match of text.matchAll(pattern)) add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(PRIVATE_KEY_BLOCK)) add(match.index, match.index + match[0].length);
  for (const match of text.matchAll(JWT_CANDIDATE)) {
    if (isJwtHeader(match[0].slice(0, match[0].indexOf('.')))) add(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(SECRET_PAIR)) {
    const value = match[1] as string;
    if (!looksLikeSecretValue(value)) continue;
    const end = match.index + match[0].length;
    add(end - value.length, end);
  }
  return spans;
}

/** Whether a base64url segment decodes to a JSON object naming a signing algorithm, as a JWT header does. */
function isJwtHeader(segment: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

/**
 * A value, not prose or a placeholder: `password: click here` or `token: ****` are not secrets; a value with a
 * digit, a symbol or mixed case, or a long one, is.
 */
function looksLikeSecretValue(value: string): boolean {
  if (/^[*.xX•_-]+$/.test(value) || /^(?:none|null|undefined|true|false|required|optional|redacted)$/i.test(value)) {
    return false;
  }
  return /\d/.test(value) || /[^A-Za-z]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)) || value.length >= 16;
}
