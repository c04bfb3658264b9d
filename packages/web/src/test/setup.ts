import { configure } from '@testing-library/react';

// findBy/waitFor give up after 1 s by default; on a busy 2-core machine a screen's first render
// can take longer than that without anything being wrong (a lazy screen took over 4 s at load 16).
// A failure still fails, a few seconds later.
configure({ asyncUtilTimeout: 10_000 });
