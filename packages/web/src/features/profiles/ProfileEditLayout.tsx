import type { Me } from '@fmk/core';
import { createContext, type Dispatch, type SetStateAction, useContext, useState } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../auth/AuthProvider.tsx';
import { draftFrom, type ProfileDraft } from './editState.ts';

interface DraftApi {
  draft: ProfileDraft;
  setDraft: Dispatch<SetStateAction<ProfileDraft>>;
  /** Starts again from a saved user record. */
  reset(me: Me): void;
}

const DraftContext = createContext<DraftApi | null>(null);

export function useProfileDraft(): DraftApi {
  const ctx = useContext(DraftContext);
  if (!ctx) throw new Error('useProfileDraft must be used within a ProfileEditLayout');
  return ctx;
}

/** Holds the edit form while moving between /profile/edit and its prompt selector. */
export function ProfileEditLayout() {
  const { user } = useAuth();
  if (!user) return null;
  return <DraftHolder user={user} />;
}

function DraftHolder({ user }: { user: Me }) {
  const [draft, setDraft] = useState<ProfileDraft>(() => draftFrom(user));
  return (
    <DraftContext.Provider value={{ draft, setDraft, reset: (me) => setDraft(draftFrom(me)) }}>
      <Outlet />
    </DraftContext.Provider>
  );
}
