import { useState } from 'react';
import { ChatPage } from './chat-page.js';

/** The inbox's key: one login for both pages of a tab. */
const TOKEN_KEY = 'toolcircuit-inbox-token';

function tokenFromLink(): string | undefined {
  // A login link (`chat.html#token=…`) is taken once and removed from the address bar.
  const fromLink = /(?:^|&)token=([^&]+)/.exec(location.hash.slice(1))?.[1];
  if (fromLink === undefined) return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  const token = decodeURIComponent(fromLink);
  sessionStorage.setItem(TOKEN_KEY, token);
  history.replaceState(null, '', location.pathname + location.search);
  return token;
}

export function ChatApp() {
  const [token, setToken] = useState(tokenFromLink);
  const [typed, setTyped] = useState('');
  return (
    <>
      <header className="top">
        <h1>
          toolcircuit <span>chat</span>
        </h1>
        <p className="who">
          <a href="./">Approval inbox</a>
        </p>
      </header>
      {token === undefined ? (
        <form
          className="login"
          onSubmit={(event) => {
            event.preventDefault();
            sessionStorage.setItem(TOKEN_KEY, typed);
            setToken(typed);
          }}
        >
          <label htmlFor="token">Login token</label>
          <input
            id="token"
            type="password"
            autoComplete="off"
            required
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit">Sign in</button>
        </form>
      ) : (
        <ChatPage token={token} />
      )}
    </>
  );
}
