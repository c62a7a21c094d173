import { z } from 'zod';
import { JsonLinesWriter, readJsonLines, type JsonLinesContents } from '../platform/jsonLines';
import type { TranscriptRecordInput } from './transcriptRecords';

/**
 * A session's transcript: JSON Lines (platform/jsonLines.ts) of the records in transcriptRecords.ts,
 * appended as things happen. Only WorkspaceSession writes it.
 */
export class TranscriptWriter extends JsonLinesWriter<TranscriptRecordInput> {}

/** A line that is a record of some type; each reader parses the types it reads with their schemas. */
const StoredRecordSchema = z.looseObject({ type: z.string() });
export type StoredRecord = z.output<typeof StoredRecordSchema>;

export type TranscriptContents = JsonLinesContents<StoredRecord>;

/** Every line that is a record; a damaged line or one that is no record is skipped with a warning. */
export function readTranscript(path: string): TranscriptContents {
  return readJsonLines(path, StoredRecordSchema, { notARecord: 'is not a transcript record' });
}
