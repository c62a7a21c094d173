/** A folder such as a home directory could hold millions of files: the @-mention index stops here. */
export const MAX_INDEXED_FILES = 500_000;
