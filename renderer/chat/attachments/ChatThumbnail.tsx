import { useEffect, useState } from 'react';
import type { ChatImage } from '../../../common/chat';
import { api } from '../../api';
import { useI18n } from '../../i18n/I18nProvider';

/** Pictures already fetched, by blob name: a chat re-rendered does not ask main again. */
const loaded = new Map<string, string>();

/** A picture of the chat by its blob name; a click shows it full size, another click shrinks it. */
export function ChatThumbnail({ image, alt }: { image: ChatImage; alt: string }) {
  const { t } = useI18n();
  const [url, setUrl] = useState<string | null>(() => loaded.get(image.ref) ?? null);
  const [failed, setFailed] = useState(false);
  const [large, setLarge] = useState(false);
  useEffect(() => {
    if (loaded.has(image.ref)) return;
    let live = true;
    void api.request('chat.image', { ref: image.ref }).then((result) => {
      if (!live) return;
      if (!result.ok) return setFailed(true);
      const data = `data:${result.value.mediaType};base64,${result.value.data}`;
      loaded.set(image.ref, data);
      setUrl(data);
    });
    return () => {
      live = false;
    };
  }, [image.ref]);
  if (failed) return <span className="chat-image is-missing">{t('chat.images.missing')}</span>;
  return (
    <button
      type="button"
      className={`chat-image${large ? ' is-large' : ''}`}
      aria-expanded={large}
      title={large ? t('chat.images.shrink') : t('chat.images.enlarge')}
      onClick={() => setLarge(!large)}
    >
      {url ? <img src={url} alt={alt} /> : <span className="chat-image-loading" aria-label={alt} />}
    </button>
  );
}

export function ChatThumbnails({ images, alt }: { images: readonly ChatImage[] | undefined; alt: (n: number) => string }) {
  if (!images?.length) return null;
  return (
    <div className="chat-images">
      {images.map((image, index) => (
        <ChatThumbnail key={`${image.ref}-${index}`} image={image} alt={alt(index + 1)} />
      ))}
    </div>
  );
}
