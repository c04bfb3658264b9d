/** A labelled group of read-only chips; nothing renders when the list is empty. */
export function ChipGroup({ label, values }: { label: string; values: readonly string[] }) {
  if (values.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-muted">{label}</h3>
      <ul className="flex flex-wrap gap-2" aria-label={label}>
        {values.map((v) => (
          <li key={v} className="rounded-full border border-line bg-canvas px-3 py-1.5 text-sm font-medium text-ink">
            {v}
          </li>
        ))}
      </ul>
    </div>
  );
}
