import { Role } from '@a2a-js/sdk';

/** A user's text message as the official SDK's client sends it, continuing a task when given one. */
export function userMessage(text: string, taskId = '', contextId = '') {
  return {
    tenant: '',
    message: {
      messageId: `m-${Math.random()}`,
      contextId,
      taskId,
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}
