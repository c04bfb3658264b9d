import { Messages } from '@fmk/core';
import { Button } from '../ui/Button.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';

/** Spec section 2 "Error screen": used by the root error boundary and for auth init failure. */
export function ErrorScreen({ onRetry, detail }: { onRetry: () => void; detail?: string | null }) {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center bg-white">
      <ErrorState
        title={Messages.somethingWentWrong}
        body={Messages.errorBody}
        detail={detail ?? null}
        actions={
          <>
            <Button onClick={onRetry} block>
              Try Again
            </Button>
            <Button variant="secondary" onClick={() => window.location.reload()} block>
              Reload Page
            </Button>
          </>
        }
      />
    </main>
  );
}
