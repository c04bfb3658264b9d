import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './Spinner.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const base =
  'inline-flex min-h-12 items-center justify-center gap-2 rounded-full px-5 transition-colors disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-strong';
const variants: Record<ButtonVariant, string> = {
  // White on #FF4458 is 3.3:1, enough only for large text (WCAG: 14pt bold = 18.66px), so the
  // brand button's label is 19px bold; the pressed shade is darker still.
  primary: 'bg-primary text-[1.1875rem] font-bold text-white hover:bg-primary-strong active:bg-primary-strong',
  secondary: 'border border-line bg-white text-base font-semibold text-ink hover:bg-canvas',
  ghost: 'bg-transparent text-base font-semibold text-primary-strong hover:bg-primary-soft',
  danger: 'border border-primary-strong bg-white text-base font-semibold text-primary-strong hover:bg-primary-soft',
};

export function buttonClass(variant: ButtonVariant = 'primary', block = false): string {
  return `${base} ${variants[variant]}${block ? ' w-full' : ''}`;
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  block?: boolean;
  loading?: boolean;
  children: ReactNode;
};

export function Button({
  variant = 'primary',
  block = false,
  loading = false,
  disabled,
  className,
  children,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={`${buttonClass(variant, block)}${className ? ` ${className}` : ''}`}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size={18} label="Working" /> : null}
      {children}
    </button>
  );
}

export function ButtonLink({
  variant = 'primary',
  block = false,
  className,
  ...rest
}: LinkProps & { variant?: ButtonVariant; block?: boolean }) {
  return <Link className={`${buttonClass(variant, block)}${className ? ` ${className}` : ''}`} {...rest} />;
}
