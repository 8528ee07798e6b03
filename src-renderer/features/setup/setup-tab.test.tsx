// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { KEY_PLACEHOLDER } from './setup-snippets';
import { SetupTab } from './setup-tab';

afterEach(() => cleanup());

const snippetsText = () =>
  screen
    .getAllByRole('article')
    .filter((a) => !a.classList.contains('claude-code-config'))
    .map((a) => a.querySelector('pre')?.textContent ?? '')
    .join('\n');

describe('the Setup tab (issue 21 §17)', () => {
  it('issue 21 §17: a key pasted into the key field fills every snippet, in full, instead of the placeholder', async () => {
    await renderWithFake(<SetupTab />);
    expect(snippetsText()).toContain(KEY_PLACEHOLDER);

    fireEvent.change(screen.getByLabelText('Local key'), { target: { value: ' lw-pasted-key-0123456789 ' } });
    await flush();
    const text = snippetsText();
    expect(text).not.toContain(KEY_PLACEHOLDER);
    expect(text).toContain('export ANTHROPIC_AUTH_TOKEN=lw-pasted-key-0123456789\n');
    expect(text).toContain('--openai-api-key lw-pasted-key-0123456789');
    expect(text).toContain('export LEEWAY_KEY=lw-pasted-key-0123456789');
    expect(screen.getByText('Snippets use the key you pasted below.')).toBeTruthy();

    // Cleared again: back to the placeholder.
    fireEvent.change(screen.getByLabelText('Local key'), { target: { value: '' } });
    await flush();
    expect(snippetsText()).toContain(KEY_PLACEHOLDER);
  });
});
