import type { SendResult } from '../net/client.ts';
import type { ClientCommand } from '../net/codec.ts';

/** Send one command to the table; resolves with the server's answer. */
export type Send = (command: ClientCommand) => Promise<SendResult>;
