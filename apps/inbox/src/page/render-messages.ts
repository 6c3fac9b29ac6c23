import type { Message, ToolResultContent } from '@toolcircuit/core';

/** A run's conversation as list items: what the human said, what the model said and called, what tools answered. */
export function renderMessages(list: HTMLElement, messages: readonly Message[]): void {
  const items = messages.flatMap((message) => lines(message).map(([role, text]) => item(role, text)));
  list.replaceChildren(...items);
}

function lines(message: Message): [string, string][] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return [
        [
          'user',
          typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join(''),
        ],
      ];
    case 'assistant':
      return message.content.flatMap((part): [string, string][] => {
        if (part.type === 'text' && part.text !== '') return [['assistant', part.text]];
        if (part.type === 'tool_call') return [['assistant', `calls ${part.name} ${JSON.stringify(part.input)}`]];
        return [];
      });
    case 'tool':
      return message.content.map((result) => [
        'tool',
        `${result.name}${result.isError ? ' (refused or failed)' : ''}: ${resultText(result.content)}`,
      ]);
  }
}

function resultText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      part.type === 'text' ? part.text : part.type === 'json' ? JSON.stringify(part.value) : `[${part.type}]`,
    )
    .join('\n');
}

function item(role: string, text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.dataset['role'] = role;
  const label = document.createElement('span');
  label.className = 'role';
  label.textContent = role === 'assistant' ? 'model' : role;
  li.append(label, document.createTextNode(text));
  return li;
}
