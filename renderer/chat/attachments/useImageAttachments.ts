import { useCallback, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import type { ImageAttachment } from '../../../common/contract';
import { ACCEPTED_TYPES, ImagePrepareError, prepareImage, type ImageProblem, type PreparedImage } from './downscale';

export const MAX_IMAGES = 4;

export interface PendingImage extends PreparedImage {
  id: string;
  name: string;
}

export type AttachProblem = ImageProblem | 'tooMany';

let counter = 0;

/**
 * The pictures waiting in the composer: added by paste or drop, removable, sent with the message.
 * Files that are not pictures are left to the text box (a pasted text stays a paste).
 */
export function useImageAttachments() {
  const [images, setImages] = useState<PendingImage[]>([]);
  const [problem, setProblem] = useState<AttachProblem | null>(null);
  // Pictures are prepared one after another, so they line up in the order they were pasted.
  const queue = useRef<Promise<void>>(Promise.resolve());

  const prepareAll = useCallback(async (files: readonly File[]) => {
    setProblem(null);
    for (const file of files) {
      try {
        const prepared = await prepareImage(file);
        let full = false;
        setImages((current) => {
          if (current.length >= MAX_IMAGES) {
            full = true;
            return current;
          }
          return [...current, { ...prepared, id: `image-${++counter}`, name: file.name }];
        });
        if (full) setProblem('tooMany');
      } catch (error) {
        setProblem(error instanceof ImagePrepareError ? error.problem : 'unreadable');
      }
    }
  }, []);
  const add = useCallback(
    (files: readonly File[]) => {
      queue.current = queue.current.then(() => prepareAll(files));
      return queue.current;
    },
    [prepareAll],
  );

  const onPaste = useCallback(
    (event: ClipboardEvent) => {
      const files = picturesOf(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      void add(files);
    },
    [add],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if ([...event.dataTransfer.items].some((item) => item.kind === 'file')) event.preventDefault();
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const files = [...event.dataTransfer.files];
      if (files.length === 0) return;
      event.preventDefault();
      const pictures = files.filter((file) => (ACCEPTED_TYPES as readonly string[]).includes(file.type));
      // Said after the pictures are in, which clears the last problem.
      void add(pictures).then(() => {
        if (pictures.length < files.length) setProblem('unsupported');
      });
    },
    [add],
  );

  return {
    images,
    problem,
    onPaste,
    onDragOver,
    onDrop,
    remove: (id: string) => setImages((current) => current.filter((image) => image.id !== id)),
    clear: () => {
      setImages([]);
      setProblem(null);
    },
    /** What the send request carries. */
    forSending: (): ImageAttachment[] => images.map(({ mediaType, data }) => ({ mediaType, data })),
  };
}

/** Picture files on the clipboard; only their kind is checked here, the bytes are checked when prepared. */
function picturesOf(data: DataTransfer): File[] {
  const files = [...data.files].filter((file) => file.type.startsWith('image/'));
  if (files.length > 0) return files;
  return [...data.items].flatMap((item) =>
    item.kind === 'file' && item.type.startsWith('image/') ? [item.getAsFile()].filter((f): f is File => f !== null) : [],
  );
}
