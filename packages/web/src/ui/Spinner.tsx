export function Spinner({ label = 'Loading', size = 32 }: { label?: string; size?: number }) {
  return (
    <span role="status" className="inline-flex items-center justify-center">
      <svg className="animate-spin text-primary" width={size} height={size} viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}
