import { useThreadsQuery } from './queries.ts';

/** Settings' Help link: how many answers from support he has not read (nothing when none). */
export function SupportUnreadBadge() {
  const threads = useThreadsQuery();
  const unread = threads.data?.reduce((n, t) => n + t.unread, 0) ?? 0;
  if (!unread) return null;
  return (
    <span className="flex min-w-6 items-center justify-center rounded-full bg-primary-strong px-1.5 text-xs font-bold text-white">
      {unread > 9 ? '9+' : unread}
      <span className="sr-only"> new {unread === 1 ? 'answer' : 'answers'} from support</span>
    </span>
  );
}
