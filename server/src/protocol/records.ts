/**
 * The results' and messages' records are keyed by the user's names (variables, states,
 * hypotheses), which may be `__proto__` or `constructor`: read and write them through these, here
 * for the webview, which imports only the protocol (the helpers themselves are the engine's).
 */
export { ownValue, setOwn } from '../engine/records.js';
