// Runtime values from the protocol the browser needs (checked for bundle size:
// importing these must not pull zod into the web bundle).
export { WS_PATH, wsProtocols, CLOSE, capabilityLink } from '@tablekeeper/protocol';
