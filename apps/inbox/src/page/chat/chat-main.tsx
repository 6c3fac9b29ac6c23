import { createRoot } from 'react-dom/client';
import { ChatApp } from './chat-app.js';

// The chat page: the same login as the inbox (a `#token=…` link, kept for this tab only), then `useChat`
// against the run server's `POST /chat`.
createRoot(document.getElementById('root') as HTMLElement).render(<ChatApp />);
