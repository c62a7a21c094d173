/** The pieces as one array (the piece itself when there is only one). */
export function joinBytes(pieces: readonly Uint8Array[], size = pieces.reduce((sum, piece) => sum + piece.length, 0)): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}
