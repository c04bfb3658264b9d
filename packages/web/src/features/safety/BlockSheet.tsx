import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useBlockMutation } from './queries.ts';

/** The confirm step of a block (from a chat, a profile or a grid cell); done, it leaves for /messages unless told to stay. */
export function BlockSheet({
  open,
  onClose,
  userId,
  name,
  leaveTo = '/messages',
}: {
  open: boolean;
  onClose: () => void;
  userId: string;
  name: string;
  /** Where to go once he is blocked (his chat or profile is gone); null stays (the grid drops him itself). */
  leaveTo?: string | null;
}) {
  const block = useBlockMutation();
  const toast = useToast();
  const navigate = useNavigate();
  return (
    <Sheet open={open} onClose={onClose} title={`Block ${name}?`}>
      <div className="flex flex-col gap-4 pb-2">
        <p className="text-base text-ink">
          He won't see you anywhere and can't message you. Your conversation with him is deleted. You can unblock him in Settings.
        </p>
        <Button
          variant="danger"
          block
          loading={block.isPending}
          onClick={() =>
            // mutateAsync, not mutate's callbacks: the block removes this chat (and this sheet) first.
            block.mutateAsync(userId).then(
              () => {
                onClose();
                toast.success('Blocked', `${name} is blocked.`);
                if (leaveTo) navigate(leaveTo, { replace: true });
              },
              (e: unknown) => toast.error("Couldn't block him", errorMessage(e, 'Check your connection and try again.')),
            )
          }
        >
          Block {name}
        </Button>
        <Button variant="secondary" block onClick={onClose}>
          Cancel
        </Button>
      </div>
    </Sheet>
  );
}
