import { useI18n } from '../../i18n/I18nProvider';
import type { PendingImage } from './useImageAttachments';

/** The pictures that go with the next message, each with a button that takes it off. */
export function ImageAttachments({ images, onRemove }: { images: readonly PendingImage[]; onRemove(id: string): void }) {
  const { t } = useI18n();
  if (images.length === 0) return null;
  return (
    <ul className="composer-images" aria-label={t('chat.images.attached')}>
      {images.map((image, index) => (
        <li key={image.id} className="composer-image">
          <img src={`data:${image.mediaType};base64,${image.data}`} alt={t('chat.images.alt', { n: index + 1 })} width={image.width} height={image.height} />
          <button
            type="button"
            className="composer-image-remove"
            aria-label={t('chat.images.remove', { n: index + 1 })}
            title={t('chat.images.remove', { n: index + 1 })}
            onClick={() => onRemove(image.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
