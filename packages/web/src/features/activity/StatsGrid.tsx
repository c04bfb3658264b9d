import type { ActivityStats } from '@fmk/core';

export function StatsGrid({ stats }: { stats: ActivityStats }) {
  const tiles = [
    { label: 'Total', value: String(stats.totalActivities) },
    { label: 'This week', value: String(stats.thisWeek) },
    { label: 'This month', value: String(stats.thisMonth) },
    { label: 'Partners', value: String(stats.uniquePartners) },
    { label: 'Avg rating', value: stats.averageRating ? stats.averageRating.toFixed(1) : '–' },
  ];
  return (
    <section aria-label="Your stats" className="flex flex-col gap-3 px-4 py-3">
      <dl className="grid grid-cols-3 gap-2">
        {tiles.slice(0, 3).map((t) => (
          <Tile key={t.label} {...t} strong />
        ))}
      </dl>
      <dl className="grid grid-cols-2 gap-2">
        {tiles.slice(3).map((t) => (
          <Tile key={t.label} {...t} />
        ))}
        <Tile label="Favourite activity" value={stats.favoriteActivity} />
        <Tile label="Favourite place" value={stats.favoriteLocation} />
      </dl>
    </section>
  );
}

function Tile({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex flex-col-reverse gap-0.5 rounded-2xl p-3 ${strong ? 'bg-primary-soft' : 'bg-canvas'}`}>
      <dt className="text-xs font-semibold text-muted">{label}</dt>
      <dd className={`truncate font-bold text-ink ${strong ? 'text-2xl' : 'text-base'}`}>{value}</dd>
    </div>
  );
}
