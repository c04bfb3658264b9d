/** http(s) addresses in a text: what the chat makes clickable. */
const URL_RE = /(https?:\/\/[^\s<>"']+)/g;

/**
 * A text message. Its http(s) links are clickable, except in a message the server marked
 * `linkBlocked` (a link from a man he has not matched, with linkPreventionEnabled): then the whole
 * text stays plain and a warning says why.
 */
export function MessageText({ content, mine, linkBlocked }: { content: string; mine: boolean; linkBlocked: boolean }) {
  if (linkBlocked && !mine)
    return (
      <>
        {content}
        <span className="mt-1 block text-xs font-semibold text-primary-strong">
          Link disabled: you haven't matched. Never open links or send money to someone you don't know.
        </span>
      </>
    );
  const parts = content.split(URL_RE);
  if (parts.length === 1) return <>{content}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
            key={i}
            href={part}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="underline"
          >
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
