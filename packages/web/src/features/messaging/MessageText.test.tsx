import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageText } from './MessageText.tsx';

afterEach(cleanup);

describe('MessageText', () => {
  const text = 'pics at https://pics.example.com/x ok?';

  it('makes http(s) links clickable, opening safely in a new tab', () => {
    render(<MessageText content={text} mine={false} linkBlocked={false} />);
    const link = screen.getByRole('link', { name: 'https://pics.example.com/x' });
    expect(link.getAttribute('href')).toBe('https://pics.example.com/x');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('keeps a link the server disabled as plain text, with a warning, for the receiver', () => {
    const { container } = render(<MessageText content={text} mine={false} linkBlocked />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.textContent).toContain(text);
    expect(screen.getByText(/Link disabled: you haven't matched/)).toBeTruthy();
  });
});
