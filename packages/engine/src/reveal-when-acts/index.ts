// Public API: foes hidden until they act (issue 20, ADR 71).
export { REVEAL_WHEN_ACTS_ID, revealMarks } from './model.js';
export { revealWhenActsModule } from './module.js';
