/**
 * The folder of docmill's own records in an output folder (`_docmill/`: state, index, manifest, the embedded
 * Redis's files), named in one place for the store that writes it and the sources that must not list it.
 */
export const RECORDS_FOLDER = '_docmill';
