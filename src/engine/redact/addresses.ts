/**
 * Postal addresses for the recall-first mode: a house number with a street word (Street, Avenue, Straße, rue...),
 * UK postcodes, a US city with state and ZIP, and a 5-digit postcode followed by a capitalised city name.
 */
import type { PiiSpan } from './entities.js';

const ENGLISH_STREET =
  /(?<![\w-])\d{1,5}[A-Za-z]?[ \t]+(?:\p{Lu}[\p{L}'-]*[ \t]+){1,3}(?:Street|St\.|Avenue|Ave\.?|Road|Rd\.|Boulevard|Blvd\.?|Lane|Ln\.|Drive|Dr\.|Terrace|Way|Place|Pl\.|Court|Ct\.|Parkway|Pkwy\.?|Square|Sq\.|Highway|Hwy\.?|Crescent|Close|Gardens)(?![\p{L}])/gu;
const CONTINENTAL_STREET =
  /(?<![\p{L}])\p{Lu}[\p{L}-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ring|laan|straat|gracht|vej|gatan|väg)[ \t]+\d{1,4}[a-z]?(?![\w])/gu;
const ROMANCE_STREET =
  /(?<![\w])(?:\d{1,4}(?:[ \t]?(?:bis|ter))?,?[ \t]+)?(?:[Rr]ue|[Aa]venue|[Bb]oulevard|[Cc]hemin|[Aa]llée|[Ii]mpasse|[Qq]uai|[Cc]alle|[Vv]ia|[Pp]iazza|[Cc]orso)[ \t]+(?:(?:de|du|des|la|le|del|della|di|l'|d')[ \t]*){0,2}\p{Lu}[\p{L}'-]+(?:[ \t]+\p{Lu}[\p{L}'-]+)?(?:,?[ \t]+\d{1,4}[a-z]?(?![\w]))?/gu;
const UK_POSTCODE = /(?<![\w])(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?)[ \t]?\d[ABD-HJLNP-UW-Z]{2}(?![\w])/g;
const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';
const US_CITY_ZIP = new RegExp(`(?<![\\p{L}])\\p{Lu}\\p{Ll}+(?:[ \\t]\\p{Lu}\\p{Ll}+)?,[ \\t]+(?:${US_STATES})[ \\t]+\\d{5}(?:-\\d{4})?(?![\\w])`, 'gu');
const POSTCODE_CITY = /(?<![\w#.,/-])\d{5}[ \t]+\p{Lu}\p{Ll}[\p{L}-]*(?:[ \t]\p{Lu}\p{Ll}[\p{L}-]*)?/gu;

const PATTERNS = [ENGLISH_STREET, CONTINENTAL_STREET, ROMANCE_STREET, UK_POSTCODE, US_CITY_ZIP, POSTCODE_CITY];

export function findAddresses(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      spans.push({ start: match.index, end: match.index + match[0].length, entity: 'LOCATION' });
    }
  }
  return spans;
}
