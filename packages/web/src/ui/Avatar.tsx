import type { ImgHTMLAttributes } from 'react';
import { type PhotoPerson, photoSrc } from './photoSrc.ts';

/** The round sizes in use, in pixels, and their classes (Tailwind builds only classes written out whole). */
const ROUND = { 32: 'size-8', 40: 'size-10', 48: 'size-12', 56: 'size-14', 72: 'size-18' } as const;

type ImgProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt' | 'width' | 'height'>;

/**
 * A man's photo (his grid thumbnail), or the placeholder drawn from his id and name when he has
 * none. Decorative: his name is always written beside it. `size` makes a round avatar; without
 * it the caller gives the box (grid and likes cards). A photo the viewer's content filter hides
 * (`photoHidden`) shows the hidden-photo tile; one it blurs (`photoBlurred`) is shown blurred.
 */
export function Avatar({
  person,
  name,
  size,
  width = size,
  height = width,
  className = '',
  ...img
}: ImgProps & {
  person: PhotoPerson;
  name: string;
  size?: keyof typeof ROUND;
  width?: number;
  height?: number;
}) {
  const shape = size ? `${ROUND[size]} rounded-full` : '';
  const { src, hidden, blurred } = photoSrc(person, name);
  return (
    <img
      src={src}
      alt=""
      width={width}
      height={height}
      title={hidden ? 'Photo hidden by your content settings' : undefined}
      data-photo={hidden ? 'hidden' : blurred ? 'blurred' : undefined}
      className={`${shape} object-cover ${blurred ? 'blur-md' : ''} ${className}`.trim()}
      {...img}
    />
  );
}
